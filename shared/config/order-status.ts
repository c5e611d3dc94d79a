/**
 * The order lifecycle: every status an order can have, what the shopper reads for it, and which
 * status may follow which. Payment state is kept apart from the status (an order can be shipped and
 * partially refunded); see docs/order-lifecycle.md.
 */

const ORDER_STATUSES = [
  'pending_payment',
  'payment_failed',
  'pending',
  'processing',
  'packed',
  'shipped',
  'out_for_delivery',
  'undelivered',
  'delivered',
  'rto',
  'returned',
  'canceled',
  'expired',
  'closed',
] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

const PAYMENT_STATES = ['none', 'awaiting', 'paid', 'failed', 'partially_refunded', 'refunded'] as const
export type PaymentState = (typeof PAYMENT_STATES)[number]

/** What a shopper reads for each status (order page, confirmation, e-mails). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending_payment: 'Awaiting payment',
  payment_failed: 'Payment failed — you can pay again',
  pending: 'Received — to be confirmed (pay on delivery)',
  processing: 'Confirmed',
  packed: 'Packed',
  shipped: 'Shipped',
  out_for_delivery: 'Out for delivery',
  undelivered: 'Delivery attempt failed — the courier will try again',
  delivered: 'Delivered',
  rto: 'Not delivered — returning to us',
  returned: 'Returned to us',
  canceled: 'Canceled',
  expired: 'Expired — not paid or confirmed in time',
  closed: 'Closed — refunded',
}

/** The statuses each status may move to; anything else is refused. */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending_payment: ['processing', 'payment_failed', 'expired', 'canceled'],
  payment_failed: ['processing', 'pending_payment', 'expired', 'canceled'],
  pending: ['processing', 'canceled', 'expired'],
  processing: ['packed', 'canceled', 'closed'],
  packed: ['shipped', 'canceled', 'closed'],
  // The courier's events move a shipped order (docs/fulfilment.md); an attempt may fail and repeat.
  shipped: ['out_for_delivery', 'undelivered', 'delivered', 'rto', 'closed'],
  out_for_delivery: ['undelivered', 'delivered', 'rto'],
  undelivered: ['out_for_delivery', 'delivered', 'rto'],
  delivered: ['closed'],
  // Not delivered and coming back: received (after inspection, stock back) it is 'returned'.
  rto: ['returned'],
  returned: ['closed'],
  canceled: [],
  expired: [],
  closed: [],
}

/** Statuses whose order can still be paid online (the pay-now link is offered). */
export const PAYABLE_STATUSES: readonly OrderStatus[] = ['pending_payment', 'payment_failed']

/**
 * Statuses whose order holds stock (and any coupon use) without payment or confirmation: it
 * expires at its `expires_at`, and the placement limits count what it holds.
 */
export const HOLDING_STATUSES: readonly OrderStatus[] = ['pending_payment', 'payment_failed', 'pending']

/**
 * Statuses in which the shopper may cancel their own order from the account: a cash-on-delivery
 * order still to be confirmed (nothing paid, nothing packed). The server's cancel moves it only
 * from these; the account shows Cancel only for them.
 */
export const SHOPPER_CANCELABLE_STATUSES: readonly OrderStatus[] = ['pending']

/** How long an unpaid online order keeps its stock before it expires, unless configured. */
export const DEFAULT_UNPAID_ORDER_TTL_MINUTES = 30

/** How long a cash-on-delivery order waits for the shop's confirmation before it expires, unless configured. */
export const DEFAULT_COD_CONFIRM_HOURS = 48

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value)
}
