/**
 * Wires the client engines together for the browser (created lazily: importing this module on the
 * server during SSR has no side effects). Islands call `getRuntime()` for the engines; the page's
 * runtime boot, or an island that needs the stored cart or the session at once, calls
 * `startClientRuntimeSoon()`.
 *
 *   storage (IndexedDB) ─ task queue ─ token refresher
 *                           ├─ session (user store)   ├─ cart sync (cart store)   └─ order queue
 */
import { currentApiContext } from '../../api'
import { cartServerToken } from '../../state/cart'
import { notify } from '../../state/notifications'
import { isOnline, trackOnlineStatus } from '../../state/online'
import { isLoggedIn, refreshToken, userToken } from '../../state/user'
import { createCatalogCache } from '../../storage/catalog-cache'
import { createClaims } from '../../storage/claims'
import { keptWrites } from '../../storage/kept-writes'
import { storageManager } from '../../storage/storage-manager'
import { ORDER_SYNC_TAG, SW_MESSAGES } from '../../sw/routes'
import { createCartSync } from '../cart/cart-sync'
import { createOrderQueue } from '../orders/order-queue'
import { USER_KEYS } from '../session/deps'
import { createSession } from '../session/session'
import { createTokenRefresher, handleRefreshExhausted } from '../session/token-refresh'
import { clientSettings } from './config'
import { bus, EVENTS } from './events'
import { nextTask } from './next-task'
import { createTaskQueue } from './task-queue'

function createRuntime() {
  const manager = storageManager()
  const online = () => isOnline.peek()
  let session: ReturnType<typeof createSession>
  const refresher = createTokenRefresher({
    getToken: () => userToken.peek(),
    getRefreshToken: () => refreshToken.peek(),
    setTokens: (t, r) => session.setTokens(t, r),
    withLock: (fn) => {
      const locks = (navigator as Navigator & { locks?: LockManager }).locks
      return locks
        ? (locks.request('shop-token-refresh', fn) as Promise<Awaited<ReturnType<typeof fn>>>)
        : fn()
    },
    readStoredTokens: async () => {
      const user = manager.get('user')
      const [token, refresh] = await Promise.all([
        user.getItem(USER_KEYS.token),
        user.getItem(USER_KEYS.refreshToken),
      ])
      return {
        token: typeof token === 'string' ? token : null,
        refreshToken: typeof refresh === 'string' ? refresh : null,
      }
    },
    onExhausted: () =>
      handleRefreshExhausted({
        logout: (o) => session.logout(o),
        clearUnsentTasks: () => tasks.clearUnsent(),
        openSignupModal: () => bus.emit(EVENTS.openSignupModal, null),
        notify,
      }),
  })
  const tasks = createTaskQueue({
    refresher,
    getToken: () => userToken.peek(),
    getCartId: () => cartServerToken.peek(),
    waitForCartId: () => cart.waitForCartId(),
    notify,
    emit: (e, p) => bus.emit(e, p),
    storage: manager.get('syncTasks'),
    isOnline: online,
  })
  const cart = createCartSync({
    queue: tasks,
    // The cart's writes are kept until IndexedDB has them: a line added just before the shopper
    // goes to the cart page is there (client/storage/kept-writes.ts).
    storage: keptWrites('cart', async () => manager.get('cart')),
    notify,
    bus,
    settings: clientSettings,
    isLoggedIn: () => isLoggedIn.peek(),
    isOnline: online,
    displayCurrency: () => document.documentElement.dataset.currency ?? null,
    // Other tabs of this store see cart changes at once (the count, the mini-cart).
    channel:
      typeof BroadcastChannel === 'undefined'
        ? undefined
        : new BroadcastChannel(`${document.documentElement.dataset.store ?? 'default'}-cart`),
  })
  session = createSession({
    queue: tasks,
    refresher,
    storage: manager.get('user'),
    bus,
    notify,
    settings: clientSettings,
    cart,
  })
  const orders = createOrderQueue({
    storage: manager.get('orders'),
    send: async (order) => {
      const res = await tasks.execute({
        url: '/api/order',
        auth: true,
        payload: { method: 'POST', body: order },
        silent: true,
      })
      return { code: res.code, result: res.result }
    },
    notify,
    bus,
    settings: clientSettings,
    storeCode: currentApiContext().storeCode,
    isOnline: online,
    clearCart: () => cart.clearAfterOrder(),
    registerBackgroundSync: async () => {
      // getRegistration (not `ready`, which never settles without a worker).
      const reg = await navigator.serviceWorker?.getRegistration()
      const sync = (reg as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
        ?.sync
      await sync?.register(ORDER_SYNC_TAG)
    },
  })
  const catalogCache = createCatalogCache(manager.get('elasticCache', { memoryFirst: true }) as never, {
    isOnline: online,
  })
  const claims = createClaims(manager.get('claims') as never)
  // Logout clears what belongs to the user. The wishlist/compare/checkout stores subscribe to
  // EVENTS.userAfterLogout for their signals; their persisted collections are cleared here too.
  // A placed order shows in the account's history at once (VSF #5015 needed a refresh).
  bus.on(EVENTS.orderAfterPlaced, () => {
    if (isLoggedIn.peek()) void session.loadOrdersHistory().catch(() => {})
  })
  bus.on(EVENTS.userAfterLogout, () => {
    for (const name of ['checkout', 'wishlist', 'compare']) void manager.get(name).clear()
  })
  return { storage: manager, refresher, tasks, cart, session, orders, catalogCache, claims }
}

export type ClientRuntime = ReturnType<typeof createRuntime>

let runtime: ClientRuntime | null = null

/** The page's engines (created on first use). */
export function getRuntime(): ClientRuntime {
  if (!runtime) runtime = createRuntime()
  return runtime
}

/**
 * "On coming online the product processes the sync queue and reloads the cart with client state
 * forced. It then either transmits queued orders automatically ... or emits an offline-order
 * confirmation event."
 */
export async function handleComingOnline(rt: ClientRuntime = getRuntime()): Promise<void> {
  try {
    await rt.tasks.process()
    await rt.cart.load({ forceClientState: true })
    await rt.orders.handleOnline()
    await rt.cart.recheckVolatileStock()
  } catch (err) {
    console.warn('[runtime] coming-online handling failed', err)
  }
}

/**
 * Starts the runtime in tasks of its own: the engines' creation after a yield, the start after
 * another, so that neither shares a task with the island effects or the hydration that asked for
 * it. Resolves once the stored cart is read (its lines are in `cartItems`), whether or not that read
 * succeeded. Idempotent: every caller shares the first start.
 */
export function startClientRuntimeSoon(): Promise<ClientRuntime> {
  if (!startingSoon) {
    startingSoon = (async () => {
      await nextTask()
      getRuntime()
      await nextTask()
      const rt = startClientRuntime()
      await rt.cart.restore().catch(() => undefined)
      return rt
    })()
  }
  return startingSoon
}
let startingSoon: Promise<ClientRuntime> | null = null

/** Starts the session, loads the cart and orders, and follows online/offline (once: `startClientRuntimeSoon`). */
function startClientRuntime(): ClientRuntime {
  const rt = getRuntime()
  if (typeof window === 'undefined') return rt
  // The stored cart shows at once; the server sync waits for the session's token.
  void rt.cart.restore().catch((err) => console.warn('[runtime] cart restore failed', err))
  void rt.session
    .start()
    .then(() => rt.cart.load())
    .then(async () => {
      // Orders queued in an earlier visit: send or ask, as when coming online.
      if (isOnline.peek()) await rt.orders.handleOnline()
      else await rt.orders.list()
    })
    .catch((err) => console.warn('[runtime] start failed', err))
  trackOnlineStatus(window, () => void handleComingOnline(rt))
  // Back/forward cache: the page slept through other tabs' cart changes — read the stored cart,
  // then sync with the server.
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return
    void rt.cart
      .reloadStored()
      .then(() => rt.cart.load())
      .catch((err) => console.warn('[runtime] cart reload after back/forward failed', err))
  })
  rt.catalogCache.startQuotaWatch()
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    // Background Sync fired: same rules as coming online (send, or ask the shopper).
    if ((event.data as { type?: string } | null)?.type === SW_MESSAGES.processOrders)
      void rt.orders.handleOnline()
  })
  if (isOnline.peek()) void rt.tasks.process()
  return rt
}
