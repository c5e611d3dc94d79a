// Placing an order costs the database three round trips: the replay check with the hourly
// counters, the reads the body needs (lines, cart, tax rules, made-to-order listings, and for cash
// on delivery its rules' reads about the address and the phone: the PIN and phone block lists, the
// courier's answer for the PIN, the PIN table), and the write batch, which reads the order back and
// the skus it sold out (a sold-out sku's cached pages are purged after it). A replay costs one.
import { env } from 'cloudflare:test'
import { beforeEach, expect, it } from 'vitest'
import { freshEmail } from '../../../helpers/orders'
import { countingDb } from '../../../helpers/recording-db'
import { freshIp } from '../../../helpers/user'
import { place, seedPlentyOfScarves } from './place-orders'

beforeEach(seedPlentyOfScarves)

/** The test environment with `db` as its database and without the burst binding. */
const using = (db: D1Database) => ({ ...env, DB: db, ORDER_LIMITER: undefined }) as unknown as Env

it('places a card order in three round trips, and answers its replay in one', async () => {
  const { db, seen, calls } = countingDb(env.DB)
  const ip = freshIp()
  const email = freshEmail('trips')
  const first = await place({ ip, email, useEnv: using(db) })
  expect(first.status).toBe(200)
  expect(seen.trips, calls.join('\n')).toBe(3)

  seen.trips = 0
  calls.length = 0
  const again = await place({ ip, email, orderId: first.orderId, useEnv: using(db) })
  expect(again.status).toBe(200)
  expect(again.json.result.orderNumber).toBe(first.json.result.orderNumber)
  expect(seen.trips, calls.join('\n')).toBe(1)
})

it("places a cash-on-delivery order in three round trips: its rules' reads go with the body's", async () => {
  const { db, seen, calls } = countingDb(env.DB)
  const res = await place({ payment: 'cashondelivery', useEnv: using(db) })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  // The order is written in the third; what follows is the "placed" mails, sent after the answer.
  const written = calls.findIndex((c) => c.startsWith('batch[INSERT INTO orders'))
  expect(written + 1, calls.join('\n')).toBe(3)
  expect(seen.trips).toBeGreaterThan(written)
  for (const read of ['FROM cod_blockl', 'SELECT serviceable', 'FROM cod_pincod', 'FROM made_to_order'])
    expect(calls[1]).toContain(read)
})

it('places the order that takes the last unit in three, and one more to purge its pages', async () => {
  await env.DB.prepare("UPDATE inventory SET qty = 2 WHERE sku = 'FX-SCARF'").run()
  const { db, seen, calls } = countingDb(env.DB)
  const res = await place({ qty: 2, useEnv: using(db) })
  expect(res.status).toBe(200)
  expect(seen.trips, calls.join('\n')).toBe(4)
  expect(calls[3]).toContain('output_cache_purge')
})
