/** The product form's actions: quantity (not for grouped products), add to cart, and the wishlist and compare toggles. */

import type { ReadonlySignal } from '@preact/signals-core'
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
      <ListToggle list={wishlist} summary={summary} name="wishlist" />
      <ListToggle list={compare} summary={summary} name="compare" />
    </div>
  )
}

/** A list the shopper keeps products in: whether the product is there, and the two ways to change that. */
interface ProductList {
  skus: ReadonlySignal<Set<string>>
  add(summary: ProductSummary): Promise<boolean>
  remove(sku: string): Promise<boolean>
}

/** Puts the product in the list or takes it out; pressed while it is there. */
function ListToggle({
  list,
  summary,
  name,
}: {
  list: ProductList
  summary: ProductSummary
  name: 'wishlist' | 'compare'
}) {
  const inList = useSignalValue(list.skus).has(summary.sku)
  return (
    <button
      type="button"
      className={`btn btn--secondary${inList ? ' btn--active' : ''}`}
      aria-pressed={inList}
      onClick={() => void (inList ? list.remove(summary.sku) : list.add(summary))}
      data-testid={`add-to-${name}`}
    >
      {inList ? `Remove from ${name}` : `Add to ${name}`}
    </button>
  )
}
