/**
 * The ONE place the product page adds to the cart. Helper D's cart store API (client/state/cart +
 * client/sync/cart-sync) had not landed when this was written: until it does, lines go into the
 * cart signal with the spec's rules (price ≤ 0 refused, quantity accumulates for the same sku) and
 * the spec's notification. Switch the body of `addToCart` to D's API when it exists.
 */

import { MSG } from '../../../shared/i18n/messages'
import { type CartLine, cartItems } from '../../state/cart'
import { notify } from '../../state/notifications'

export interface AddToCartLine extends CartLine {
  /** Unit price incl. tax in the base currency: the add is refused when ≤ 0. */
  priceInclTax: number
}

/** Adds lines to the cart; resolves false (with an error notification) when refused. */
export async function addToCart(lines: AddToCartLine[]): Promise<boolean> {
  if (lines.length === 0) return false
  if (lines.some((l) => !(l.priceInclTax > 0))) {
    notify({ type: 'error', message: MSG.priceUnknown, action1: { label: MSG.ok } })
    return false
  }
  let next = [...cartItems.value]
  for (const line of lines) {
    const at = next.findIndex((l) => l.sku === line.sku)
    if (at >= 0) {
      const existing = next[at] as CartLine
      next = next.map((l, i) =>
        i === at ? { ...existing, ...line, qty: (existing.qty || 0) + line.qty } : l,
      )
    } else {
      next = [...next, line]
    }
  }
  cartItems.value = next
  notify({
    type: 'success',
    message: MSG.productAddedToCart,
    action1: { label: MSG.ok },
    action2: { label: MSG.proceedToCheckout, href: '/checkout' },
  })
  return true
}
