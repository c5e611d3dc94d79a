// Stock crossings under concurrency reach a cached product page. Orders that race for the last
// units, a hold that expires while another order is cancelled, and a cancel racing a new order each
// purge the product's pages by tag (P{sku}), so once the writes have settled no cached page says
// "In stock" for a sold-out product nor "Out of stock" for one that has units again.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { deliverTo, freshEmail, newOrderId, testAddress } from '../../helpers/orders'
import { api } from '../../helpers/user'
import { admin, operator } from '../admin/operator'
import { runCron } from '../api/payment/harness'

beforeEach(seedCartFixtures)

const SKU = 'FX-SCARF'
const PAGE = `https://shop.test/p/${SKU}/fx-scarf`

/** The product page as a shopper gets it: the cache state and which stock sentence it carries. */
async function productPage() {
  const res = await SELF.fetch(PAGE)
  expect(res.status).toBe(200)
  const html = await res.text()
  return {
    cache: res.headers.get('x-cache') ?? '',
    inStock: html.includes('class="stock stock--in"'),
    out: html.includes('data-testid="out-of-stock"'),
  }
}

/** A cached copy of the page that says "In stock" (the state every crossing must purge). */
async function cachedInStock() {
  expect((await productPage()).inStock).toBe(true)
  const hit = await productPage()
  expect(hit.cache).toMatch(/HIT/)
  expect(hit.inStock).toBe(true)
}

/** A cached copy of the page that says "Out of stock". */
async function cachedOutOfStock() {
  expect((await productPage()).out).toBe(true)
  const hit = await productPage()
  expect(hit.cache).toMatch(/HIT/)
  expect(hit.out).toBe(true)
}

/** Places one unit of the scarf for a shopper of its own; answers the HTTP status and the order id. */
async function placeOne(payment: string) {
  const orderId = newOrderId('race')
  const res = await api('/order', {
    body: {
      order_id: orderId,
      user_id: '',
      cart_id: '',
      products: [{ sku: SKU, qty: 1, price: 1 }],
      addressInformation: deliverTo(testAddress(freshEmail('race')), payment),
    },
  })
  return { status: res.status, orderId, json: res.json as { result?: unknown } }
}

async function setStock(qty: number) {
  const res = await admin(await operator('staff'), `/api/stock/${SKU}`, { body: { qty } })
  expect(res.status, res.text).toBe(200)
}

async function shelfQty() {
  const row = await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?')
    .bind(SKU)
    .first<{ qty: number }>()
  return Number(row?.qty)
}

async function orderRow(orderId: string) {
  return (await env.DB.prepare('SELECT increment_id, expires_at FROM orders WHERE client_order_id = ?')
    .bind(orderId)
    .first<{ increment_id: string; expires_at: number | null }>()) as {
    increment_id: string
    expires_at: number | null
  }
}

async function cancel(orderId: string) {
  const { increment_id } = await orderRow(orderId)
  return admin(await operator('staff'), `/api/orders/${increment_id}/transition`, {
    body: { to: 'canceled', reason: 'shopper asked' },
  })
}

describe('stock crossings under concurrency purge the cached product page', () => {
  it('five orders racing for the last three units: three win, and the page reads "Out of stock"', async () => {
    // Unpaid orders of earlier tests expire first, so only the racing orders hold the scarf.
    await runCron(Date.now() + 31 * 60_000)
    await setStock(3)
    await cachedInStock()
    const placed = await Promise.all(Array.from({ length: 5 }, () => placeOne('cashondelivery')))
    const won = placed.filter((p) => p.status === 200)
    expect(won).toHaveLength(3)
    // A loser gets the order API's out-of-stock answer (vue-storefront's contract: code 500 with
    // the add-products error, which the client order queue turns into its out-of-stock message).
    for (const lost of placed.filter((p) => p.status !== 200))
      expect(lost.json.result).toBe('Error: Error while adding products')
    expect(await shelfQty()).toBe(0)
    const after = await productPage()
    expect(after.cache, 'the crossing order purged the cached copy').not.toMatch(/HIT/)
    expect(after.inStock, 'no cached "In stock" for a sold-out product').toBe(false)
    expect(after.out).toBe(true)
  })

  it('a hold expiring while another order is cancelled: the page reads "In stock" again', async () => {
    await runCron(Date.now() + 31 * 60_000)
    await setStock(2)
    const [held, cod] = await Promise.all([placeOne('card'), placeOne('cashondelivery')])
    expect([held.status, cod.status]).toEqual([200, 200])
    expect(await shelfQty()).toBe(0)
    await cachedOutOfStock()
    const { expires_at } = await orderRow(held.orderId)
    expect(expires_at).toBeGreaterThan(0)
    const [, canceled] = await Promise.all([runCron((expires_at as number) + 1000), cancel(cod.orderId)])
    expect(canceled.status, canceled.text).toBe(200)
    expect(await shelfQty()).toBe(2)
    const after = await productPage()
    expect(after.cache).not.toMatch(/HIT/)
    expect(after.out, 'no cached "Out of stock" once units are back').toBe(false)
    expect(after.inStock).toBe(true)
  })

  it('a cancel racing an order for the unit it frees: the page follows the shelf either way', async () => {
    await runCron(Date.now() + 31 * 60_000)
    await setStock(1)
    const first = await placeOne('cashondelivery')
    expect(first.status).toBe(200)
    await cachedOutOfStock()
    const [canceled, second] = await Promise.all([cancel(first.orderId), placeOne('cashondelivery')])
    expect(canceled.status, canceled.text).toBe(200)
    // The new order may have come before the unit was back (refused) or after (took it).
    const qty = await shelfQty()
    expect(qty).toBe(second.status === 200 ? 0 : 1)
    const page = await productPage()
    expect(page.inStock).toBe(qty > 0)
    expect(page.out).toBe(qty === 0)
    if (qty > 0) expect(page.cache, 'the cancel purged the cached "Out of stock"').not.toMatch(/HIT/)
  })
})
