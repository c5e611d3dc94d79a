/** Client entry for the product page(s). */
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout-islands'
import { GalleryIsland } from '../islands/product/gallery'
import { ProductFormIsland } from '../islands/product/product-form'
import { RecentlyViewedIsland } from '../islands/product/recently-viewed'
import { bootClientRuntime } from '../sync/boot'

hydrateIslands([...layoutIslands, GalleryIsland, ProductFormIsland, RecentlyViewedIsland])
bootClientRuntime({ withServiceWorker: true })
