/** Client entry for the checkout page. */
import { hydrateIslands } from '../entry'
import { CheckoutIsland } from '../islands/checkout/checkout-page'
import { layoutIslands } from '../islands/layout-islands'
import { bootClientRuntime } from '../sync/boot'

hydrateIslands([...layoutIslands, CheckoutIsland])
// The engines (session, cart sync, order queue) and the service worker, started when idle; no
// 'ready for offline' notice in the middle of a purchase.
bootClientRuntime({ withServiceWorker: true, announceOffline: false })
