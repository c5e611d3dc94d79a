/** Client entry for the order confirmation page and the order page (/order/<number>). */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { ConfirmationIsland } from '../islands/checkout/confirmation-page'
import { layoutIslands } from '../islands/layout/index'
import { OrderPageIsland } from '../islands/order/order-page'

hydrateIslands([...layoutIslands, ConfirmationIsland, OrderPageIsland])
// The engines (session, cart sync, order queue) and the service worker, started when idle; no
// 'ready for offline' notice in the middle of a purchase.
bootClientRuntime({ withServiceWorker: true, announceOffline: false })
