// Placing an order, sending its mails and reading it back read rows in proportion to the order,
// never to the shop: with a catalogue and an order history far larger than any order, no statement
// of a placement (card or cash on delivery, its holds and limits, the stock it takes, its mails'
// lines) or of the order's page read reads more rows than an order touches. A statement that scans a table (an order-lines read without its index, a
// product read whose `IN ()` list is empty) reads every row of it and fails here.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeEach, expect, it } from 'vitest'
import app from '../../../../worker/app'
import { freshEmail } from '../../../helpers/orders'
import { rowsReadDb } from '../../../helpers/recording-db'
import { place, seedPlentyOfScarves } from './place-orders'

/** More products, and more order lines, than any statement of one order may read. */
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
      `INSERT INTO order_items (client_order_id, sku, product_id, qty, price_incl_tax)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
       SELECT 'filler-history', 'FX-SCARF', 990101, 1, 1000 FROM n
       WHERE (SELECT COUNT(*) FROM order_items WHERE client_order_id = 'filler-history') = 0`,
    ).bind(FILLER),
  ])
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
    const heavy = reads.filter((r) => r.rowsRead > MOST_ROWS_A_STATEMENT)
    expect(heavy.map((r) => `${r.rowsRead} rows: ${r.sql.slice(0, 160)}`)).toEqual([])
  })
}
