/** What the confirmation says about an order's state. */

/** The confirmation's status line: a `pending_payment` order says payment is pending, never that it was charged. */
export function orderStatusText(order: {
  status?: string
  state?: string
  paymentPending?: boolean
}): string {
  const status = order.status ?? order.state ?? ''
  if (status === 'pending_payment' || order.paymentPending === true) {
    return 'Your order has been received. Payment is pending: no payment has been taken yet.'
  }
  if (status === 'canceled' || status === 'cancelled') return 'This order has been canceled.'
  return 'Thank you, your order has been received.'
}
