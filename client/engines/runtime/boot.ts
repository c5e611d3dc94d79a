/**
 * Starts the client engines (and optionally the service worker) once the page is idle, through a
 * dynamic import: esbuild puts them in their own chunk, so they do not count against a page's
 * static JS budget (home is ≤ 80 KB gzip; the engines are ~17 KB, workbox-window ~2.3 KB).
 */

function whenIdle(fn: () => void): void {
  const ric = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number })
    .requestIdleCallback
  if (ric) ric(fn, { timeout: 2000 })
  else setTimeout(fn, 1)
}

/**
 * Loads and starts client/engines/runtime/runtime when idle; `withServiceWorker` also registers the worker
 * (`announceOffline: false`: without the first-install notice).
 */
export function bootClientRuntime(
  opts: { withServiceWorker?: boolean; announceOffline?: boolean } = {},
): void {
  if (typeof window === 'undefined') return
  whenIdle(() => {
    import('./runtime')
      .then((m) => m.startClientRuntime())
      .catch((err) => console.warn('[runtime] failed to load', err))
    import('../vitals')
      .then((m) => m.startVitals())
      .catch((err) => console.warn('[vitals] failed to load', err))
    if (opts.withServiceWorker) {
      import('../../sw/register')
        .then((m) => m.registerServiceWorker({ announceOffline: opts.announceOffline }))
        .catch((err) => console.warn('[sw] failed to load', err))
    }
  })
}
