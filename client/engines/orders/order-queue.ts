/**
 * Order placement and the offline order queue (VSF's order module without its bugs):
 * - a session hash of the order ignores a second submit of the same order (#2405, #2663);
 * - every order carries a client-generated `order_id`, reused on every retry: the server is
 *   idempotent on it, so a replay (retry, second tab, Background Sync) never makes a second order;
 * - offline, or direct sync off → stored with transmited:false and reported as QUEUED (pending);
 *   a queued order is never reported as placed/confirmed (#2740);
 * - queue processing sends one order at a time; 400 and the add-products 500 cancel it with the
 *   shop's messages; anything else leaves it queued for a retry; Background Sync is registered;
 * - a 409 saying the order_id is already used by another order is final too: the server shows an
 *   order only to the caller that placed it, and this client's resend (the same body) would have
 *   been answered with its own result, so retrying can never succeed.
 */
import { isAddProductsError, newOrderId, ORDER_ID_USED, orderHash } from '../../../shared/domain/order-hash'
import { MSG, msgOrderValidation } from '../../../shared/i18n/messages'
import type { NotificationInput } from '../../state/notifications'
import {
  isThankYouPage,
  lastOrderConfirmation,
  placingOrder,
  type StoredOrder,
  storedOrders,
} from '../../state/orders'
import { type Clock, systemClock } from '../../storage/clock'
import type { UniversalStorage } from '../../storage/universal-storage'
import type { ClientSettings } from '../runtime/config'
import { EVENTS, type EventBus } from '../runtime/events'

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
  /** "After a successful order the cart is cleared, then recreated and resynced." */
  clearCart?: () => Promise<void>
  /** Registers Background Sync ('orderSync') where supported. */
  registerBackgroundSync?: () => Promise<void>
}

function randomHex(): string {
  const c = globalThis.crypto
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '')
  return `${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`
}

/** Shown when the server says the order's id belongs to another order (the order is not placed). */
export const ORDER_ID_TAKEN_NOTICE =
  'This order could not be placed because its order reference is already in use. Please place your order again.'

/** The server's final "this order_id is someone else's" answer. */
export function isOrderIdTaken(res: OrderResponse): boolean {
  return res.code === 409 && res.result === ORDER_ID_USED
}

function asConfirmation(result: unknown): Record<string, unknown> | null {
  return result && typeof result === 'object' ? (result as Record<string, unknown>) : null
}

export function createOrderQueue(deps: OrderQueueDeps) {
  const clock = deps.clock ?? systemClock
  const isOnline = deps.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine))
  const random = deps.random ?? randomHex
  /** Hashes of orders submitted in this session (the double-submit guard). */
  const sessionHashes = new Set<string>()
  let processing: Promise<number> | null = null

  async function refresh(): Promise<StoredOrder[]> {
    const all = (await deps.storage.entries()).map(([, o]) => o).sort((a, b) => a.created_at - b.created_at)
    storedOrders.value = all
    return all
  }

  async function save(order: StoredOrder): Promise<void> {
    await deps.storage.setItem(order.order_id, order)
    await refresh()
  }

  async function registerSync(): Promise<void> {
    if (!deps.settings().backgroundSync || !deps.registerBackgroundSync) return
    try {
      await deps.registerBackgroundSync()
    } catch (err) {
      console.warn('[orders] background sync not registered', err)
    }
  }

  async function queueOrder(stored: StoredOrder): Promise<void> {
    await save({ ...stored, transmited: false, transmited_at: null, status: 'pending' })
    // The order holds the items now: clear the cart so a reload cannot submit them a second time.
    await deps.clearCart?.()
    deps.bus.emit(EVENTS.orderQueued, { order: stored })
    void registerSync()
  }

  return {
    /** Places an order (see the module comment). The body gets order_id/store_code/timestamps. */
    async placeOrder(body: Record<string, unknown>): Promise<PlaceOrderResult> {
      const hash = orderHash(body)
      const orderId =
        typeof body.order_id === 'string' && body.order_id ? body.order_id : newOrderId(clock.now(), random())
      if (sessionHashes.has(hash)) return { state: 'duplicate', orderId }
      sessionHashes.add(hash)
      const now = clock.now()
      const order = {
        ...body,
        order_id: orderId,
        store_code: deps.storeCode,
        created_at: now,
        updated_at: now,
        transmited: false,
      }
      const stored: StoredOrder = {
        order_id: orderId,
        store_code: deps.storeCode,
        created_at: now,
        updated_at: now,
        transmited: false,
        transmited_at: null,
        status: 'pending',
        order,
      }
      if (!deps.settings().directBackendSync || !isOnline()) {
        await queueOrder(stored)
        return { state: 'queued', orderId }
      }
      placingOrder.value = true
      deps.notify({ type: 'info', message: MSG.processingOrder })
      try {
        const res = await deps.send(order)
        if (res.code === 200) {
          const placed: StoredOrder = {
            ...stored,
            transmited: true,
            transmited_at: clock.now(),
            status: 'placed',
            result_code: 200,
            confirmation: asConfirmation(res.result),
          }
          await save(placed)
          lastOrderConfirmation.value = placed
          deps.bus.emit(EVENTS.orderAfterPlaced, { order: placed, confirmation: placed.confirmation })
          await deps.clearCart?.()
          return { state: 'placed', orderId, confirmation: placed.confirmation }
        }
        sessionHashes.delete(hash)
        if (isOrderIdTaken(res)) {
          deps.notify({ type: 'error', message: ORDER_ID_TAKEN_NOTICE, action1: { label: MSG.ok } })
          await save({
            ...stored,
            transmited: true,
            transmited_at: clock.now(),
            status: 'rejected',
            result_code: 409,
          })
          return { state: 'rejected', orderId, message: ORDER_ID_TAKEN_NOTICE }
        }
        if (res.code === 400) {
          const message = msgOrderValidation(deps.settings().supportEmail)
          deps.notify({ type: 'error', message, action1: { label: MSG.ok } })
          await save({
            ...stored,
            transmited: true,
            transmited_at: clock.now(),
            status: 'rejected',
            result_code: 400,
          })
          return { state: 'rejected', orderId, message }
        }
        deps.notify({ type: 'error', message: MSG.orderException, action1: { label: MSG.ok } })
        await queueOrder({ ...stored, result_code: res.code })
        return { state: 'queued', orderId, message: MSG.orderException }
      } catch (err) {
        console.warn('[orders] order not sent; queued', err)
        sessionHashes.delete(hash)
        deps.notify({ type: 'error', message: MSG.orderException, action1: { label: MSG.ok } })
        await queueOrder(stored)
        return { state: 'queued', orderId, message: MSG.orderException }
      } finally {
        placingOrder.value = false
      }
    },

    /**
     * Sends the untransmitted orders one at a time. Returns how many left the queue. `send` and
     * `now` can be injected (tests, the service worker's sync event).
     */
    process(opts: { send?: SendOrder; now?: () => number } = {}): Promise<number> {
      if (processing) return processing
      const send = opts.send ?? deps.send
      const now = opts.now ?? (() => clock.now())
      processing = (async () => {
        let done = 0
        for (const stored of (await refresh()).filter((o) => !o.transmited)) {
          let res: OrderResponse
          try {
            res = await send(stored.order)
          } catch (err) {
            console.warn('[orders] queued order not sent; retried later', err)
            void registerSync()
            break
          }
          const t = now()
          if (res.code === 200) {
            const placed: StoredOrder = {
              ...stored,
              transmited: true,
              transmited_at: t,
              updated_at: t,
              status: 'placed',
              result_code: 200,
              confirmation: asConfirmation(res.result),
            }
            await save(placed)
            lastOrderConfirmation.value = placed
            deps.bus.emit(EVENTS.orderAfterPlaced, { order: placed, confirmation: placed.confirmation })
            done++
          } else if (res.code === 400) {
            await save({
              ...stored,
              transmited: true,
              transmited_at: t,
              updated_at: t,
              status: 'canceled',
              result_code: 400,
            })
            deps.notify({ type: 'error', message: MSG.queuedOrderInvalidAddress, action1: { label: MSG.ok } })
            done++
          } else if (isOrderIdTaken(res)) {
            await save({
              ...stored,
              transmited: true,
              transmited_at: t,
              updated_at: t,
              status: 'canceled',
              result_code: 409,
            })
            deps.notify({ type: 'error', message: ORDER_ID_TAKEN_NOTICE, action1: { label: MSG.ok } })
            done++
          } else if (isAddProductsError(res.code, res.result)) {
            await save({
              ...stored,
              transmited: true,
              transmited_at: t,
              updated_at: t,
              status: 'canceled',
              result_code: 500,
            })
            deps.notify({ type: 'error', message: MSG.queuedOrderOutOfStock, action1: { label: MSG.ok } })
            done++
          } else {
            // "Any other outcome resets transmited to false so it is retried."
            await save({
              ...stored,
              transmited: false,
              transmited_at: null,
              updated_at: t,
              result_code: res.code,
            })
            void registerSync()
            break
          }
        }
        return done
      })().finally(() => {
        processing = null
      })
      return processing
    },

    /** Orders stored on this device (refreshes the signal). */
    list: refresh,

    /** Untransmitted orders. */
    async pending(): Promise<StoredOrder[]> {
      return (await refresh()).filter((o) => !o.transmited)
    },

    /** The shopper declined the offline-order confirmation: drop those orders. */
    async cancelPending(): Promise<void> {
      for (const o of (await refresh()).filter((x) => !x.transmited))
        await deps.storage.removeItem(o.order_id)
      await refresh()
    },

    /** On coming online: send automatically (setting on, or the thank-you page), else ask. */
    async handleOnline(): Promise<void> {
      const s = deps.settings()
      if (s.offlineOrdersAutoTransmit || isThankYouPage.peek()) {
        await this.process()
        return
      }
      const pending = await this.pending()
      if (pending.length && s.offlineOrderConfirmation) {
        deps.bus.emit(EVENTS.offlineOrderConfirmation, { orders: pending })
      }
    },
  }
}

export type OrderQueue = ReturnType<typeof createOrderQueue>
