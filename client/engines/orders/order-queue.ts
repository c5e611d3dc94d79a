/**
 * Order placement and the offline order queue (VSF's order module without its bugs), composed of
 * its steps: placing (./place.ts), sending the queue (./process.ts), the stored orders
 * (./order-store.ts) and what an answer means (./outcome.ts), which share one context
 * (./context.ts) and never import this file. Every order carries a
 * client-generated `order_id`, reused on every retry: the server is idempotent on it, so a replay
 * (retry, second tab, Background Sync) never makes a second order. A 409 saying the order_id is
 * another order's is final: the server shows an order only to the caller that placed it, and this
 * client's resend (the same body) would have been answered with its own result.
 */

import { MSG, msgQueuedOrdersSent, QUEUE_MSG } from '@shared/i18n/messages'
import { isThankYouPage, type StoredOrder } from '../../state/orders'
import { EVENTS } from '../runtime/events'
import {
  createOrderQueueContext,
  type OrderQueueDeps,
  type PlaceOrderResult,
  type SendOrder,
} from './context'
import { listOrders } from './order-store'
import { placeOrder } from './place'
import { processQueue } from './process'

export function createOrderQueue(deps: OrderQueueDeps) {
  const ctx = createOrderQueueContext(deps)
  const queue = {
    /** Places an order (see ./place.ts). The body gets order_id/store_code/timestamps. */
    placeOrder: (body: Record<string, unknown>): Promise<PlaceOrderResult> => placeOrder(ctx, body),

    /**
     * Sends the untransmitted orders one at a time. Returns how many left the queue. `send` and
     * `now` can be injected (tests, the service worker's sync event). Concurrent calls share a run.
     */
    process(opts: { send?: SendOrder; now?: () => number } = {}): Promise<number> {
      if (ctx.processing) return ctx.processing
      ctx.processing = processQueue(ctx, opts.send ?? deps.send, opts.now ?? (() => ctx.clock.now())).finally(
        () => {
          ctx.processing = null
        },
      )
      return ctx.processing
    },

    /** Orders stored on this device (refreshes the signal). */
    list: (): Promise<StoredOrder[]> => listOrders(ctx),

    /** Untransmitted orders. */
    async pending(): Promise<StoredOrder[]> {
      return (await listOrders(ctx)).filter((o) => !o.transmited)
    },

    /** The shopper declined the offline-order confirmation: drop those orders. */
    async cancelPending(): Promise<void> {
      for (const o of await queue.pending()) await deps.storage.removeItem(o.order_id)
      await listOrders(ctx)
    },

    /**
     * The shopper chose to send the orders placed offline (`orderIds`, the ones they were asked
     * about; by default every queued one): sends them and says what happened. Every order placed
     * (here, or meanwhile by Background Sync) → a success notice; an order still queued (no
     * network, or the shop did not take it) → a notice that it stays saved, with a retry. An order
     * the shop canceled has already been announced by the queue with the reason.
     */
    async sendNow(orderIds?: string[]): Promise<void> {
      const waiting = orderIds ?? (await queue.pending()).map((o) => o.order_id)
      await queue.process()
      const after = await listOrders(ctx)
      const still = after.filter((o) => !o.transmited && waiting.includes(o.order_id))
      const placed = after.filter((o) => o.status === 'placed' && waiting.includes(o.order_id))
      if (still.length) {
        deps.notify({
          type: 'warning',
          message: QUEUE_MSG.queuedOrdersNotSent,
          hasNoTimeout: true,
          action1: { label: QUEUE_MSG.queuedOrdersRetry, action: () => void queue.sendNow(waiting) },
          action2: { label: MSG.ok },
        })
      } else if (placed.length) {
        deps.notify({
          type: 'success',
          message: placed.length === 1 ? QUEUE_MSG.queuedOrdersSent : msgQueuedOrdersSent(placed.length),
        })
      }
    },

    /**
     * On coming online (and on every page start, and when Background Sync fires): nothing while
     * still offline. Orders the shopper was promised would be sent are sent at once, on whatever
     * page and after any reload (the queue sends every waiting order, one at a time), and the
     * shopper is told what happened; with the setting on, or on the thank-you page (which follows
     * its orders itself), they are sent silently. Only orders stored without that promise (by an
     * earlier version of this client) are asked about.
     */
    async handleOnline(): Promise<void> {
      if (!ctx.isOnline()) return
      const s = deps.settings()
      const pending = await queue.pending()
      if (s.offlineOrdersAutoTransmit || isThankYouPage.peek()) {
        await queue.process()
        return
      }
      // Sent, then said: placed, or still saved with a retry.
      if (pending.some((o) => o.promised)) {
        await queue.sendNow()
        return
      }
      if (pending.length && s.offlineOrderConfirmation) {
        deps.bus.emit(EVENTS.offlineOrderConfirmation, { orders: pending })
      }
    },
  }
  return queue
}
