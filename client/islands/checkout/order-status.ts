/** What the confirmation says about an order's state. */
import { orderDateTime } from '@shared/components/order/order-text'

/** Until when an unpaid order is held, as a sentence ('' when the order has no deadline). */
function heldUntil(expiresAt: number | null | undefined): string {
  const when = typeof expiresAt === 'number' && expiresAt > 0 ? orderDateTime(expiresAt) : ''
  return when ? ` We hold it for you until ${when}; if it is not paid by then, it expires.` : ''
}

/**
 * The confirmation's status line. An unpaid order says nothing has been charged and until when it
 * is held; "paid" is said only when the server reports the order's payment state as paid.
 */
export function orderStatusText(order: {
  status?: string
  state?: string
  paymentPending?: boolean
  payment_state?: string
  expires_at?: number | null
}): string {
  const status = order.status ?? order.state ?? ''
  if (status === 'payment_failed') {
    return `The payment did not go through, so nothing has been charged. You can try again below.${heldUntil(order.expires_at)}`
  }
  if (status === 'pending_payment' || order.paymentPending === true) {
    return `Your order is not paid yet: no payment has been taken.${heldUntil(order.expires_at)}`
  }
  if (status === 'expired') return 'This order was not paid in time and has expired.'
  if (status === 'canceled' || status === 'cancelled') return 'This order has been canceled.'
  if (order.payment_state === 'paid')
    return 'Thank you, your payment has been received and your order is confirmed.'
  return 'Thank you, your order has been received.'
}

/** Whether the confirmation offers the pay button for this order (unpaid and still held). */
export function offersPayNow(
  order: { status?: string; expires_at?: number | null },
  now = Date.now(),
): boolean {
  const payable = order.status === 'pending_payment' || order.status === 'payment_failed'
  return payable && !(typeof order.expires_at === 'number' && order.expires_at <= now)
}
