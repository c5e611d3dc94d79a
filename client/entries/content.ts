/** Client entry for the content pages (CMS pages, contact, store locator). */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { ContactFormIsland } from '../islands/content/contact-form'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands, ContactFormIsland])
bootClientRuntime({ withServiceWorker: true })
