/**
 * The order queue's context: its dependencies, its state and the shapes its steps exchange, held
 * in one object every step receives. The steps (order-store, outcome, place, process) and the
 * queue that composes them (order-queue.ts) import this file; it imports none of them.
 */
import type { NotificationInput } from '../../state/notifications'
import type { StoredOrder } from '../../state/orders'
import { type Clock, systemClock } from '../../storage/clock'
import type { UniversalStorage } from '../../storage/universal-storage'
import type { ClientSettings } from '../runtime/config'
import type { EventBus } from '../runtime/events'

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

export interface OrderQueueContext {
  deps: OrderQueueDeps
  clock: Clock
  isOnline: () => boolean
  random: () => string
  /** Hashes of orders submitted in this session (the double-submit guard). */
  sessionHashes: Set<string>
  /** The queue run in progress, shared by concurrent callers. */
  processing: Promise<number> | null
}

/** The context for `deps`, with the system clock, the browser's online flag and random ids by default. */
export function createOrderQueueContext(deps: OrderQueueDeps): OrderQueueContext {
  return {
    deps,
    clock: deps.clock ?? systemClock,
    isOnline: deps.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine)),
    random: deps.random ?? randomHex,
    sessionHashes: new Set(),
    processing: null,
  }
}
