/**
 * A tiny event bus between the sync engines and the islands (VSF's EventBus): the session emits
 * logout so wishlist/compare/checkout stores clear themselves; the task queue emits callback
 * events; the order queue emits the offline-order confirmation.
 */

export const EVENTS = {
  /** Session started with a token (payload: { token }). */
  sessionAuthorized: 'session-after-authorized',
  /** "no token emits a non-authorised event" */
  sessionNotAuthorized: 'session-after-nonauthorized',
  userAfterLoggedIn: 'user-after-loggedin',
  /** Subscribe to clear user-bound data (wishlist, compare, checkout details). */
  userAfterLogout: 'user-after-logout',
  /** "Sign-up modal. Opens when the session can no longer be refreshed." */
  openSignupModal: 'modal-show-signup',
  /** Untransmitted offline orders exist (payload: { orders }). */
  offlineOrderConfirmation: 'offline-order-confirmation',
  /** An order reached the server (payload: { order, confirmation }). */
  orderAfterPlaced: 'order-after-placed',
  /** An order was stored for later transmission (payload: { order }). */
  orderQueued: 'order-after-queued',
  /** Cart diff applied (payload: the actions and server responses). */
  cartAfterDiff: 'servercart-after-diff',
  /** The server refused a quantity update (payload: { sku, qty }). */
  cartUpdateQtyFailed: 'cart-update-qty-failed',
  /** A finished sync task's callback_event (payload: { event, task }). */
  taskDone: 'sync-task-done',
  /** With price tiers on, login/logout must reload the product skipping the cache. */
  productReloadNoCache: 'product-reload-nocache',
} as const

type Handler = (payload: unknown) => void

export function createEventBus() {
  const handlers = new Map<string, Set<Handler>>()
  return {
    /** Subscribes; returns the unsubscribe function. */
    on(event: string, fn: Handler): () => void {
      let set = handlers.get(event)
      if (!set) {
        set = new Set()
        handlers.set(event, set)
      }
      set.add(fn)
      return () => set.delete(fn)
    },
    emit(event: string, payload?: unknown): void {
      for (const fn of [...(handlers.get(event) ?? [])]) {
        try {
          fn(payload)
        } catch (err) {
          console.error(`[events] ${event} handler failed`, err)
        }
      }
    },
  }
}

export type EventBus = ReturnType<typeof createEventBus>

/** The page-wide bus. */
export const bus = createEventBus()
