/**
 * The Node side of `npm run soak` (bundled by tests/soak/run.mjs with esbuild): the API fuzz
 * helpers, the attack phase (./attack.ts), and order journeys that drive the REAL client order queue (client/engines/orders/order-queue.ts)
 * with fake-indexeddb storage, a `send` that posts through the fault-injecting proxy with the
 * client's 5000 ms time-out, reloads mid-sync (a new queue on the same storage) and offline spells.
 */
import 'fake-indexeddb/auto'
import type { OrderResponse } from '../../client/engines/orders/context'
import { createOrderQueue } from '../../client/engines/orders/order-queue'
import { clientSettings } from '../../client/engines/runtime/config'
import { createEventBus, EVENTS } from '../../client/engines/runtime/events'
import type { StoredOrder } from '../../client/state/orders'
import { StorageManager } from '../../client/storage/storage-manager'
import { testAddress } from '../helpers/orders'

export { default as fc } from 'fast-check'
export {
  checkAnswer,
  checkInvariants,
  describeRequest,
  ENDPOINTS,
  fuzzPools,
  fuzzRequest,
  snapshotInventory,
} from '../helpers/fuzz-api'
export { ATTACK_CLASS_INFO, ATTACK_CLASSES } from '../helpers/fuzz-attacks'
export { deliverTo, testAddress } from '../helpers/orders'
export { runAttackPhase } from './attack'
export { SOAK_ATTACK_CLASS_INFO, SOAK_ATTACK_CLASSES } from './flood-attacks'

/** "Search timeouts: 5000 ms client" — the time-out the client gives a request. */
export const CLIENT_TIMEOUT_MS = 5000

/** Seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface JourneyOptions {
  seed: number
  index: number
  proxyUrl: string
  skus: string[]
  /** Order ids the proxy has passed a 200 answer for (the server's acknowledgement). */
  acked: Set<string>
}

export interface JourneyReport {
  orderId: string
  /** What the shopper was told last: placed / queued (pending) / rejected / canceled. */
  finalStatus: string
  firstAnswer: string
  reloads: number
  attempts: number
  /** Confirmations shown before the server acknowledged (must stay 0). */
  earlyConfirmations: number
  cartCleared: number
  lines: { sku: string; qty: number }[]
}

const ADDRESS = testAddress('soak@example.com', { firstname: 'Soak', lastname: 'Shopper' })

/** One shopper: place an order through faults, reload mid-sync, retry until the queue drains. */
export async function runJourney(o: JourneyOptions): Promise<JourneyReport> {
  const rng = prng(o.seed * 7919 + o.index)
  const manager = new StorageManager({ storeCode: `soak${o.seed}j${o.index}` })
  const storage = manager.get<StoredOrder>('orders')
  const bus = createEventBus()
  let online = rng() > 0.2
  let healed = false
  let earlyConfirmations = 0
  let cartCleared = 0
  bus.on(EVENTS.orderAfterPlaced, (p) => {
    const id = (p as { order: StoredOrder }).order.order_id
    if (!o.acked.has(id)) earlyConfirmations++
  })
  // Each journey is a shopper of its own, at an address of its own: orders are limited per
  // address and what unpaid orders hold per e-mail.
  const shopperIp = `10.8.${Math.floor(o.index / 250) % 250}.${(o.index % 250) + 1}`
  const send = async (order: Record<string, unknown>): Promise<OrderResponse> => {
    const res = await fetch(`${o.proxyUrl}/api/order`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'cf-connecting-ip': shopperIp,
        ...(healed ? { 'x-soak-heal': '1' } : {}),
      },
      body: JSON.stringify(order),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    })
    const type = res.headers.get('content-type') ?? ''
    if (!type.includes('application/json')) throw new Error('Error with response - bad content-type!')
    const body = (await res.json()) as { code?: number; result?: unknown }
    return { code: body.code ?? res.status, result: body.result }
  }
  const make = () =>
    createOrderQueue({
      storage,
      send,
      notify: () => {},
      bus,
      settings: () => ({ ...clientSettings(), directBackendSync: true, backgroundSync: false }),
      storeCode: 'default',
      isOnline: () => online,
      clearCart: async () => {
        cartCleared++
      },
    })
  let queue = make()
  const lines = Array.from({ length: 1 + Math.floor(rng() * 2) }, (_, i) => ({
    sku: o.skus[Math.floor(rng() * o.skus.length)] as string,
    qty: 1 + Math.floor(rng() * 2),
    i,
  }))
  const unique = [...new Map(lines.map((l) => [l.sku, { sku: l.sku, qty: l.qty }])).values()]
  const orderId = `soak-${o.seed}-${o.index}-${Math.floor(rng() * 1e9).toString(36)}`
  const placed = await queue.placeOrder({
    order_id: orderId,
    user_id: '',
    cart_id: '',
    products: unique.map((l) => ({ sku: l.sku, qty: l.qty, price: 1, name: l.sku })),
    addressInformation: {
      shippingAddress: { ...ADDRESS, email: `soak-${o.seed}-${o.index}@example.com` },
      billingAddress: { ...ADDRESS, email: `soak-${o.seed}-${o.index}@example.com` },
      shipping_method_code: 'flatrate',
      shipping_carrier_code: 'flatrate',
      payment_method_code: 'cashondelivery',
    },
  })
  if (placed.state === 'placed' && !o.acked.has(orderId)) earlyConfirmations++
  let reloads = 0
  let attempts = 0
  for (; attempts < 14; attempts++) {
    const pending = await queue.pending()
    if (pending.length === 0) break
    if (rng() < 0.3) {
      // A reload mid-sync: the page's engines are recreated on the same storage.
      queue = make()
      reloads++
    }
    if (rng() < 0.15 && attempts < 6) {
      online = false
      await queue.handleOnline()
    }
    online = true
    if (attempts >= 7) healed = true
    const processing = queue.process()
    if (rng() < 0.2) {
      // Reload while the send is in flight: a second engine processes the same queue.
      reloads++
      const second = make()
      await Promise.all([processing, second.process()])
      queue = second
    } else await processing
  }
  const stored = (await queue.list()).find((s) => s.order_id === orderId)
  return {
    orderId,
    finalStatus: stored ? (stored.transmited ? stored.status : 'queued') : 'missing',
    firstAnswer: placed.state,
    reloads,
    attempts,
    earlyConfirmations,
    cartCleared,
    lines: unique,
  }
}
