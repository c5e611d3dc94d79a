/** The microcart panel's content, loaded on first open. */
import { MSG } from '@shared/i18n/messages'
import { cartItems } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'
import { CartLines } from './cart-lines'
import { CartSummary } from './cart-page'

export function MicrocartBody() {
  const items = useSignalValue(cartItems)
  if (items.length === 0) return <p data-testid="microcart-empty">Your shopping cart is empty.</p>
  return (
    <>
      <CartLines lines={items} compact />
      <CartSummary />
      <a className="btn btn--primary btn--block" href="/checkout">
        {MSG.proceedToCheckout}
      </a>
      <a className="btn btn--link" href="/cart">
        View cart
      </a>
    </>
  )
}
