/**
 * Placing the order, the checkout's last step: an account is created first when the visitor asked
 * for one (online only; a failure stops here), then the order goes to the order queue, which
 * either has it acknowledged by the server (placed), keeps it on this device to send later
 * (queued, shown as pending — never as confirmed), or reports why it was not taken (rejected, a
 * replayed id) with its own notice.
 */
import { newOrderId } from '@shared/domain/order-hash'
import { currentApiContext } from '../../api'
import type { PlaceOrderResult } from '../../engines/orders/context'
import { randomHex } from '../../engines/random-hex'
import { getRuntime } from '../../engines/runtime/runtime'
import { type CartLine, type CartTotals, cartServerToken } from '../../state/cart'
import { currentUser } from '../../state/user'
import { clientTotals } from '../cart/cart-totals'
import type { CheckoutState } from './checkout-state'
import { buildOrder } from './order-body'

type OrderSubmission =
  | { kind: 'account-failed'; message: string }
  | { kind: 'not-taken' }
  | { kind: 'taken'; result: PlaceOrderResult; skus: string[]; grandTotal: number }

/** Creates the requested account (online only); the user id for the order, or the error message. */
async function accountForOrder(
  state: CheckoutState,
  loggedIn: boolean,
  userId: string | number | null,
): Promise<{ userId: string | number | null } | { error: string }> {
  const online = typeof navigator === 'undefined' || navigator.onLine
  if (loggedIn || !state.personalDetails.createAccount || !online) return { userId }
  const r = await getRuntime().session.register({
    email: state.personalDetails.emailAddress.trim(),
    firstname: state.personalDetails.firstName.trim(),
    lastname: state.personalDetails.lastName.trim(),
    password: state.personalDetails.password,
  })
  if (!r.ok) return { error: r.message }
  return { userId: currentUser.peek()?.id ?? null }
}

/** Sends a valid checkout to the order queue (after creating the requested account). */
export async function submitOrder(input: {
  state: CheckoutState
  items: readonly CartLine[]
  totals: CartTotals | null
  loggedIn: boolean
  userId: string | number | null
}): Promise<OrderSubmission> {
  const { state, items } = input
  const account = await accountForOrder(state, input.loggedIn, input.userId)
  if ('error' in account) return { kind: 'account-failed', message: account.error }
  const now = Date.now()
  const order = buildOrder({
    state,
    items,
    cartId: cartServerToken.peek(),
    userId: account.userId,
    storeCode: currentApiContext().storeCode,
    orderId: newOrderId(now, randomHex(8)),
    now,
  })
  const result = await getRuntime().orders.placeOrder(order as unknown as Record<string, unknown>)
  if (result.state === 'rejected' || result.state === 'duplicate') return { kind: 'not-taken' }
  return {
    kind: 'taken',
    result,
    skus: order.products.map((p) => String(p.sku)),
    grandTotal: (input.totals?.grand_total ?? clientTotals(items).grand_total) || 0,
  }
}

/**
 * One step: an order to be paid online opens the provider's checkout as soon as it is placed
 * (Razorpay's window over this page; PayPal's approval page, which returns to the order page).
 * What the window reported is left for the confirmation, which still shows only what the server
 * says of the order. False when the shopper is on the way to PayPal (nothing else to do here).
 */
export async function payPlacedOrder(taken: Extract<OrderSubmission, { kind: 'taken' }>): Promise<boolean> {
  const c = taken.result.confirmation
  if (c?.status !== 'pending_payment' || typeof c.orderNumber !== 'string') return true
  // The payment module loads when an order needs paying, not with the checkout page (its JS budget).
  const { payPlaced } = await import('./pay-placed')
  return payPlaced(taken.result.orderId, c.orderNumber, c)
}

/** A placed order: the Purchase event, then its confirmation page. */
export async function confirmPurchase(
  state: CheckoutState,
  taken: Extract<OrderSubmission, { kind: 'taken' }>,
): Promise<void> {
  // The analytics code loads only when an order is placed.
  const { purchaseData, track } = await import('../../engines/analytics')
  await track(
    'Purchase',
    purchaseData({
      confirmation: taken.result.confirmation,
      value: taken.grandTotal,
      skus: taken.skus,
      buyer: {
        email: state.personalDetails.emailAddress,
        firstName: state.personalDetails.firstName,
        lastName: state.personalDetails.lastName,
        zip: state.shippingDetails.zipCode,
        phone: state.shippingDetails.phoneNumber,
      },
    }),
  )
  window.location.assign(`/confirmation?orderId=${encodeURIComponent(taken.result.orderId)}`)
}
