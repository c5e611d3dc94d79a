/** The /wishlist page island: the wishlist kept in the browser (and the server when signed in). */
import { useSignalValue } from '../../state/use-signal'
import { wishlist } from '../../state/wishlist'
import { defineIsland } from '../define'
import { object, schemaOf, str } from '../props-check'
import { bagOffer } from './bag-choices'
import { useCatalogProducts } from './catalog-products'
import { MoveToBag } from './move-to-bag'
import { WishlistList } from './wishlist-list'

const WishlistPagePropsSchema = schemaOf<{ currency: string }>(object({ currency: str }))

function WishlistPage({ currency }: { currency: string }) {
  // One catalogue search for the whole list: each row's sizes and stock.
  const items = useSignalValue(wishlist.items)
  const products = useCatalogProducts(items.map((i) => i.sku))
  return (
    <section className="list-page" data-testid="wishlist-page">
      <h1>Wishlist</h1>
      <p className="list-page__lead">Pieces you kept for later. Choose a size to move one to your bag.</p>
      <WishlistList
        currency={currency}
        rowExtra={(item) => (
          <MoveToBag item={item} offer={products ? bagOffer(products.get(item.sku) ?? null) : undefined} />
        )}
      />
    </section>
  )
}

export const WishlistPageIsland = defineIsland('wishlist-page', WishlistPage, WishlistPagePropsSchema)
