/**
 * Order placement and the offline order queue (VSF's order module without its bugs), composed of
 * its steps: placing (./place.ts), sending the queue (./process.ts), the stored orders
 * (./order-store.ts) and what an answer means (./outcome.ts). Every order carries a
 * client-generated `order_id`, reused on every retry: the server is idempotent on it, so a replay
 * (retry, second tab, Background Sync) never makes a second order. A 409 saying the order_id is
 * another order's is final: the server shows an order only to the caller that placed it, and this
 * client's resend (the same body) would have been answered with its own result.
 */

import { MSG, msgQueuedOrdersSent, QUEUE_MSG } from '@shared/i18n/messages'
import type { NotificationInput } from '../../state/notifications'
import { isThankYouPage, type StoredOrder } from '../../state/orders'
import { type Clock, systemClock } from '../../storage/clock'
import type { UniversalStorage } from '../../storage/universal-storage'
import type { ClientSettings } from '../runtime/config'
import { EVENTS, type EventBus } from '../runtime/events'
import { listOrders, type OrderQueueContext } from './order-store'
import { placeOrder } from './place'
import { processQueue } from './process'

/** What the server said about one order post. */
export interface OrderResponse {
  code: number
  result: unknown
}

/** Posts one order; rejects on a network failure. */
export type SendOrder = (order: Record<string, unknown>) => Promise<OrderResponse>

export interface PlaceOrderResult {
  /** placed = acknowledged by the server; queued = stored, sent later (pending); rejected = 400. */
  state: 'placed' | 'queued' | 'rejected' | 'duplicate'
  orderId: string
  confirmation?: Record<string, unknown> | null
  message?: string
}

export interface OrderQueueDeps {
  storage: UniversalStorage<StoredOrder>
  send: SendOrder
  notify: (n: NotificationInput) => unknown
  bus: EventBus
  settings: () => ClientSettings
  storeCode: string
  isOnline?: () => boolean
  clock?: Clock
  random?: () => string
  /** After a successful order the cart is cleared, then recreated and synced. */
  clearCart?: () => Promise<void>
  /** Registers Background Sync ('orderSync') where supported. */
  registerBackgroundSync?: () => Promise<void>
}

function randomHex(): string {
  const c = globalThis.crypto
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '')
  return `${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`
}

export function createOrderQueue(deps: OrderQueueDeps) {
  const ctx: OrderQueueContext = {
    deps,
    clock: deps.clock ?? systemClock,
    isOnline: deps.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine)),
    random: deps.random ?? randomHex,
    sessionHashes: new Set(),
    processing: null,
  }
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

    /** On coming online: send automatically (setting on, or the thank-you page), else ask. */
    async handleOnline(): Promise<void> {
      const s = deps.settings()
      if (s.offlineOrdersAutoTransmit || isThankYouPage.peek()) {
        await queue.process()
        return
      }
      const pending = await queue.pending()
      if (pending.length && s.offlineOrderConfirmation) {
        deps.bus.emit(EVENTS.offlineOrderConfirmation, { orders: pending })
      }
    },
  }
  return queue
}
