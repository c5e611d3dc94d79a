/** Client entry for the /my-account pages. */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { AccountIsland } from '../islands/account/account-page'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands, AccountIsland])
// The engines (session, cart sync, order queue) and the service worker, started when idle.
bootClientRuntime({ withServiceWorker: true })
