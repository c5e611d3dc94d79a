/**
 * The words of order mails: the events that send one, each event's subject, the payment states
 * and the detail fields as a shopper or operator reads them (notify.ts composes and sends).
 */

export type OrderMailEvent =
  | 'placed'
  | 'paid'
  | 'payment_failed'
  | 'shipped'
  | 'delivered'
  | 'canceled'
  | 'expired'
  | 'refunded'
  | 'out_for_delivery'
  | 'undelivered'
  | 'rto'
  | 'returned'
  | 'cod_collected'
  | 'return_requested'
  | 'return_picked_up'
  | 'return_received'
  | 'return_rejected'
  | 'exchange_shipped'

export const SUBJECTS: Record<OrderMailEvent, (n: string) => string> = {
  placed: (n) => `We have received your order ${n}`,
  paid: (n) => `Payment received for order ${n}`,
  payment_failed: (n) => `Payment for order ${n} did not go through`,
  shipped: (n) => `Your order ${n} is on its way`,
  delivered: (n) => `Your order ${n} has been delivered`,
  canceled: (n) => `Your order ${n} has been canceled`,
  expired: (n) => `Your order ${n} has expired`,
  refunded: (n) => `A refund for order ${n}`,
  out_for_delivery: (n) => `Your order ${n} is out for delivery today`,
  undelivered: (n) => `We could not deliver your order ${n}`,
  rto: (n) => `Your order ${n} is coming back to us`,
  returned: (n) => `Your order ${n} is back with us`,
  cod_collected: (n) => `Payment received for order ${n}`,
  return_requested: (n) => `Your return for order ${n} is booked`,
  return_picked_up: (n) => `We have your return for order ${n} on its way`,
  return_received: (n) => `Your return for order ${n} has been inspected`,
  return_rejected: (n) => `Your return for order ${n} could not be accepted`,
  exchange_shipped: (n) => `Your exchange for order ${n} is on its way`,
}

/** A payment state in words (mails, the back office). */
export const PAYMENT_STATE_LABELS: Record<string, string> = {
  none: 'to be paid on delivery',
  awaiting: 'awaiting payment',
  paid: 'paid',
  failed: 'not paid (the payment failed)',
  partially_refunded: 'paid, partly refunded',
  refunded: 'refunded',
}

/** Names of the detail fields callers hand in, as the mail shows them. */
export const DETAIL_LABELS: Record<string, string> = {
  carrier: 'Carrier',
  tracking: 'Tracking number',
  tracking_number: 'Tracking number',
  trackingNumber: 'Tracking number',
  tracking_url: 'Track it at',
  reason: 'Reason',
  amount: 'Amount',
}
/** At most this many detail fields are shown (callers hand in a few). */
export const MAX_DETAIL_FIELDS = 10
