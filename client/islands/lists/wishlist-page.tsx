/** The /wishlist page island: the wishlist kept in the browser (and the server when signed in). */
import { defineIsland } from '../define'
import { object, schemaOf, str } from '../props-check'
import { WishlistList } from './wishlist-list'

const WishlistPagePropsSchema = schemaOf<{ currency: string }>(object({ currency: str }))

function WishlistPage({ currency }: { currency: string }) {
  return (
    <section className="list-page" data-testid="wishlist-page">
      <h1>Wishlist</h1>
      <WishlistList currency={currency} />
    </section>
  )
}

export const WishlistPageIsland = defineIsland('wishlist-page', WishlistPage, WishlistPagePropsSchema)
