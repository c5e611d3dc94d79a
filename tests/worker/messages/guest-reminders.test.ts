// Cart reminders for a guest: consent given at checkout with the cart's snapshot, for the caller's
// own guest cart only; at most two reminders, stopped by a purchase or the mail's signed stop link;
// bounded per network address and per e-mail, so the shop cannot be made to mail strangers.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { magentoDate } from '../../../worker/api/user/repo'
import {
  GUEST_CARTS_PER_EMAIL_PER_DAY,
  GUEST_CONSENTS_PER_HOUR,
} from '../../../worker/messages/guest-reminders'
import { reminderCounts, sendCartReminders } from '../../../worker/messages/reminders'
import { readConfig } from '../../../worker/platform/env'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { freshEmail } from '../../helpers/orders'
import { freshIp, registerAndLogin } from '../../helpers/user'
import { freshPhone, msgEnv, placeFor, routeStandIns, shopCall, shopPage } from './harness'

beforeAll(async () => {
  routeStandIns()
  await seedCartFixtures()
})

const HOUR = 3600_000
const run = (at: number) => sendCartReminders(msgEnv, readConfig(msgEnv), at)

/** A new guest cart holding a scarf: its token. */
async function guestCart(): Promise<string> {
  const token = (await shopCall('/api/cart/create', { body: {}, headers: { 'cf-connecting-ip': freshIp() } }))
    .json.result as string
  await env.DB.prepare(
    `INSERT INTO cart_items (cart_id, sku, product_id, qty, created_at)
     SELECT id, 'FX-SCARF', 990101, 1, datetime('now') FROM carts WHERE guest_token = ?`,
  )
    .bind(token)
    .run()
  return token
}

/** The checkout's snapshot with the reminder box's answer. */
const consent = (id: string | number, email: string, yes = true, ip = freshIp(), bearer?: string) =>
  shopCall('/api/state/send-state', {
    body: { id, state: { step: 'personal' }, reminder: { email, consent: yes } },
    headers: { 'cf-connecting-ip': ip },
    bearer,
  })

/** Moves every guest snapshot taken since `since` back to `t0` (the links are signed at the run's time). */
const leftAt = (t0: number, since: number) =>
  env.DB.prepare('UPDATE cart_states SET updated_at = ? WHERE updated_at >= ?')
    .bind(magentoDate(t0), magentoDate(since))
    .run()

const mailsTo = async (email: string) =>
  (
    await env.DB.prepare(
      `SELECT body FROM mail_outbox WHERE kind = 'cart-reminder' AND target_address = ? COLLATE NOCASE ORDER BY id`,
    )
      .bind(email)
      .all<{ body: string }>()
  ).results

/**
 * A new guest cart consented for `email`, its snapshot (and every guest snapshot taken since
 * `since`) left at `t0`, and the reminder run an hour after: the first reminder.
 */
async function remindedOnce(email: string, t0: number, since: number) {
  await consent(await guestCart(), email)
  await leftAt(t0, since)
  await run(t0 + HOUR + 1000)
}

describe('cart reminders for a guest', () => {
  it('mails a consenting guest at 1 h and 24 h, never more, with links back and to stop; counted', async () => {
    const email = freshEmail('guest.remind')
    const silent = freshEmail('guest.silent')
    const start = Date.now()
    const t0 = start - 100 * HOUR
    const cart = await guestCart()
    expect((await consent(cart, email)).status).toBe(200)
    // A guest who did not tick the box: a snapshot with no answer, or a no.
    const other = await guestCart()
    expect(
      (
        await shopCall('/api/state/send-state', {
          body: { id: other, state: {} },
          headers: { 'cf-connecting-ip': freshIp() },
        })
      ).status,
    ).toBe(200)
    const declined = await guestCart()
    expect((await consent(declined, silent, false)).status).toBe(200)
    await leftAt(t0, start - 2000)
    await run(t0 + 30 * 60_000)
    expect(await mailsTo(email)).toHaveLength(0)
    await Promise.all([run(t0 + HOUR + 1000), run(t0 + HOUR + 1000)])
    expect(await mailsTo(email)).toHaveLength(1)
    await run(t0 + 25 * HOUR)
    await run(t0 + 99 * HOUR)
    const mails = await mailsTo(email)
    expect(mails).toHaveLength(2)
    expect(await mailsTo(silent)).toHaveLength(0)
    expect(mails[0]?.body).toContain('ticked "E-mail me a reminder if I leave my bag"')
    const back = new URL(mails[0]?.body.match(/https?:\/\/\S+cart-return\S+/)?.[0] as string)
    const before = await reminderCounts(env.DB, t0)
    expect((await shopPage(`${back.pathname}${back.search}`)).status).toBe(303)
    expect((await reminderCounts(env.DB, t0))?.clicked).toBe((before?.clicked ?? 0) + 1)
    expect(before?.reminders).toBeGreaterThanOrEqual(2)
  })

  it("stops at the mail's signed stop link, for every cart of the address, and a forged link stops nothing", async () => {
    const email = freshEmail('guest.stop')
    const start = Date.now()
    const t0 = start - 100 * HOUR
    await remindedOnce(email, t0, start - 2000)
    const [mail] = await mailsTo(email)
    const stop = new URL(mail?.body.match(/https?:\/\/\S+cart-reminders\/stop\S+/)?.[0] as string)
    const token = stop.searchParams.get('t') as string
    // Opening the link (a mail scanner does) stops nothing; a forged token is refused.
    expect((await shopPage(`${stop.pathname}${stop.search}`)).text).toContain('Stop cart reminders')
    expect((await shopPage(stop.pathname, { t: `${token.slice(0, -3)}abc` })).status).toBe(403)
    await run(t0 + 25 * HOUR)
    expect(await mailsTo(email)).toHaveLength(2)

    const email2 = freshEmail('guest.stop2')
    await remindedOnce(email2, t0, start - 2000)
    const [mail2] = await mailsTo(email2)
    const stop2 = new URL(mail2?.body.match(/https?:\/\/\S+cart-reminders\/stop\S+/)?.[0] as string)
    const stopped = await shopPage(stop2.pathname, { t: stop2.searchParams.get('t') as string })
    expect(stopped.status).toBe(200)
    expect(stopped.text).toContain('Cart reminders stopped')
    // No second reminder, and a later consent for the address (anyone's) is not recorded.
    const third = await guestCart()
    expect((await consent(third, email2)).status).toBe(200)
    await leftAt(t0, start - 2000)
    await run(t0 + 25 * HOUR)
    await run(t0 + 50 * HOUR)
    expect(await mailsTo(email2)).toHaveLength(1)
  })

  it('sends no second reminder once the address ordered, with the bag still open', async () => {
    const email = freshEmail('guest.bought')
    const start = Date.now()
    const t0 = start - 100 * HOUR
    await remindedOnce(email, t0, start - 2000)
    expect(await mailsTo(email)).toHaveLength(1)
    await placeFor(freshPhone(), { optIn: false, email })
    await run(t0 + 25 * HOUR)
    expect(await mailsTo(email)).toHaveLength(1)
  })

  it("takes consent only for the caller's own guest cart", async () => {
    const email = freshEmail('guest.notmine')
    const owner = await registerAndLogin('remind.owner')
    const cartId = (await shopCall('/api/cart/create', { body: {}, bearer: owner.token })).json
      .result as number
    const stranger = await registerAndLogin('remind.stranger')
    // A customer's cart id: without its owner's token, with another's, or by its owner (who
    // chooses in their account).
    expect((await consent(cartId, email)).status).toBe(401)
    expect((await consent(cartId, email, true, freshIp(), stranger.token)).status).toBe(403)
    expect((await consent(cartId, email, true, freshIp(), owner.token)).status).toBe(400)
    // A guest token that is no cart.
    expect((await consent(`g${'x'.repeat(31)}`, email)).status).toBeGreaterThanOrEqual(400)
    const n = await env.DB.prepare('SELECT COUNT(*) AS n FROM guest_reminder_consent WHERE email = ?')
      .bind(email)
      .first<{ n: number }>()
    expect(n?.n).toBe(0)
  })

  it('is no mail relay: consents are bounded per network address and per e-mail', async () => {
    const start = Date.now()
    const t0 = start - 100 * HOUR
    // One address sending consents with strangers' e-mails: GUEST_CONSENTS_PER_HOUR, then 429.
    const ip = freshIp()
    const carts = await Promise.all(Array.from({ length: GUEST_CONSENTS_PER_HOUR + 2 }, () => guestCart()))
    const victims = carts.map(() => freshEmail('stranger'))
    const answers = []
    for (const [i, cart] of carts.entries())
      answers.push((await consent(cart, victims[i] as string, true, ip)).status)
    expect(answers.filter((s) => s === 200)).toHaveLength(GUEST_CONSENTS_PER_HOUR)
    expect(answers.slice(GUEST_CONSENTS_PER_HOUR)).toEqual([429, 429])
    // Many carts (from many addresses) naming one e-mail: only GUEST_CARTS_PER_EMAIL_PER_DAY are reminded.
    const victim = freshEmail('victim')
    for (let i = 0; i < GUEST_CARTS_PER_EMAIL_PER_DAY + 3; i++)
      expect((await consent(await guestCart(), victim)).status).toBe(200)
    await leftAt(t0, start - 2000)
    await run(t0 + HOUR + 1000)
    await run(t0 + 25 * HOUR)
    expect(await mailsTo(victim)).toHaveLength(2 * GUEST_CARTS_PER_EMAIL_PER_DAY)
  })
})
