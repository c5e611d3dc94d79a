/**
 * Sending the queued orders, one at a time, oldest first. A placed or canceled order leaves the
 * queue; a network failure or any other answer stops the run (the order stays queued, its
 * transmited flag false, and Background Sync is registered for a retry).
 */
import { MSG } from '@shared/i18n/messages'
import { lastOrderConfirmation, type StoredOrder } from '../../state/orders'
import { EVENTS } from '../runtime/events'
import type { OrderQueueContext, OrderResponse, SendOrder } from './context'
import { listOrders, registerSync, saveOrder } from './order-store'
import { closedOrder, paymentRequest, placedOrder, queuedOutcome } from './outcome'

/** Settles one queued order by its answer; true when it left the queue. */
async function settle(
  ctx: OrderQueueContext,
  stored: StoredOrder,
  res: OrderResponse,
  t: number,
): Promise<boolean> {
  const outcome = queuedOutcome(res)
  if (outcome.type === 'placed') {
    const placed = { ...placedOrder(stored, res.result, t), updated_at: t }
    await saveOrder(ctx, placed)
    lastOrderConfirmation.value = placed
    ctx.deps.bus.emit(EVENTS.orderAfterPlaced, { order: placed, confirmation: placed.confirmation })
    const askToPay = paymentRequest(placed)
    if (askToPay) ctx.deps.notify(askToPay)
    return true
  }
  if (outcome.type === 'canceled') {
    await saveOrder(ctx, { ...closedOrder(stored, 'canceled', outcome.code, t), updated_at: t })
    ctx.deps.notify({ type: 'error', message: outcome.message, action1: { label: MSG.ok } })
    return true
  }
  // Any other outcome resets transmited to false so it is retried.
  await saveOrder(ctx, {
    ...stored,
    transmited: false,
    transmited_at: null,
    updated_at: t,
    result_code: res.code,
  })
  void registerSync(ctx)
  return false
}

/** Sends the untransmitted orders; resolves with how many left the queue. */
export async function processQueue(
  ctx: OrderQueueContext,
  send: SendOrder,
  now: () => number,
): Promise<number> {
  let done = 0
  for (const stored of (await listOrders(ctx)).filter((o) => !o.transmited)) {
    let res: OrderResponse
    try {
      res = await send(stored.order)
    } catch (err) {
      console.warn('[orders] queued order not sent; retried later', err)
      void registerSync(ctx)
      break
    }
    if (!(await settle(ctx, stored, res, now()))) break
    done++
  }
  return done
}
