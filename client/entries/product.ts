/** Client entry for the product page(s). */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout/index'
import { GalleryIsland } from '../islands/product/gallery'
import { ProductFormIsland } from '../islands/product/product-form'
import { RecentlyViewedIsland } from '../islands/product/recently-viewed'

// The server-rendered PIN check: its code loads on the first check.
document.addEventListener('submit', (e) => {
  const form = e.target as HTMLFormElement
  if (!form.matches('[data-pin-check]')) return
  e.preventDefault()
  void import('../islands/product/notify-me').then((m) => m.answerPinForm(form))
})

hydrateIslands([...layoutIslands, GalleryIsland, ProductFormIsland, RecentlyViewedIsland])
bootClientRuntime({ withServiceWorker: true })
