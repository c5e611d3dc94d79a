/** Client entry for the cart page. */

import { bootClientRuntime } from '../engines/runtime/boot'
import { hydrateIslands } from '../entry'
import { CartPageIsland } from '../islands/cart/cart-page'
import { layoutIslands } from '../islands/layout/index'

hydrateIslands([...layoutIslands, CartPageIsland])
// The engines (session, cart sync, order queue) and the service worker, started when idle.
bootClientRuntime({ withServiceWorker: true })
