/** What the confirmation says about an order's state. */

/**
 * The confirmation's status line. An unpaid order says payment is pending (never that anything was
 * charged); "paid" is said only when the server reports the order's payment state as paid.
 */
export function orderStatusText(order: {
  status?: string
  state?: string
  paymentPending?: boolean
  payment_state?: string
}): string {
  const status = order.status ?? order.state ?? ''
  if (status === 'payment_failed') {
    return 'Your order has been received, but the payment did not go through. Payment is pending: you can pay again.'
  }
  if (status === 'pending_payment' || order.paymentPending === true) {
    return 'Your order has been received. Payment is pending: no payment has been taken yet.'
  }
  if (status === 'expired') return 'This order was not paid in time and has expired.'
  if (status === 'canceled' || status === 'cancelled') return 'This order has been canceled.'
  if (order.payment_state === 'paid')
    return 'Thank you, your payment has been received and your order is confirmed.'
  return 'Thank you, your order has been received.'
}

/** Whether the confirmation offers the pay-now button for this order. */
export function offersPayNow(order: { status?: string }): boolean {
  return order.status === 'pending_payment' || order.status === 'payment_failed'
}
