/**
 * Placing an order: a second submit of the same order in this session is ignored (VSF #2405,
 * #2663); the order keeps one client-generated order_id for every retry, so a replay never makes a
 * second order. Offline, or with direct sync off, it is queued (pending, never shown as placed,
 * VSF #2740). A 400 or a 409 "order_id used" rejects it with the shop's message; any other
 * failure queues it for a retry (a 429 with words of its own).
 */
import { newOrderId, orderHash } from '@shared/domain/order-hash'
import { MSG, msgOrderValidation } from '@shared/i18n/messages'
import { lastOrderConfirmation, placingOrder, type StoredOrder } from '../../state/orders'
import { EVENTS } from '../runtime/events'
import type { OrderQueueContext, PlaceOrderResult } from './context'
import { queueOrder, saveOrder } from './order-store'
import {
  closedOrder,
  isOrderIdTaken,
  newStoredOrder,
  ORDER_ID_TAKEN_NOTICE,
  placedOrder,
  serverReason,
} from './outcome'

/** The order's id: the one the body brings, else a new one. */
function orderIdFor(ctx: OrderQueueContext, body: Record<string, unknown>): string {
  return typeof body.order_id === 'string' && body.order_id
    ? body.order_id
    : newOrderId(ctx.clock.now(), ctx.random())
}

/** Sends a stored order now and settles it by the answer (the caller has set placingOrder). */
async function sendNow(ctx: OrderQueueContext, stored: StoredOrder, hash: string): Promise<PlaceOrderResult> {
  const { deps } = ctx
  const orderId = stored.order_id
  const reject = async (code: number, message: string): Promise<PlaceOrderResult> => {
    // It stays until the shopper closes it: it says what to change before placing again.
    deps.notify({ type: 'error', message, action1: { label: MSG.ok }, hasNoTimeout: true })
    await saveOrder(ctx, closedOrder(stored, 'rejected', code, ctx.clock.now()))
    return { state: 'rejected', orderId, message }
  }
  try {
    const res = await deps.send(stored.order)
    if (res.code === 200) {
      const placed = placedOrder(stored, res.result, ctx.clock.now())
      await saveOrder(ctx, placed)
      lastOrderConfirmation.value = placed
      deps.bus.emit(EVENTS.orderAfterPlaced, { order: placed, confirmation: placed.confirmation })
      await deps.clearCart?.()
      return { state: 'placed', orderId, confirmation: placed.confirmation }
    }
    ctx.sessionHashes.delete(hash)
    if (isOrderIdTaken(res)) return reject(409, ORDER_ID_TAKEN_NOTICE)
    if (res.code === 400)
      return reject(400, serverReason(res) ?? msgOrderValidation(deps.settings().supportEmail))
    // Any other answer queues the order for a retry. A 429 (too many orders from this network or
    // account) says so, so the shopper does not read it as a broken shop or place it again.
    const message = res.code === 429 ? MSG.orderHeldBack : MSG.orderException
    deps.notify({ type: 'error', message, action1: { label: MSG.ok } })
    await queueOrder(ctx, { ...stored, result_code: res.code })
    return { state: 'queued', orderId, message }
  } catch (err) {
    console.warn('[orders] order not sent; queued', err)
    ctx.sessionHashes.delete(hash)
    deps.notify({ type: 'error', message: MSG.orderException, action1: { label: MSG.ok } })
    await queueOrder(ctx, stored)
    return { state: 'queued', orderId, message: MSG.orderException }
  }
}

export async function placeOrder(
  ctx: OrderQueueContext,
  body: Record<string, unknown>,
): Promise<PlaceOrderResult> {
  const hash = orderHash(body)
  const orderId = orderIdFor(ctx, body)
  if (ctx.sessionHashes.has(hash)) return { state: 'duplicate', orderId }
  ctx.sessionHashes.add(hash)
  const stored = newStoredOrder(body, orderId, ctx.deps.storeCode, ctx.clock.now())
  if (!ctx.deps.settings().directBackendSync || !ctx.isOnline()) {
    await queueOrder(ctx, stored)
    return { state: 'queued', orderId }
  }
  placingOrder.value = true
  ctx.deps.notify({ type: 'info', message: MSG.processingOrder })
  try {
    return await sendNow(ctx, stored, hash)
  } finally {
    placingOrder.value = false
  }
}
