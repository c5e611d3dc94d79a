// Placing an order, sending its mails and reading it back read rows in proportion to the order,
// never to the shop: with a catalogue and an order history far larger than any order, no statement
// of a placement (card, cash on delivery, with a coupon that has usage rules: its holds and limits,
// the stock it takes, the coupon's counts, its mails' lines), of the cart's coupon check or of the
// order's page read reads more rows than an order touches. A statement that scans a table (an
// order-lines read without its index, a product read whose `IN ()` list is empty, a count of a
// shopper's orders by e-mail without an index) reads every row of it and fails here.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeEach, expect, it } from 'vitest'
import app from '../../../../worker/app'
import { freshEmail } from '../../../helpers/orders'
import { rowsReadDb } from '../../../helpers/recording-db'
import { place, seedPlentyOfScarves } from './place-orders'

/** More products, orders and order lines than any statement of one order may read. */
const FILLER = 600
const MOST_ROWS_A_STATEMENT = FILLER / 2

beforeEach(async () => {
  await seedPlentyOfScarves()
  await env.DB.batch([
    env.DB.prepare(
      `INSERT OR IGNORE INTO products (id, sku, type_id, name, created_at, updated_at, url_path, slug, doc)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       SELECT 880000 + i, 'FILL-' || i, 'simple', 'Filler ' || i, '2026-01-01 00:00:00', '2026-01-01 00:00:00',
         'filler-' || i, 'filler-' || i, json_object('id', 880000 + i, 'sku', 'FILL-' || i, 'name', 'Filler ' || i) FROM n`,
    ).bind(FILLER),
    env.DB.prepare(
      `INSERT OR IGNORE INTO orders (client_order_id, increment_id, customer_email, access_key_hash, status,
         payment_method, grand_total, doc, result, created_at, grand_total_minor, placed_from)
       VALUES ('filler-history', 'FILL000001', 'history@example.com', 'k', 'complete', 'card', 1000, '{}', '{}',
         '2026-01-01 00:00:00', 100000, '198.51.100.9')`,
    ),
    env.DB.prepare(
      `INSERT OR IGNORE INTO orders (client_order_id, increment_id, customer_email, access_key_hash, status,
         payment_method, grand_total, doc, result, created_at, grand_total_minor, placed_from)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       SELECT 'filler-' || i, 'FILL1' || printf('%05d', i), 'filler-' || i || '@example.com', 'k', 'complete', 'card',
         1000, '{}', '{}', '2026-01-01 00:00:00', 100000, '198.51.100.9' FROM n`,
    ).bind(FILLER),
    env.DB.prepare(
      `INSERT OR REPLACE INTO coupons (code, kind, amount, label, first_order_only, per_customer_limit, total_limit)
       VALUES ('ROWS-RULED', 'percent', 5, 'Five per cent, with every usage rule', 1, 1, 1000)`,
    ),
    env.DB.prepare(
      `INSERT INTO order_items (client_order_id, sku, product_id, qty, price_incl_tax)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       SELECT 'filler-history', 'FX-SCARF', 990101, 1, 1000 FROM n
       WHERE (SELECT COUNT(*) FROM order_items WHERE client_order_id = 'filler-history') = 0`,
    ).bind(FILLER),
  ])
})

/** A request to the app in `useEnv` (the recording database), its JSON envelope and status. */
async function call(useEnv: Env, path: string, body?: unknown) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://shop.test${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.77' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    useEnv,
    ctx,
  )
  await waitOnExecutionContext(ctx)
  return { status: res.status, json: (await res.json()) as { result: unknown } }
}

const heavyReads = (reads: { sql: string; rowsRead: number }[]) =>
  reads
    .filter((r) => r.rowsRead > MOST_ROWS_A_STATEMENT)
    .map((r) => `${r.rowsRead} rows: ${r.sql.slice(0, 160)}`)

it('a coupon with usage rules is checked in the cart and counted at placement without reading every order', async () => {
  const { db, reads } = rowsReadDb(env.DB)
  const useEnv = { ...env, DB: db, ORDER_LIMITER: undefined } as unknown as Env
  const cart = await call(useEnv, '/api/cart/create?token=')
  const cartId = cart.json.result as string
  expect(
    (
      await call(useEnv, `/api/cart/update?token=&cartId=${cartId}`, {
        cartItem: { sku: 'FX-SCARF', qty: 1 },
      })
    ).status,
  ).toBe(200)
  const applied = await call(useEnv, `/api/cart/apply-coupon?token=&cartId=${cartId}&coupon=ROWS-RULED`)
  expect(applied.status, JSON.stringify(applied.json)).toBe(200)
  const res = await place({ email: freshEmail('rows-coupon'), cartId, useEnv })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  // The coupon's counts ran: in the cart's check and in the order's own batch.
  expect(reads.some((r) => r.sql.includes("json_extract(doc, '$.coupon_code') = ?3"))).toBe(true)
  expect(reads.some((r) => r.sql.startsWith('INSERT INTO coupon_limit_guard'))).toBe(true)
  const stored = await env.DB.prepare(
    "SELECT json_extract(doc, '$.coupon_code') AS code FROM orders WHERE client_order_id = ?",
  )
    .bind(res.orderId)
    .first<{ code: string }>()
  expect(stored?.code).toBe('ROWS-RULED')
  expect(heavyReads(reads)).toEqual([])
})

for (const payment of ['card', 'cashondelivery']) {
  it(`a ${payment} order and its mails read no more rows than the order touches`, async () => {
    const { db, reads } = rowsReadDb(env.DB)
    const useEnv = { ...env, DB: db, ORDER_LIMITER: undefined } as unknown as Env
    const res = await place({ payment, email: freshEmail('rows'), useEnv })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    // The placement, its stock and its mails all went through the recording database.
    expect(reads.some((r) => r.sql.startsWith('INSERT INTO orders'))).toBe(true)
    expect(reads.some((r) => r.sql.includes('FROM products WHERE'))).toBe(true)
    // The order read back as its confirmation page reads it (the guest's access key).
    const { orderNumber, accessKey } = res.json.result as { orderNumber: string; accessKey: string }
    const ctx = createExecutionContext()
    const got = await app.fetch(
      new Request('https://shop.test/api/order/get', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ orderId: orderNumber, accessKey }),
      }),
      useEnv,
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(got.status).toBe(200)
    const order = (await got.json()) as { result: { items: unknown[] } }
    expect(order.result.items.length).toBeGreaterThan(0)
    expect(heavyReads(reads)).toEqual([])
  })
}
