// The order lifecycle: compare-and-set transitions, stock and store credit given back exactly
// once, and unpaid orders expired by the scheduled handler.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { grantStoreCredit } from '../../../../worker/api/giftcard/routes'
import { transitionOrder } from '../../../../worker/api/order/lifecycle'
import { seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { runCron } from '../../../helpers/in-isolate'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api, registerAndLogin } from '../../../helpers/user'

beforeEach(seedCartFixtures)

const newId = () => newOrderId('life')

async function place(payment: string, extra: Record<string, unknown> = {}, bearer?: string) {
  const orderId = newId()
  const res = await api('/order', {
    bearer,
    body: orderBody(
      orderId,
      [
        { sku: 'FX-SCARF', qty: 2, price: 1 },
        { sku: 'FX-GROUPED', qty: 1, price: 1 },
      ],
      testAddress(freshEmail('asha.life')),
      { payment, ...extra },
    ),
  })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return orderId
}

const row = (orderId: string) =>
  env.DB.prepare('SELECT * FROM orders WHERE client_order_id = ?').bind(orderId).first<{
    status: string
    payment_state: string
    expires_at: number | null
    stock_released_at: string | null
  }>()

const events = async (orderId: string) =>
  (
    await env.DB.prepare(
      'SELECT kind, from_status, to_status, actor FROM order_events WHERE client_order_id = ? ORDER BY id',
    )
      .bind(orderId)
      .all()
  ).results

async function stockSnapshot() {
  return {
    scarf: await stockOf('FX-SCARF'),
    earA: await stockOf('FX-EAR-A'),
    bagA: await stockOf('FX-BAG-A'),
  }
}

describe('transitions', () => {
  it('records placement as the first event and refuses a move the status does not allow', async () => {
    const orderId = await place('cashondelivery')
    expect(await events(orderId)).toEqual([
      { kind: 'status', from_status: null, to_status: 'pending', actor: 'shopper' },
    ])
    const refused = await transitionOrder(
      env.DB,
      { orderId, to: 'delivered', actor: 'ops@shop.test' },
      Date.now(),
    )
    expect(refused).toEqual({ changed: false, reason: 'not-allowed', status: 'pending' })
    expect((await row(orderId))?.status).toBe('pending')
    expect(await events(orderId)).toHaveLength(1)
  })

  it('gives stock back exactly once when ten cancels race, grouped pieces included', async () => {
    const before = await stockSnapshot()
    const orderId = await place('cashondelivery')
    const taken = await stockSnapshot()
    expect(taken.scarf).toBe((before.scarf ?? 0) - 2)
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        transitionOrder(
          env.DB,
          { orderId, to: 'canceled', actor: 'ops@shop.test', releaseStock: true },
          Date.now(),
        ),
      ),
    )
    expect(results.filter((r) => r.changed)).toHaveLength(1)
    expect(await stockSnapshot()).toEqual(before)
    expect((await events(orderId)).filter((e) => e.to_status === 'canceled')).toHaveLength(1)
    // A terminal order never moves again, so its stock can never go back twice.
    const again = await transitionOrder(
      env.DB,
      { orderId, to: 'processing', actor: 'ops@shop.test', releaseStock: true },
      Date.now(),
    )
    expect(again.changed).toBe(false)
    expect(await stockSnapshot()).toEqual(before)
  })

  it('writes the row that goes with a move in the same batch: once under racing moves, never without the move', async () => {
    const orderId = await place('cashondelivery')
    const marker = `audit-${orderId}`
    const audit = () =>
      env.DB.prepare(
        "INSERT INTO admin_audit (actor, action, target, created_at) SELECT 'ops@shop.test', 'order.canceled', ?, '2026-01-01 00:00:00' WHERE changes() = 1",
      ).bind(marker)
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        transitionOrder(
          env.DB,
          { orderId, to: 'canceled', actor: 'ops@shop.test', releaseStock: true, withMove: audit() },
          Date.now(),
        ),
      ),
    )
    expect(results.filter((r) => r.changed)).toHaveLength(1)
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM admin_audit WHERE target = ?')
      .bind(marker)
      .first<{ n: number }>()
    expect(rows?.n).toBe(1)

    // A row that cannot be written takes the move down with it: nothing changes, stock included.
    const other = await place('cashondelivery')
    const stock = await stockSnapshot()
    const broken = env.DB.prepare('INSERT INTO admin_audit (actor) VALUES (NULL)')
    await expect(
      transitionOrder(
        env.DB,
        { orderId: other, to: 'canceled', actor: 'ops@shop.test', releaseStock: true, withMove: broken },
        Date.now(),
      ),
    ).rejects.toThrow()
    expect((await row(other))?.status).toBe('pending')
    expect(await stockSnapshot()).toEqual(stock)
  })

  it('returns the store credit an order spent when it is canceled, once', async () => {
    const user = await registerAndLogin('life')
    await grantStoreCredit(env.DB, user.id, 500, 'test grant', Date.now())
    const orderId = await place(
      'cashondelivery',
      { user_id: String(user.id), store_credit_applied: true },
      user.token,
    )
    const balance = async () =>
      (
        await env.DB.prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
          .bind(user.id)
          .first<{ balance_minor: number }>()
      )?.balance_minor
    expect(await balance()).toBe(0)
    await Promise.all(
      [1, 2, 3].map(() =>
        transitionOrder(env.DB, { orderId, to: 'canceled', actor: 'system', returnCredit: true }, Date.now()),
      ),
    )
    expect(await balance()).toBe(50_000)
  })
})

describe('expiry of unpaid orders (scheduled handler)', () => {
  it('expires an online order not paid in time, releases its stock once and mails the shopper', async () => {
    const before = await stockSnapshot()
    const orderId = await place('card')
    const placed = await row(orderId)
    expect(placed).toMatchObject({ status: 'pending_payment', payment_state: 'awaiting' })
    const due = placed?.expires_at as number
    expect(due - Date.now()).toBeGreaterThan(29 * 60_000)

    await runCron(due - 1000)
    expect((await row(orderId))?.status).toBe('pending_payment')
    expect((await stockSnapshot()).scarf).toBe((before.scarf ?? 0) - 2)

    await runCron(due + 1000)
    await runCron(due + 2000)
    expect(await row(orderId)).toMatchObject({ status: 'expired', payment_state: 'none' })
    expect((await row(orderId))?.stock_released_at).not.toBeNull()
    expect(await stockSnapshot()).toEqual(before)
    const mail = await env.DB.prepare(
      `SELECT subject, body FROM mail_outbox WHERE kind = 'order-expired'
         AND target_address = (SELECT customer_email FROM orders WHERE client_order_id = ?) ORDER BY id DESC`,
    )
      .bind(orderId)
      .first<{ subject: string; body: string }>()
    expect(mail?.subject).toMatch(/has expired/)
    expect(mail?.body).toMatch(/\/order\/\d{9}#k=/)
  })
})
