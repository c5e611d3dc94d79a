/** The product form's actions: quantity (not for grouped products), add to cart, and the wishlist and compare toggles. */
import type { ProductSummary } from '@shared/components/product/summary'
import type { RefObject } from 'react'
import { compare } from '../../state/compare'
import { useSignalValue } from '../../state/use-signal'
import { wishlist } from '../../state/wishlist'

export function ProductActions({
  showQty,
  qty,
  onQty,
  canAdd,
  onAdd,
  addRef,
  summary,
}: {
  showQty: boolean
  qty: string
  onQty: (qty: string) => void
  canAdd: boolean
  onAdd: () => void
  /** The Add to cart button, for the phone's add-to-bag bar to watch. */
  addRef?: RefObject<HTMLButtonElement | null>
  /** The product as the lists keep it (the shown price and the chosen variant's image). */
  summary: ProductSummary
}) {
  const wishlistSkus = useSignalValue(wishlist.skus)
  const compareSkus = useSignalValue(compare.skus)
  const inWishlist = wishlistSkus.has(summary.sku)
  const inCompare = compareSkus.has(summary.sku)
  return (
    <div className="product-actions">
      {showQty ? (
        <label className="qty-input">
          <span className="visually-hidden">Quantity</span>
          <input
            type="number"
            min={1}
            inputMode="numeric"
            value={qty}
            onChange={(e) => onQty(e.currentTarget.value)}
            data-testid="product-qty"
          />
        </label>
      ) : null}
      <button
        type="button"
        className="btn btn--primary"
        disabled={!canAdd}
        onClick={onAdd}
        ref={addRef}
        data-testid="add-to-cart"
      >
        Add to cart
      </button>
      <button
        type="button"
        className={`btn btn--secondary${inWishlist ? ' btn--active' : ''}`}
        aria-pressed={inWishlist}
        onClick={() => void (inWishlist ? wishlist.remove(summary.sku) : wishlist.add(summary))}
        data-testid="add-to-wishlist"
      >
        {inWishlist ? 'Remove from wishlist' : 'Add to wishlist'}
      </button>
      <button
        type="button"
        className={`btn btn--secondary${inCompare ? ' btn--active' : ''}`}
        aria-pressed={inCompare}
        onClick={() => void (inCompare ? compare.remove(summary.sku) : compare.add(summary))}
        data-testid="add-to-compare"
      >
        {inCompare ? 'Remove from compare' : 'Add to compare'}
      </button>
    </div>
  )
}
