/** Client entry for the checkout page. */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { CheckoutIsland } from '../islands/checkout/checkout-page'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands, CheckoutIsland])
// The engines (session, cart sync, order queue) and the service worker, started when idle; no
// 'ready for offline' notice in the middle of a purchase.
bootClientRuntime({ withServiceWorker: true, announceOffline: false })
