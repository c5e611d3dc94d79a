/**
 * The ONE place the product page adds to the cart: the cart engine
 * (`getRuntime().cart.addItem`, client/engines/cart/cart-sync.ts), which applies the add rules (price ≤ 0
 * refused with 'Product price is unknown...', product errors, stock check, quantity accumulating
 * by sku, the 'Product has been added to the cart!' notification) and syncs with the server.
 * The runtime (~17 KB gzip) is imported on the first add, so it stays out of the page's budget.
 */
import type { CartLine } from '../../state/cart'

export interface AddToCartLine extends CartLine {
  /** Unit price incl. tax in the base currency: the add is refused when ≤ 0. */
  priceInclTax: number
}

/** Adds lines to the cart one by one; resolves true when every line was added. */
export async function addToCart(lines: AddToCartLine[]): Promise<boolean> {
  if (lines.length === 0) return false
  const { getRuntime } = await import('../../engines/runtime/runtime')
  const cart = getRuntime().cart
  let allAdded = true
  for (const { qty, ...line } of lines) {
    const result = await cart.addItem({ ...line, finalPriceInclTax: line.priceInclTax }, qty)
    if (!result.ok) allAdded = false
    else
      void import('../../engines/analytics').then((m) =>
        m.track('AddToCart', {
          contentIds: [line.sku],
          contentName: line.name,
          contentType: 'product',
          numItems: qty,
          value: line.priceInclTax * qty,
        }),
      )
  }
  return allAdded
}
