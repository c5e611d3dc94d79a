// A cached product page never shows stale stock: an order that takes the last unit, the expiry or
// cancel that gives it back, and the back office's stock edit each purge the product's pages, so
// the next request reads the stock as it is (no "In stock" for a held last unit, no "Out of stock"
// with Add disabled after the unit came back).
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { placeScarves, seedCartFixtures } from '../../helpers/cart-fixtures'
import { admin, operator } from '../admin/operator'
import { runCron } from '../api/payment/harness'

beforeEach(seedCartFixtures)

const PAGE = 'https://shop.test/p/FX-SCARF/fx-scarf'

async function productPage() {
  const res = await SELF.fetch(PAGE)
  expect(res.status).toBe(200)
  const html = await res.text()
  return {
    cache: res.headers.get('x-cache'),
    inStock: html.includes('class="stock stock--in"'),
    out: html.includes('data-testid="out-of-stock"'),
  }
}

describe('stock on a cached product page', () => {
  it('a held last unit reads out of stock at once, and in stock again the moment its order expires', async () => {
    // Earlier unpaid orders expire first: the one placed below is the only one holding stock.
    await runCron(Date.now() + 31 * 60_000)
    await admin(await operator('staff'), '/api/stock/FX-SCARF', { body: { qty: 1 } })
    const first = await productPage()
    expect(first.inStock).toBe(true)
    expect((await productPage()).cache).toMatch(/HIT/)
    const { orderId } = await placeScarves({ payment: 'card' })
    const held = await productPage()
    expect(held.out, 'the last unit is held by an unpaid order').toBe(true)
    expect(held.inStock).toBe(false)
    const row = await env.DB.prepare('SELECT expires_at FROM orders WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ expires_at: number }>()
    await runCron((row?.expires_at as number) + 1000)
    const back = await productPage()
    expect(back.inStock, 'the expired order gave the unit back').toBe(true)
    expect(back.out).toBe(false)
  })

  it('an order that leaves units on the shelf keeps the cached page (only a flip purges)', async () => {
    await admin(await operator('staff'), '/api/stock/FX-SCARF', { body: { qty: 5 } })
    expect((await productPage()).inStock).toBe(true)
    expect((await productPage()).cache).toMatch(/HIT/)
    await placeScarves()
    const after = await productPage()
    expect(after.cache).toMatch(/HIT/)
    expect(after.inStock).toBe(true)
  })

  it('a canceled order gives its unit back to the page at once', async () => {
    await admin(await operator('staff'), '/api/stock/FX-SCARF', { body: { qty: 1 } })
    expect((await productPage()).inStock).toBe(true)
    const { number } = await placeScarves()
    expect((await productPage()).out).toBe(true)
    const staff = await operator('staff')
    const canceled = await admin(staff, `/api/orders/${number}/transition`, {
      body: { to: 'canceled', reason: 'shopper asked' },
    })
    expect(canceled.status, canceled.text).toBe(200)
    expect((await productPage()).inStock).toBe(true)
  })
})
