// Cart reminders: with consent only, at 1 h and 24 h after the cart was left, never more than two,
// never after a purchase or an opt-out; the link back is signed and counted.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { magentoDate } from '../../../worker/api/user/repo'
import { reminderCounts, sendCartReminders } from '../../../worker/messages/reminders'
import { readConfig } from '../../../worker/platform/env'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { registerAndLogin } from '../../helpers/user'
import { operator } from '../admin/operator'
import { freshPhone, msgEnv, placeFor, routeStandIns, shopCall, shopPage } from './harness'

beforeAll(() => routeStandIns())

const HOUR = 3600_000
const run = (at: number) => sendCartReminders(msgEnv, readConfig(msgEnv), at)

/** A signed-in shopper's active cart with a scarf, left (last snapshot) at `leftAt`. */
async function leftCart(leftAt: number, consent: boolean | null) {
  const me = await registerAndLogin('remind')
  if (consent !== null) {
    const res = await shopCall('/api/messages/reminders', { body: { optIn: consent }, bearer: me.token })
    expect(res.status).toBe(200)
  }
  const stamp = magentoDate(leftAt)
  const cart = await env.DB.prepare(
    `INSERT INTO carts (customer_id, is_active, created_at, updated_at) VALUES (?, 1, ?, ?) RETURNING id`,
  )
    .bind(me.id, stamp, stamp)
    .first<{ id: number }>()
  const cartId = cart?.id as number
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO cart_items (cart_id, sku, product_id, qty, created_at) VALUES (?, 'FX-SCARF', 990101, 1, ?)`,
    ).bind(cartId, stamp),
    env.DB.prepare('INSERT INTO cart_states (id, state, updated_at) VALUES (?, ?, ?)').bind(
      String(cartId),
      '{}',
      stamp,
    ),
  ])
  return { ...me, cartId }
}

const mailsTo = async (email: string) =>
  (
    await env.DB.prepare(`SELECT body FROM mail_outbox WHERE kind = 'cart-reminder' AND target_address = ?`)
      .bind(email)
      .all<{ body: string }>()
  ).results

describe('cart reminders', () => {
  it('sends one at 1 h and one at 24 h, then never again, with a signed link that is counted', async () => {
    const t0 = Date.now() - 100 * HOUR
    const me = await leftCart(t0, true)
    await run(t0 + 30 * 60_000)
    expect(await mailsTo(me.email)).toHaveLength(0)
    // Overlapping runs (two triggers at once) send each reminder once.
    await Promise.all([run(t0 + HOUR + 1000), run(t0 + HOUR + 1000)])
    await run(t0 + HOUR + 2000)
    expect(await mailsTo(me.email)).toHaveLength(1)
    await Promise.all([run(t0 + 24 * HOUR + 1000), run(t0 + 24 * HOUR + 1000)])
    await run(t0 + 30 * HOUR)
    await run(t0 + 99 * HOUR)
    const mails = await mailsTo(me.email)
    expect(mails).toHaveLength(2)
    const link = new URL(mails[0]?.body.match(/https?:\/\/\S+cart-return\S+/)?.[0] as string)
    const before = await reminderCounts(env.DB, t0)
    const followed = await shopPage(`${link.pathname}${link.search}`)
    expect(followed.status).toBe(303)
    const after = await reminderCounts(env.DB, t0)
    expect(after?.clicked).toBe((before?.clicked ?? 0) + 1)
    const forged = await shopPage(`${link.pathname}?t=${link.searchParams.get('t')?.slice(0, -3)}abc`)
    expect(forged.status).toBe(403)
    // Counted in the back office.
    const ops = await operator('viewer')
    const dash = await (
      await SELF.fetch('https://shop.test/admin', { headers: { cookie: ops.cookie } })
    ).text()
    const figures = dash.replaceAll('<!-- -->', '').match(/(\d+) sent for (\d+) carts · (\d+) links followed/)
    expect(figures?.slice(1).map(Number)).toEqual([after?.reminders, after?.carts, after?.clicked])
  })

  it('sends nothing without consent, after an opt-out, or once the cart became an order', async () => {
    const t0 = Date.now() - 100 * HOUR
    const never = await leftCart(t0, null)
    const declined = await leftCart(t0, false)
    const ordered = await leftCart(t0, true)
    const stops = await leftCart(t0, true)
    await env.DB.prepare('UPDATE carts SET is_active = 0 WHERE id = ?').bind(ordered.cartId).run()
    await run(t0 + 2 * HOUR)
    expect(await mailsTo(never.email)).toHaveLength(0)
    expect(await mailsTo(declined.email)).toHaveLength(0)
    expect(await mailsTo(ordered.email)).toHaveLength(0)
    expect(await mailsTo(stops.email)).toHaveLength(1)
    await shopCall('/api/messages/reminders', { body: { optIn: false }, bearer: stops.token })
    await run(t0 + 25 * HOUR)
    expect(await mailsTo(stops.email)).toHaveLength(1)
  })

  it('sends no second reminder once the shopper has bought since, even with the bag still open', async () => {
    await seedCartFixtures()
    const t0 = Date.now() - 100 * HOUR
    const me = await leftCart(t0, true)
    await run(t0 + 2 * HOUR)
    expect(await mailsTo(me.email)).toHaveLength(1)
    // A purchase (another device's bag): the reminded bag itself stays open.
    await placeFor(freshPhone(), { optIn: false, token: me.token })
    await env.DB.prepare('UPDATE carts SET is_active = 1 WHERE id = ?').bind(me.cartId).run()
    await run(t0 + 25 * HOUR)
    expect(await mailsTo(me.email)).toHaveLength(1)
  })
})
