/** Client entry for the wishlist and compare pages. */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout-islands'
import { ComparePageIsland } from '../islands/lists/compare-page'
import { WishlistPageIsland } from '../islands/lists/wishlist-page'
import { bootClientRuntime } from '../sync/boot'

hydrateIslands([...layoutIslands, WishlistPageIsland, ComparePageIsland])
bootClientRuntime({ withServiceWorker: true })
