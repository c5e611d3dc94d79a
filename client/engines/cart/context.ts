/**
 * The cart engine's context: its dependencies and its state, held in one explicit object that
 * every step receives (instead of variables scattered over one closure), so each step can be
 * driven on its own in a test. The imports run one way: the steps import this file (and
 * lines.ts); this file imports no step. What a step must reach in another without importing it
 * (telling the other tabs, the default stock check) is a function on the context, supplied by
 * the engine that composes the steps (cart-sync.ts).
 */
import type { NotificationInput } from '../../state/notifications'
import { type Clock, systemClock } from '../../storage/clock'
import type { UniversalStorage } from '../../storage/universal-storage'
import type { ClientSettings } from '../runtime/config'
import type { EventBus } from '../runtime/events'
import type { TaskQueue } from '../runtime/task-queue'

/** Where the cart keeps its parts in its storage collection. */
export const CART_KEYS = {
  items: 'current-cart',
  token: 'current-cart-token',
  hash: 'current-cart-hash',
  lastSync: 'last-sync-at',
  totals: 'current-totals',
  bypassAt: 'last-cart-bypass-ts',
  guest: 'current-cart-is-guest',
} as const

/** The part of a BroadcastChannel the cart uses. */
export interface CartChannel {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

export type StockStatus = 'ok' | 'out_of_stock' | 'volatile'

export interface StockCheck {
  status: StockStatus
  qty?: number
  is_in_stock?: boolean
}

export interface CartSyncDeps {
  queue: Pick<TaskQueue, 'execute'>
  storage: Pick<UniversalStorage<unknown>, 'getItem' | 'setItem' | 'removeItem'>
  notify: (n: NotificationInput) => unknown
  bus: Pick<EventBus, 'emit'>
  settings: () => ClientSettings
  isLoggedIn: () => boolean
  isOnline?: () => boolean
  clock?: Clock
  /** Stock check; defaults to GET /api/stock/check through the task queue (volatile offline). */
  checkStock?: (sku: string) => Promise<StockCheck>
  /** Other tabs of the shop (a BroadcastChannel): each change is announced, theirs adopted. */
  channel?: CartChannel
  /** The currency the page shows (stored totals in another one are not used). */
  displayCurrency?: () => string | null
}

/** What the engine remembers between calls (the cart lines themselves live in the cart store). */
interface CartEngineState {
  /** The serial chain every server call runs on. */
  chain: Promise<unknown>
  /** Skus with a job waiting on the chain (their jobs coalesce). */
  pendingSkus: Set<string>
  /** Last known server item id per sku, kept for deletes of lines already removed locally. */
  serverIds: Map<string, number | string>
  /** Guest-cart fallbacks since the last successful connect. */
  guestFallbacks: number
  /** A server change happened: totals are read again before the chain moves on. */
  totalsDirty: boolean
  /** A guest cart is addressed without the user token (it may be a fallback while a token exists). */
  guest: boolean
  /** A send failed (offline): the stored hash stays stale so the next sync pulls and diffs. */
  unsentChanges: boolean
  /** The stored cart being read, while it is. */
  restoring: Promise<void> | null
  /** An announcement to other tabs is already scheduled for this tick. */
  announcing: boolean
}

export interface CartContext {
  queue: CartSyncDeps['queue']
  storage: CartSyncDeps['storage']
  notify: CartSyncDeps['notify']
  bus: CartSyncDeps['bus']
  settings: () => ClientSettings
  isLoggedIn: () => boolean
  isOnline: () => boolean
  clock: Clock
  channel?: CartChannel
  checkStock: (sku: string) => Promise<StockCheck>
  /** Schedules one snapshot of the cart for the other tabs (after every stored change). */
  announce: () => void
  displayCurrency: () => string | null
  state: CartEngineState
}

/** The steps the context calls on a step's behalf, each given the context. */
interface ContextSteps {
  /** The stock check used when the deps bring none. */
  checkStock: (ctx: CartContext, sku: string) => Promise<StockCheck>
  announce: (ctx: CartContext) => void
}

export function initialCartState(): CartEngineState {
  return {
    chain: Promise.resolve(),
    pendingSkus: new Set(),
    serverIds: new Map(),
    guestFallbacks: 0,
    totalsDirty: false,
    guest: false,
    unsentChanges: false,
    restoring: null,
    announcing: false,
  }
}

const browserOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine)

/** The context for `deps`, calling `steps` on a step's behalf. */
export function createCartContext(deps: CartSyncDeps, steps: ContextSteps): CartContext {
  const ctx: CartContext = {
    queue: deps.queue,
    storage: deps.storage,
    notify: deps.notify,
    bus: deps.bus,
    settings: deps.settings,
    isLoggedIn: deps.isLoggedIn,
    isOnline: deps.isOnline ?? browserOnline,
    clock: deps.clock ?? systemClock,
    channel: deps.channel,
    checkStock: deps.checkStock ?? ((sku) => steps.checkStock(ctx, sku)),
    announce: () => steps.announce(ctx),
    displayCurrency: deps.displayCurrency ?? (() => null),
    state: initialCartState(),
  }
  return ctx
}

/** Runs `job` after every server call queued before it (one call at a time, in order). */
export function serial<T>(ctx: CartContext, job: () => Promise<T>): Promise<T> {
  const run = ctx.state.chain.then(job, job)
  ctx.state.chain = run.catch(() => {})
  return run
}

/** A cart call: the user's token goes along (as a header) unless the cart is a guest cart. */
export function cartTask(ctx: CartContext, path: string, extra = ''): { url: string; auth: boolean } {
  return { url: `/api/cart/${path}?cartId={{cartId}}${extra}`, auth: !ctx.state.guest }
}
