/** Client entry for the order confirmation page. */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { ConfirmationIsland } from '../islands/checkout/confirmation-page'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands, ConfirmationIsland])
// The engines (session, cart sync, order queue) and the service worker, started when idle; no
// 'ready for offline' notice in the middle of a purchase.
bootClientRuntime({ withServiceWorker: true, announceOffline: false })
