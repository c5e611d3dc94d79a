/** Client entry for the product page(s). */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout/index'
import { GalleryIsland } from '../islands/product/gallery'
import { ProductFormIsland } from '../islands/product/product-form'
import { RecentlyViewedIsland } from '../islands/product/recently-viewed'

hydrateIslands([...layoutIslands, GalleryIsland, ProductFormIsland, RecentlyViewedIsland])
bootClientRuntime({ withServiceWorker: true })
