/**
 * Starts the client engines (and optionally the service worker) once the page is idle, through a
 * dynamic import: esbuild puts them in their own chunk, so they do not count against a page's
 * static JS budget (home is ≤ 80 KB gzip; the engines are ~17 KB, workbox-window ~2.3 KB).
 */

import { nextTask } from './next-task'

function whenIdle(fn: () => void): void {
  const ric = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number })
    .requestIdleCallback
  if (ric) ric(fn, { timeout: 2000 })
  else setTimeout(fn, 1)
}

/**
 * Loads and starts client/engines/runtime/runtime when idle, then field data, then (with
 * `withServiceWorker`) registers the worker (`announceOffline: false`: without the first-install
 * notice). Each module's evaluation and each start runs in a task of its own, so none of them holds
 * the main thread for the sum.
 */
export function bootClientRuntime(
  opts: { withServiceWorker?: boolean; announceOffline?: boolean } = {},
): void {
  if (typeof window === 'undefined') return
  const steps: [string, () => Promise<unknown>][] = [
    [
      'runtime',
      async () => {
        const m = await import('./runtime')
        await m.startClientRuntimeSoon()
      },
    ],
    [
      'vitals',
      async () => {
        const m = await import('../vitals')
        await nextTask()
        m.startVitals()
      },
    ],
  ]
  if (opts.withServiceWorker) {
    steps.push([
      'sw',
      async () => {
        const m = await import('../../sw/register')
        await nextTask()
        await m.registerServiceWorker({ announceOffline: opts.announceOffline })
      },
    ])
  }
  whenIdle(async () => {
    for (const [name, step] of steps) {
      await step().catch((err) => console.warn(`[${name}] failed to load`, err))
      await nextTask()
    }
  })
}
