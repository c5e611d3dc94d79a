/** Client entry for the product page(s). */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { layoutIslands } from '../islands/layout/index'
import { GalleryIsland } from '../islands/product/gallery'
import {
  BundleOptions,
  CustomOptions,
  GroupedLinks,
  ProductFormIsland,
} from '../islands/product/product-form'
import { RecentlyViewedIsland } from '../islands/product/recently-viewed'

// The server-rendered PIN check: its code loads on the first check.
document.addEventListener('submit', (e) => {
  const form = e.target as HTMLFormElement
  if (!form.matches('[data-pin-check]')) return
  e.preventDefault()
  void import('../islands/product/notify-me').then((m) => m.answerPinForm(form))
})

// The form's parts that load on demand (custom options, a bundle's or a grouped set's pieces) are
// preloaded before the form hydrates when the server rendered them, so they hydrate with the form
// (client/islands/lazy-part.ts).
const parts: Promise<unknown>[] = []
if (document.querySelector('[data-testid="custom-options"]')) parts.push(CustomOptions.preload())
if (document.querySelector('[data-testid="bundle-options"]')) parts.push(BundleOptions.preload())
if (document.querySelector('[data-testid="grouped-links"]')) parts.push(GroupedLinks.preload())
await Promise.all(parts).catch(() => {})

hydrateIslands([...layoutIslands, GalleryIsland, ProductFormIsland, RecentlyViewedIsland])
bootClientRuntime({ withServiceWorker: true })
