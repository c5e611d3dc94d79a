/**
 * Registers /service-worker.js with workbox-window:
 * registered → updatefound → installed → either updated (a controller exists: a notification
 * offering a reload) or cached (first install: silent unless a page asks for the 'ready for
 * offline' notice — a first visit is not interrupted by news about caching). On localhost it first checks
 * that the worker file exists and is served as JavaScript, and otherwise unregisters it.
 * Service-worker errors are only logged. Ships on every page: keep it small.
 */
import { Workbox } from 'workbox-window'
import { notify } from '../state/notifications'

const SW_URL = '/service-worker.js'

export const MSG_SW_UPDATED = 'A new version of the shop is available.'
const MSG_SW_RELOAD = 'Reload'
const MSG_SW_CACHED = 'The shop is ready for offline use.'

/** True on a development host, where a stale worker is checked before use. */
export function isLocalhost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127(?:\.(?:25[0-5]|2[0-4]\d|[01]?\d?\d)){3}$/.test(hostname)
  )
}

/**
 * The localhost check: true when the worker file exists and is JavaScript, false when it is missing
 * (404) or served as something else, null when it could not be fetched at all (offline): unknown,
 * so the caller must NOT unregister — that would drop the offline caches exactly when needed.
 */
export async function isServiceWorkerServed(fetchFn: typeof fetch = fetch): Promise<boolean | null> {
  let res: Response
  try {
    res = await fetchFn(SW_URL, { headers: { 'Service-Worker': 'script' }, cache: 'no-store' })
  } catch {
    return null
  }
  const type = res.headers.get('content-type') ?? ''
  return res.status !== 404 && type.includes('javascript')
}

/** URLs this page already loaded (the SSR'd document, its images and catalogue calls). */
function loadedUrls(): string[] {
  const resources = performance
    .getEntriesByType('resource')
    .map((e) => e.name)
    .filter((u) => u.startsWith(location.origin) && /\/(img|api\/catalog)\//.test(u))
  return [location.href, ...resources]
}

/**
 * Registers the service worker; resolves once registered (or skipped). Never throws.
 * The first-install 'ready for offline' notice shows only with `announceOffline: true`: by
 * default a first visit gets no notice it did not ask for (and a shopper mid-purchase none they
 * cannot act on).
 */
export async function registerServiceWorker(opts: { announceOffline?: boolean } = {}): Promise<void> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  try {
    if (isLocalhost(location.hostname)) {
      const served = await isServiceWorkerServed()
      if (served === false) {
        console.warn('[sw] no service worker is served here; unregistering')
        const reg = await navigator.serviceWorker.getRegistration()
        await reg?.unregister()
        return
      }
      // Offline: keep the worker that controls this page (registering would only fail the update check).
      if (served === null && navigator.serviceWorker.controller) return
    }
    const wb = new Workbox(SW_URL)
    wb.addEventListener('installed', (event) => {
      // workbox-window flags an update found > 60 s after registration (or a second one on the same
      // page) as "external" without isUpdate: with a controller it is still an update of this shop.
      if (event.isUpdate || event.isExternal || navigator.serviceWorker.controller) {
        // updated: a controller exists → offer a reload.
        notify({
          type: 'info',
          message: MSG_SW_UPDATED,
          action1: { label: MSG_SW_RELOAD, action: () => location.reload() },
          hasNoTimeout: true,
        })
      } else {
        // cached: first install.
        if (opts.announceOffline === true) notify({ type: 'success', message: MSG_SW_CACHED })
      }
    })
    wb.addEventListener('controlling', (event) => {
      // What this page showed before the worker controlled it goes into the offline caches.
      if (!event.isUpdate) void wb.messageSW({ type: 'CACHE_URLS', payload: { urlsToCache: loadedUrls() } })
    })
    await wb.register()
    // Observable state for tests and diagnostics: the update listeners are attached from here on.
    document.documentElement.dataset.sw = 'registered'
    // A page opened while a worker already controls: still make sure its SSR'd content is cached.
    if (navigator.serviceWorker.controller) {
      void wb.messageSW({ type: 'CACHE_URLS', payload: { urlsToCache: loadedUrls() } })
    }
  } catch (err) {
    console.warn('[sw] registration failed', err)
  }
}
