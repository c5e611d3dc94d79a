// What every order-queue test builds its queue from: an order store of its own in IndexedDB
// (the test file installs IndexedDB: tests/helpers/indexeddb.ts), the shopper's notices
// collected, the network held in `state.online`, the event bus, and random parts r0, r1, … so
// order ids are predictable.
import type { OrderQueueDeps } from '../../../../../client/engines/orders/context'
import type { EventBus } from '../../../../../client/engines/runtime/events'
import { createEventBus } from '../../../../../client/engines/runtime/events'
import type { NotificationInput } from '../../../../../client/state/notifications'
import type { StoredOrder } from '../../../../../client/state/orders'
import { StorageManager } from '../../../../../client/storage/storage-manager'

let seq = 0

/** The parts of a test's order queue; `deps` lacks `send` and `settings`, which each test states. */
export function queueHarness(online = true, bus: EventBus = createEventBus()) {
  const storage = new StorageManager({ storeCode: `q${Date.now()}${seq++}` }).get<StoredOrder>('orders')
  const notices: NotificationInput[] = []
  const state = { online, now: 1_700_000_000_000 }
  let rnd = 0
  const deps = {
    storage,
    notify: (n: NotificationInput) => notices.push(n),
    bus,
    storeCode: 'default',
    isOnline: () => state.online,
    random: () => `r${rnd++}`,
  } satisfies Partial<OrderQueueDeps>
  return { storage, notices, state, deps }
}

/** Timers that never fire: a queue's retries and intervals run only when a test calls them. */
export const STILL_TIMERS = {
  setTimeout: () => 0,
  clearTimeout: () => {},
  setInterval: () => 0,
  clearInterval: () => {},
}
