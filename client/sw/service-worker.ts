/**
 * The service worker (offline browsing and queued orders), bundled by
 * scripts/build-client.mjs as an IIFE to /service-worker.js with __BUILD_ID__ and __PRECACHE__.
 * - precache: the build's JS/CSS and the offline page; the app shell ('/') warmed into the pages cache;
 * - navigations: network first with a 3 s timeout, then the cached page (search ignored), then
 *   the offline page; checkout and account pages are never cached;
 * - /api/catalog/* GETs and /img/*: stale-while-revalidate with entry/age limits (images matched by URL
 *   alone, whatever format Accept chose);
 * - /api/cart, /api/order, /api/user, /api/giftcard, /api/wishlist: network only, never cached;
 * - Background Sync 'orderSync' (registered by the page when an order could not be sent): open
 *   pages are asked to handle their order queue; with none open a notification links to
 *   /?order=offline. Orders are deliberately NOT replayed blindly from here (Workbox's
 *   BackgroundSyncPlugin would): the shopper may still cancel a queued offline order, and only the
 *   page's queue knows that (it asks the shopper to confirm offline orders);
 * - every cache name carries the build id; other builds' caches are deleted on activate.
 */
import { CacheableResponsePlugin } from 'workbox-cacheable-response'
import { clientsClaim, setCacheNameDetails } from 'workbox-core'
import { ExpirationPlugin } from 'workbox-expiration'
import { matchPrecache, precacheAndRoute } from 'workbox-precaching'
import { registerRoute, setCatchHandler } from 'workbox-routing'
import { NetworkFirst, NetworkOnly, StaleWhileRevalidate } from 'workbox-strategies'
import {
  CATALOG_CACHE_MAX_ENTRIES,
  cacheKindFor,
  cacheNames,
  IMAGE_CACHE_MAX_ENTRIES,
  isOutdatedCache,
  NAVIGATION_TIMEOUT_SECONDS,
  OFFLINE_ORDERS_NOTIFICATION,
  OFFLINE_ORDERS_NOTIFICATION_BODY,
  OFFLINE_ORDERS_URL,
  OFFLINE_PAGE,
  ORDER_SYNC_TAG,
  PAGE_CACHE_MAX_ENTRIES,
  RUNTIME_MAX_AGE_SECONDS,
  SW_MESSAGES,
} from './routes'

declare const __BUILD_ID__: string
declare const __PRECACHE__: string[]

interface SwClient {
  postMessage(message: unknown): void
}
interface SwExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void
}
interface SwMessageEvent extends SwExtendableEvent {
  data: unknown
}
interface SwSyncEvent extends SwExtendableEvent {
  tag: string
}
interface SwNotificationEvent extends SwExtendableEvent {
  notification: { close(): void; data: unknown }
}
declare const self: {
  addEventListener(type: 'install' | 'activate', fn: (e: SwExtendableEvent) => void): void
  addEventListener(type: 'message', fn: (e: SwMessageEvent) => void): void
  addEventListener(type: 'sync', fn: (e: SwSyncEvent) => void): void
  addEventListener(type: 'notificationclick', fn: (e: SwNotificationEvent) => void): void
  skipWaiting(): Promise<void>
  clients: {
    matchAll(opts?: { type?: string; includeUncontrolled?: boolean }): Promise<SwClient[]>
    openWindow(url: string): Promise<unknown>
  }
  registration: { showNotification(title: string, options?: Record<string, unknown>): Promise<void> }
  location: Location
}

const BUILD_ID = __BUILD_ID__
const CACHES = cacheNames(BUILD_ID)

setCacheNameDetails({ prefix: 'shop', suffix: BUILD_ID })

precacheAndRoute([
  ...__PRECACHE__.map((url) => ({ url, revision: null })),
  { url: OFFLINE_PAGE, revision: BUILD_ID },
])

const ok200 = new CacheableResponsePlugin({ statuses: [200] })

/**
 * Images are looked up by URL alone. An uploaded photo is answered as AVIF, WebP or JPEG by the
 * request's Accept (`Vary: Accept`), and the cache holds one entry per URL: the entry is kept
 * under whichever request stored it last (an <img>'s image Accept, or the warm-up's plain fetch),
 * so honouring Vary would miss it offline for the other. Every stored format is one this browser
 * asked for or takes (JPEG), so any of them may be shown.
 */
const IMAGE_MATCH: CacheQueryOptions = { ignoreVary: true }

const pageStrategy = new NetworkFirst({
  cacheName: CACHES.pages,
  networkTimeoutSeconds: NAVIGATION_TIMEOUT_SECONDS,
  plugins: [ok200, new ExpirationPlugin({ maxEntries: PAGE_CACHE_MAX_ENTRIES, purgeOnQuotaError: true })],
})

async function offlineFallback(): Promise<Response> {
  return (await matchPrecache(OFFLINE_PAGE)) ?? new Response('Offline', { status: 503 })
}

// Documents: network first → cached page → offline page. Private pages: network → offline page.
registerRoute(
  ({ request }) => request.mode === 'navigate',
  async ({ request, url, event }) => {
    if (cacheKindFor(url.pathname, true) === 'never') {
      try {
        return await fetch(request)
      } catch {
        return offlineFallback()
      }
    }
    try {
      const res = await pageStrategy.handle({ request, event })
      if (res) return res
    } catch {
      /* offline and not cached under this exact URL */
    }
    const cache = await caches.open(CACHES.pages)
    return (await cache.match(request, { ignoreSearch: true })) ?? offlineFallback()
  },
)

registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && cacheKindFor(url.pathname, false) === 'catalog',
  new StaleWhileRevalidate({
    cacheName: CACHES.catalog,
    plugins: [
      ok200,
      new ExpirationPlugin({
        maxEntries: CATALOG_CACHE_MAX_ENTRIES,
        maxAgeSeconds: RUNTIME_MAX_AGE_SECONDS,
        purgeOnQuotaError: true,
      }),
    ],
  }),
)

registerRoute(
  ({ url, request, sameOrigin }) =>
    sameOrigin && request.method === 'GET' && cacheKindFor(url.pathname, false) === 'image',
  new StaleWhileRevalidate({
    cacheName: CACHES.images,
    matchOptions: IMAGE_MATCH,
    plugins: [
      ok200,
      new ExpirationPlugin({
        maxEntries: IMAGE_CACHE_MAX_ENTRIES,
        maxAgeSeconds: RUNTIME_MAX_AGE_SECONDS,
        purgeOnQuotaError: true,
      }),
    ],
  }),
)

// The other private APIs: explicitly network only (never cached, whatever the method).
for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
  registerRoute(
    ({ url, sameOrigin }) => sameOrigin && cacheKindFor(url.pathname, false) === 'never',
    new NetworkOnly(),
    method,
  )
}

setCatchHandler(async ({ request }) =>
  request.destination === 'document' ? offlineFallback() : Response.error(),
)

self.addEventListener('install', (event) => {
  // Activate at once so an update reaches every open tab (the page offers a reload).
  void self.skipWaiting()
  // Warm the app shell; best effort (a failure must not fail the install).
  event.waitUntil(
    caches
      .open(CACHES.pages)
      .then((c) => c.add('/'))
      .catch((err) => console.warn('[sw] app shell not cached', err)),
  )
})

clientsClaim()

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => isOutdatedCache(n, BUILD_ID)).map((n) => caches.delete(n))),
      ),
  )
})

/** Caches URLs the page loaded before this worker controlled it (SSR'd page, its images). */
async function cacheUrls(urls: unknown): Promise<void> {
  if (!Array.isArray(urls)) return
  await Promise.all(
    urls.map(async (raw) => {
      try {
        const url = new URL(String(raw), self.location.origin)
        if (url.origin !== self.location.origin) return
        const isDocument = !url.pathname.includes('.') || url.pathname.endsWith('.html')
        const kind = cacheKindFor(url.pathname, isDocument)
        const name =
          kind === 'page'
            ? CACHES.pages
            : kind === 'catalog'
              ? CACHES.catalog
              : kind === 'image'
                ? CACHES.images
                : null
        if (!name) return
        const cache = await caches.open(name)
        if (await cache.match(url.href, kind === 'image' ? IMAGE_MATCH : undefined)) return
        const res = await fetch(url.href, { credentials: 'same-origin' })
        if (res.status === 200) await cache.put(url.href, res)
      } catch (err) {
        console.warn('[sw] warm cache failed', raw, err)
      }
    }),
  )
}

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string; payload?: { urlsToCache?: unknown } } | null
  if (data?.type === SW_MESSAGES.cacheUrls) event.waitUntil(cacheUrls(data.payload?.urlsToCache))
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting()
})

// The page registers 'orderSync' when an order could not be sent: ask open pages to handle their
// queue (send, or ask the shopper); with no page open, offer to open one.
self.addEventListener('sync', (event) => {
  if (event.tag !== ORDER_SYNC_TAG) return
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (clients) => {
      for (const c of clients) c.postMessage({ type: SW_MESSAGES.processOrders })
      if (clients.length) return
      try {
        await self.registration.showNotification(OFFLINE_ORDERS_NOTIFICATION, {
          body: OFFLINE_ORDERS_NOTIFICATION_BODY,
          tag: ORDER_SYNC_TAG,
          data: { url: OFFLINE_ORDERS_URL },
        })
      } catch (err) {
        console.warn('[sw] offline-order notification not shown', err)
      }
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = (event.notification.data as { url?: string } | null)?.url ?? '/'
  event.waitUntil(self.clients.openWindow(url))
})
