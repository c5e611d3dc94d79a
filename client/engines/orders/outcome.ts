/** What the server's answer to an order post means for the stored order (pure). */
import { isAddProductsError, ORDER_ID_USED } from '@shared/domain/order-hash'
import { MSG } from '@shared/i18n/messages'
import type { StoredOrder } from '../../state/orders'
import type { OrderResponse } from './context'

/** Shown when the server says the order's id belongs to another order (the order is not placed). */
export const ORDER_ID_TAKEN_NOTICE =
  'This order could not be placed because its order reference is already in use. Please place your order again.'

/**
 * The reason the server gave in words for refusing an order (a used-up coupon, a charge that
 * comes to nothing, cash on delivery not offered for a PIN code), or null when it gave none a
 * shopper can read: a validator's report on a field ("Invalid order: products.0.qty: must be …")
 * or no text at all. A field report whose last part is a sentence gives that sentence. The
 * shopper sees the reason, never the generic text.
 */
export function serverReason(res: OrderResponse): string | null {
  const text = typeof res.result === 'string' ? res.result.trim() : ''
  if (!text || text.length > 500) return null
  if (!/^Invalid [^:]{1,40}:/.test(text)) return text
  const last = text.slice(text.lastIndexOf(': ') + 2)
  return /^[A-Z][^:]*\.$/.test(last) ? last : null
}

/** The server's final "this order_id is someone else's" answer. */
export function isOrderIdTaken(res: OrderResponse): boolean {
  return res.code === 409 && res.result === ORDER_ID_USED
}

function asConfirmation(result: unknown): Record<string, unknown> | null {
  return result && typeof result === 'object' ? (result as Record<string, unknown>) : null
}

/** A new order as stored before it is sent: the body gets order_id, store_code and timestamps. */
export function newStoredOrder(
  body: Record<string, unknown>,
  orderId: string,
  storeCode: string,
  now: number,
): StoredOrder {
  const order = {
    ...body,
    order_id: orderId,
    store_code: storeCode,
    created_at: now,
    updated_at: now,
    transmited: false,
  }
  return {
    order_id: orderId,
    store_code: storeCode,
    created_at: now,
    updated_at: now,
    transmited: false,
    transmited_at: null,
    status: 'pending',
    order,
    promised: true,
  }
}

/** The order as the server acknowledged it, with its confirmation. */
export function placedOrder(stored: StoredOrder, result: unknown, at: number): StoredOrder {
  return {
    ...stored,
    transmited: true,
    transmited_at: at,
    status: 'placed',
    result_code: 200,
    confirmation: asConfirmation(result),
  }
}

/** The order closed without being placed (sent; never to be sent again). */
export function closedOrder(
  stored: StoredOrder,
  status: 'rejected' | 'canceled',
  code: number,
  at: number,
): StoredOrder {
  return { ...stored, transmited: true, transmited_at: at, status, result_code: code }
}

/**
 * A queued order's answer: placed; canceled with the shop's message (400 = invalid address, 409
 * = its id is another order's, the add-products 500 = out of stock); anything else is retried.
 */
type QueuedOutcome =
  | { type: 'placed' }
  | { type: 'canceled'; code: number; message: string }
  | { type: 'retry' }

export function queuedOutcome(res: OrderResponse): QueuedOutcome {
  if (res.code === 200) return { type: 'placed' }
  if (res.code === 400)
    return { type: 'canceled', code: 400, message: serverReason(res) ?? MSG.queuedOrderInvalidAddress }
  if (isOrderIdTaken(res)) return { type: 'canceled', code: 409, message: ORDER_ID_TAKEN_NOTICE }
  if (isAddProductsError(res.code, res.result))
    return { type: 'canceled', code: 500, message: MSG.queuedOrderOutOfStock }
  return { type: 'retry' }
}

/**
 * A queued order the server created but that still awaits payment (card, UPI, PayPal): the
 * shopper is asked to pay it, with a link to its confirmation where the pay-now button is. It is
 * never called paid here; only the server's answer on that page can say so.
 */
export function paymentRequest(placed: StoredOrder): {
  type: 'info'
  message: string
  hasNoTimeout: true
  action1: { label: string; href: string }
} | null {
  const c = placed.confirmation
  if (!c || c.paymentPending !== true) return null
  const number = typeof c.orderNumber === 'string' ? ` ${c.orderNumber}` : ''
  return {
    type: 'info',
    message: `Your order${number} has reached the shop and awaits payment: no payment has been taken yet. Pay now to confirm it.`,
    hasNoTimeout: true,
    action1: { label: 'Pay now', href: `/confirmation?orderId=${encodeURIComponent(placed.order_id)}` },
  }
}
