/** Client entry for the category listing and the search results page. */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { startLazyImages } from '../islands/category/lazy-images'
import { ListingIsland } from '../islands/category/listing'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands, ListingIsland])
setTimeout(() => startLazyImages(), 0)
// Engines + service worker when idle (dynamic chunks, outside the static budget): offline support.
bootClientRuntime({ withServiceWorker: true })
