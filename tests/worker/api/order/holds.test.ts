// Nobody can hold the stock (the placement rate is in placement-rate.test.ts): orders nobody has
// paid or confirmed may hold only so many units and coupon uses per shopper
// (account, e-mail, address; checked again inside the write, so parallel orders cannot pass
// together), cash-on-delivery orders the shop has not confirmed expire too, and the scheduled
// expiry drains everything due in bounded batches.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { expireHoldingOrders } from '../../../../worker/api/order/expire'
import {
  MAX_HELD_COUPON_ORDERS,
  MAX_HELD_UNITS,
  MAX_HELD_UNITS_PER_ADDRESS,
} from '../../../../worker/api/order/holds'
import { transitionOrder } from '../../../../worker/api/order/lifecycle'
import { stockOf } from '../../../helpers/cart-fixtures'
import { runCron } from '../../../helpers/in-isolate'
import { freshEmail } from '../../../helpers/orders'
import { api, freshIp, registerAndLogin } from '../../../helpers/user'
import { admin, operator } from '../../admin/operator'
import { orderCount, place, seedPlentyOfScarves } from './place-orders'

beforeEach(seedPlentyOfScarves)

const orderRow = (orderId: string) =>
  env.DB.prepare('SELECT status, expires_at, placed_from FROM orders WHERE client_order_id = ?')
    .bind(orderId)
    .first<{ status: string; expires_at: number | null; placed_from: string | null }>()

describe('what unpaid and unconfirmed orders may hold', () => {
  it(`refuses one card order holding 30 units (at most ${MAX_HELD_UNITS} per shopper), naming the limit and taking nothing`, async () => {
    const before = await stockOf('FX-SCARF')
    const res = await place({ qty: 30 })
    expect(res.status).toBe(409)
    expect(res.json.result).toContain(`at most ${MAX_HELD_UNITS} pieces for one shopper`)
    expect(res.json.result).toContain('would hold 30')
    expect(await orderCount(res.orderId)).toBe(0)
    expect(await stockOf('FX-SCARF')).toBe(before)
  })

  it('counts every unpaid or unconfirmed order of the same e-mail, card and cash on delivery alike', async () => {
    const email = freshEmail('same')
    expect((await place({ email, qty: MAX_HELD_UNITS - 5 })).status).toBe(200)
    const cod = await place({ email, qty: 5, payment: 'cashondelivery' })
    expect(cod.status).toBe(200)
    const over = await place({ email: email.toUpperCase(), qty: 1 })
    expect(over.status).toBe(409)
    expect(over.json.result).toContain(`would hold ${MAX_HELD_UNITS + 1}`)
    // Once the shop confirms the cash-on-delivery order it holds nothing unconfirmed any more.
    await transitionOrder(env.DB, { orderId: cod.orderId, to: 'processing', actor: 'ops' }, Date.now())
    expect((await place({ email, qty: 5 })).status).toBe(200)
  })

  it(`counts the account whatever e-mail its orders name`, async () => {
    const user = await registerAndLogin('holds')
    const one = await place({ bearer: user.token, userId: user.id, qty: MAX_HELD_UNITS - 3 })
    expect(one.status, JSON.stringify(one.json)).toBe(200)
    const two = await place({ bearer: user.token, userId: user.id, qty: 4 })
    expect(two.status).toBe(409)
    expect(two.json.result).toContain(`at most ${MAX_HELD_UNITS} pieces for one shopper`)
  })

  it(`counts one network address over fresh e-mails (at most ${MAX_HELD_UNITS_PER_ADDRESS})`, async () => {
    const ip = freshIp()
    expect((await place({ ip, qty: MAX_HELD_UNITS_PER_ADDRESS / 2 })).status).toBe(200)
    expect((await place({ ip, qty: MAX_HELD_UNITS_PER_ADDRESS / 2 })).status).toBe(200)
    const over = await place({ ip, qty: 1 })
    expect(over.status).toBe(409)
    expect(over.json.result).toContain(
      `at most ${MAX_HELD_UNITS_PER_ADDRESS} pieces from one network address`,
    )
  })

  it(`lets at most ${MAX_HELD_COUPON_ORDERS} unpaid orders of a shopper carry a coupon`, async () => {
    await env.DB.prepare(
      `INSERT OR REPLACE INTO coupons (code, kind, amount, min_subtotal, is_active, label)
       VALUES ('FX-HOLD', 'fixed', 100, 0, 1, 'FX-HOLD')`,
    ).run()
    const email = freshEmail('coupon')
    const withCoupon = async () => {
      const cartId = (await api('/cart/create', { method: 'POST' })).json.result as string
      await api(`/cart/update?cartId=${cartId}`, { body: { cartItem: { sku: 'FX-SCARF', qty: 1 } } })
      expect(
        (await api(`/cart/apply-coupon?cartId=${cartId}&coupon=FX-HOLD`, { method: 'POST' })).status,
      ).toBe(200)
      return place({ email, cartId })
    }
    for (let i = 0; i < MAX_HELD_COUPON_ORDERS; i++) expect((await withCoupon()).status).toBe(200)
    const over = await withCoupon()
    expect(over.status).toBe(409)
    expect(over.json.result).toContain(`At most ${MAX_HELD_COUPON_ORDERS} orders with a coupon`)
    // Without the coupon the shopper may still order (2 units held, well under the unit limit).
    expect((await place({ email })).status).toBe(200)
  })

  it('lets parallel orders of one shopper pass the limit only as far as it goes (checked inside the write)', async () => {
    const email = freshEmail('race')
    const before = (await stockOf('FX-SCARF')) ?? 0
    const results = await Promise.all(Array.from({ length: 8 }, () => place({ email, qty: 3 })))
    const placed = results.filter((r) => r.status === 200)
    expect(placed).toHaveLength(Math.floor(MAX_HELD_UNITS / 3))
    for (const r of results.filter((x) => x.status !== 200)) expect(r.status).toBe(409)
    expect(await stockOf('FX-SCARF')).toBe(before - 3 * placed.length)
  })
})

describe('cash on delivery waits for the shop to confirm it', () => {
  it('expires a cash-on-delivery order the shop has not confirmed, giving its stock back and telling the shopper', async () => {
    const email = freshEmail('cod')
    const res = await place({ email, qty: 2, payment: 'cashondelivery' })
    expect(res.status).toBe(200)
    const placed = await orderRow(res.orderId)
    expect(placed?.status).toBe('pending')
    const due = placed?.expires_at as number
    expect(Math.abs(due - (Date.now() + 48 * 3600_000))).toBeLessThan(60_000)
    await runCron(due - 1000)
    expect((await orderRow(res.orderId))?.status).toBe('pending')
    // That run expired the card orders of earlier tests (30 minutes); only this order is left due.
    const held = (await stockOf('FX-SCARF')) ?? 0
    await runCron(due + 1000)
    expect((await orderRow(res.orderId))?.status).toBe('expired')
    expect(await stockOf('FX-SCARF')).toBe(held + 2)
    const mail = await env.DB.prepare(
      "SELECT body FROM mail_outbox WHERE kind = 'order-expired' AND target_address = ?",
    )
      .bind(email)
      .first<{ body: string }>()
    expect(mail?.body).toMatch(/^Your order was not confirmed in time/)
  })

  it('shows the operator the deadline, and one that the operator confirms never expires', async () => {
    const res = await place({ qty: 1, payment: 'cashondelivery' })
    const number = res.json.result.orderNumber as string
    const staff = await operator('staff')
    const page = await admin(staff, `/orders/${number}`, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(page.text).toContain('Received — to be confirmed (pay on delivery)')
    expect(page.text).toMatch(
      /To confirm with the shopper by <strong>\d{1,2} \w+ \d{4}, \d{1,2}:\d\d [AP]M IST<\/strong>/,
    )
    expect(page.text).toContain('Confirm (cash on delivery)')
    const confirmed = await admin(staff, `/api/orders/${number}/transition`, { body: { to: 'processing' } })
    expect(confirmed.status, confirmed.text).toBe(200)
    await runCron(Date.now() + 365 * 86_400_000)
    expect((await orderRow(res.orderId))?.status).toBe('processing')
  })

  it('takes its deadline from COD_CONFIRM_HOURS', async () => {
    const res = await place({ payment: 'cashondelivery', useEnv: { ...env, COD_CONFIRM_HOURS: '2' } as Env })
    expect(res.status).toBe(200)
    const due = (await orderRow(res.orderId))?.expires_at as number
    expect(Math.abs(due - (Date.now() + 2 * 3600_000))).toBeLessThan(60_000)
  })
})

describe('the scheduled expiry', () => {
  /** `n` holding orders (one scarf each, stock taken) due before `at`, written straight to D1. */
  async function dueOrders(n: number, at: number, tag: string): Promise<string[]> {
    const ids = Array.from(
      { length: n },
      (_, i) => `due-${tag}-${i}-${Math.random().toString(36).slice(2, 8)}`,
    )
    const next = '(SELECT COALESCE(MAX(entity_id), 0) + 1 FROM orders)'
    const statements = ids.flatMap((id, i) => [
      env.DB.prepare(
        `INSERT INTO orders (entity_id, client_order_id, increment_id, customer_email, access_key_hash, status,
           payment_method, grand_total, doc, result, created_at, payment_state, expires_at, grand_total_minor, placed_from)
         VALUES (${next}, ?1, printf('%09d', ${next}), ?2, 'k', ?3, ?4, 1000, '{}', '{}', '2026-01-01 00:00:00', ?5, ?6, 100000, '198.51.100.1')`,
      ).bind(
        id,
        `${id}@example.com`,
        i % 2 ? 'pending' : 'pending_payment',
        i % 2 ? 'cashondelivery' : 'card',
        i % 2 ? 'none' : 'awaiting',
        at - 1000 - i,
      ),
      env.DB.prepare(
        "INSERT INTO order_items (client_order_id, sku, product_id, qty, price_incl_tax) VALUES (?1, 'FX-SCARF', 990101, 1, 1000)",
      ).bind(id),
    ])
    await env.DB.batch(statements)
    return ids
  }

  const statusCount = async (ids: string[], status: string) =>
    (
      await env.DB.prepare(
        'SELECT COUNT(*) AS n FROM orders WHERE status = ?1 AND client_order_id IN (SELECT value FROM json_each(?2))',
      )
        .bind(status, JSON.stringify(ids))
        .first<{ n: number }>()
    )?.n

  it('drains every order due in one run, past the old 100 a run, and gives every unit back', async () => {
    // Far ahead: every order of the earlier tests is due too and expires in the same run.
    const at = Date.now() + 365 * 86_400_000
    await runCron(at)
    const before = (await stockOf('FX-SCARF')) ?? 0
    // The fewest that cross the old limit of 100 orders a run.
    const ids = await dueOrders(101, at, 'all')
    await runCron(at)
    expect(await statusCount(ids, 'expired')).toBe(101)
    expect(await stockOf('FX-SCARF')).toBe(before + 101)
  })

  it('takes batch after batch within one run', async () => {
    const at = Date.now() + 400 * 86_400_000
    await expireHoldingOrders(env, at)
    const ids = await dueOrders(9, at, 'batches')
    const run = await expireHoldingOrders(env, at, { batch: 4 })
    expect(run).toEqual({ expired: expect.any(Array), left: 0 })
    expect(run.expired.sort()).toEqual([...ids].sort())
  })

  it('stops when its time budget is spent and leaves the rest to the next run', async () => {
    const at = Date.now() + 500 * 86_400_000
    await expireHoldingOrders(env, at)
    const ids = await dueOrders(9, at, 'budget')
    let t = 0
    // A clock that moves 1 s per reading, with a 3 s budget: the run stops after a few orders.
    const first = await expireHoldingOrders(env, at, { batch: 4, budgetMs: 3000, clock: () => (t += 1000) })
    expect(first.expired.length).toBeGreaterThan(0)
    expect(first.expired.length).toBeLessThan(9)
    expect(first.left).toBe(9 - first.expired.length)
    const second = await expireHoldingOrders(env, at, { batch: 4 })
    expect(second.expired.length + first.expired.length).toBe(9)
    expect(second.left).toBe(0)
    expect(await statusCount(ids, 'expired')).toBe(9)
  })
})
