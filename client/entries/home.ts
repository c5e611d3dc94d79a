/** Client entry for the home page(s): layout islands plus small enhancers of server markup. */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { startLazyImages } from '../islands/category/lazy-images'
import { enhanceCarousels } from '../islands/home/carousel'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands])
enhanceCarousels()
// Newsletter, popups and the notice are not needed for the first interaction: load them when idle.
const idle = window.requestIdleCallback ?? ((fn: () => void) => setTimeout(fn, 200))
idle(() => {
  import('../islands/home/home-enhance').then(
    (m) => m.enhanceHome(),
    (err) => console.error('home enhancements failed to load', err),
  )
})
setTimeout(() => startLazyImages(), 0)
// Engines + service worker when idle (dynamic chunks, outside the static budget): offline support.
bootClientRuntime({ withServiceWorker: true })
