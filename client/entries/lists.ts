/** Client entry for the wishlist and compare pages. */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout/index'
import { ComparePageIsland } from '../islands/lists/compare-page'
import { WishlistPageIsland } from '../islands/lists/wishlist-page'

hydrateIslands([...layoutIslands, WishlistPageIsland, ComparePageIsland])
bootClientRuntime({ withServiceWorker: true })
