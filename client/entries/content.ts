/** Client entry for the content pages (CMS pages, contact, store locator). */

import { hydrateIslands } from '../entry'
import { ContactFormIsland } from '../islands/content/contact-form'
import { layoutIslands } from '../islands/layout-islands'
import { bootClientRuntime } from '../sync/boot'

hydrateIslands([...layoutIslands, ContactFormIsland])
bootClientRuntime({ withServiceWorker: true })
