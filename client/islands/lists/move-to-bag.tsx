/**
 * "Move to bag" on the wishlist page: each piece as the catalogue has it now (catalog-products.ts),
 * added in place (AddToBag: its size asked for there) and then taken off the wishlist; a piece
 * sold out or gone says so in words.
 */

import type { ProductSummary } from '@shared/components/product/summary'
import { wishlist } from '../../state/wishlist'
import { AddToBag } from './add-to-bag'
import type { BagOffer } from './bag-choices'

export function MoveToBag({ item, offer }: { item: ProductSummary; offer: BagOffer | undefined }) {
  if (!offer) return null
  if (offer.kind === 'gone') return <p className="list-item__note">No longer available.</p>
  if (offer.kind === 'sold-out') return <p className="list-item__note">Sold out in every size for now.</p>
  return (
    <AddToBag
      piece={{ sku: item.sku, name: item.name, url: item.url, image: item.image, price: item.price }}
      offer={offer}
      action="Move to bag"
      className="list-item__bag"
      onAdded={() => wishlist.remove(item.sku)}
    />
  )
}
