/**
 * /api/messages:
 *   GET  /whatsapp/webhook   Meta's verification handshake: hub.mode=subscribe and hub.verify_token
 *                            equal to WHATSAPP_VERIFY_TOKEN (constant time) → the hub.challenge
 *                            as plain text; anything else → 403
 *   POST /whatsapp/webhook   notifications, verified by X-Hub-Signature-256 over the raw body
 *                            (worker/messages/inbound.ts says what they do)
 *   GET  /cod/:number?t=     the signed link of a COD order's mail: a page with Confirm / Cancel
 *   POST /cod/:number        (form: t, action) confirms or cancels it
 *   POST /consent            {phone, optIn} a signed-in shopper's WhatsApp choice (account page)
 *   GET  /preferences        a signed-in shopper's WhatsApp phones and cart reminder choice
 *   POST /reminders          {optIn} a signed-in shopper's choice of cart reminders (account page)
 *   GET  /cart-return?t=     a reminder's signed link: counted, then on to the cart
 *   GET  /cart-reminders/stop?t=   a guest reminder's stop link: a page with one button (mail
 *                                  scanners open links), whose POST stops reminders to the address
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import { shopperCancels, shopperConfirms } from '../../messages/cod'
import { readCodToken } from '../../messages/cod-link'
import { whatsappWebhookSecrets } from '../../messages/config'
import { setConsent } from '../../messages/consent'
import { readStopLink, stopReminders } from '../../messages/guest-reminders'
import { applyNotification, Notification } from '../../messages/inbound'
import { whatsappNumber } from '../../messages/phone'
import { readRestoreLink } from '../../messages/reminders'
import { webhookSignatureValid } from '../../messages/whatsapp'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail, jsonBody, noStore, ok } from '../../platform/http'
import { constantTimeEqual } from '../auth/crypto'
import { requireCustomer } from '../auth/guard'
import { reserveOrReject } from '../auth/rate-limit'
import { findOrderByClientId } from '../order/repo'
import { rawWebhookBody } from '../payment/webhooks'

export const messageRoutes = new Hono<AppEnv>()
messageRoutes.use('*', noStore)

const enc = new TextEncoder()

messageRoutes.get('/whatsapp/webhook', (c) => {
  const { verifyToken } = whatsappWebhookSecrets(c.env)
  const mode = c.req.query('hub.mode')
  const given = c.req.query('hub.verify_token') ?? ''
  const challenge = c.req.query('hub.challenge') ?? ''
  if (
    !verifyToken ||
    mode !== 'subscribe' ||
    given.length > 200 ||
    challenge.length > 200 ||
    !constantTimeEqual(enc.encode(given), enc.encode(verifyToken))
  )
    return c.text('Forbidden: the verify token does not match.', 403)
  return c.text(challenge, 200)
})

messageRoutes.post('/whatsapp/webhook', async (c) => {
  const { appSecret } = whatsappWebhookSecrets(c.env)
  if (!appSecret) fail(404, 'WhatsApp webhooks are not configured on this store.')
  const raw = await rawWebhookBody(c)
  if (!(await webhookSignatureValid(appSecret, raw, c.req.header('x-hub-signature-256'))))
    fail(401, 'Invalid webhook: the X-Hub-Signature-256 header does not match the body.')
  let parsed: z.infer<typeof Notification>
  try {
    const result = Notification.safeParse(JSON.parse(new TextDecoder().decode(raw)))
    if (!result.success) return ok(c, { handled: [] })
    parsed = result.data
  } catch {
    return fail(400, 'Invalid webhook: malformed JSON')
  }
  return ok(c, { handled: await applyNotification(c.env, c.var.config, parsed, Date.now()) })
})

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** A small shop page of words (no script): the answer to a confirmation link. */
function wordsPage(title: string, body: string, status: 200 | 400 | 403 | 429 = 200) {
  return new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${esc(title)}</title>
<style>body{font:17px/1.5 system-ui,sans-serif;margin:0;color:#222}main{max-width:32rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.7rem 1.4rem;margin:.4rem .4rem 0 0;border-radius:4px;border:1px solid #222;background:#fff;cursor:pointer}button[value=confirm]{background:#222;color:#fff}</style>
</head><body><main><h1>${esc(title)}</h1>${body}</main></body></html>`,
    { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
  )
}

/** The 403 page of a link whose token has expired or is not valid: `what` says what to do instead. */
const expiredLink = (what: string) => () => wordsPage('This link no longer works', `<p>${what}</p>`, 403)

const linkExpired = expiredLink(
  'The confirmation link has expired or is not valid. Open your order from your account or your order mail to see where it stands.',
)

messageRoutes.get('/cod/:number', async (c) => {
  const number = c.req.param('number').slice(0, 40)
  const token = (c.req.query('t') ?? '').slice(0, 2048)
  const now = Date.now()
  const oid = await readCodToken(c.env, c.var.config, token, number, now)
  const order = oid ? await findOrderByClientId(c.env.DB, oid) : null
  if (!order) return linkExpired()
  if (order.status !== 'pending')
    return wordsPage(
      `Order ${order.increment_id}`,
      order.status === 'processing'
        ? '<p>This order is confirmed. We are preparing it.</p>'
        : '<p>This order is no longer waiting for confirmation.</p>',
    )
  return wordsPage(
    `Confirm order ${order.increment_id}`,
    `<p>You chose to pay cash on delivery. Confirm the order and we will pack it; cancel it if you did not place it or changed your mind.</p>
<form method="post"><input type="hidden" name="t" value="${esc(token)}"><button name="action" value="confirm">Confirm my order</button><button name="action" value="cancel">Cancel it</button></form>`,
  )
})

messageRoutes.post('/cod/:number', async (c) => {
  const number = c.req.param('number').slice(0, 40)
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > 8192) return wordsPage('Something went wrong', '<p>The form was too large.</p>', 400)
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
  const token = typeof form.t === 'string' ? form.t.slice(0, 2048) : ''
  const action = form.action
  const now = Date.now()
  const oid = await readCodToken(c.env, c.var.config, token, number, now)
  if (!oid) return linkExpired()
  if (action !== 'confirm' && action !== 'cancel')
    return wordsPage('Something went wrong', '<p>Choose Confirm or Cancel.</p>', 400)
  const answer =
    action === 'confirm'
      ? await shopperConfirms(c.env, oid, 'mail link', now)
      : await shopperCancels(c.env, c.var.config, oid, 'mail link', now)
  if (answer === 'confirmed')
    return wordsPage(`Order ${number} is confirmed`, '<p>Thank you. We are preparing your order.</p>')
  if (answer === 'canceled')
    return wordsPage(`Order ${number} is canceled`, '<p>Your order has been canceled. Nothing is owed.</p>')
  const order = await findOrderByClientId(c.env.DB, oid)
  return wordsPage(
    `Order ${number}`,
    order?.status === 'processing'
      ? '<p>This order is already confirmed.</p>'
      : '<p>This order is no longer waiting for confirmation.</p>',
  )
})

/** Consent changes one address may make an hour (each is one D1 write). */
export const CONSENT_CHANGES_PER_HOUR = 10

/** Counts one change against the address's and the account's hourly limit (429 over either). */
function limitConsentChanges(c: Context<AppEnv>, customerId: number, now: number) {
  return reserveOrReject(
    c.env.DB,
    [
      { key: `consent:ip:${clientAddress(c)}`, limit: CONSENT_CHANGES_PER_HOUR, windowMs: 3600_000 },
      { key: `consent:customer:${customerId}`, limit: CONSENT_CHANGES_PER_HOUR, windowMs: 3600_000 },
    ],
    now,
    'Too many changes to your message choices. Please try again in an hour.',
  )
}

const ConsentSchema = z.object({
  phone: z.string({ error: 'phone is required' }).max(40, 'phone is too long'),
  optIn: z.boolean({ error: 'optIn must be true or false' }),
})

messageRoutes.post('/consent', jsonBody(ConsentSchema, { maxBytes: 1024 }), async (c) => {
  const customer = await requireCustomer(c)
  const body = c.req.valid('json')
  const now = Date.now()
  await limitConsentChanges(c, customer.id, now)
  const phone = whatsappNumber(body.phone)
  if (!phone) fail(400, 'Enter an Indian mobile number of 10 digits for WhatsApp messages.')
  await setConsent(c.env.DB, phone, body.optIn, 'account', customer.id, now).run()
  return ok(c, { phone: `+${phone}`, optedIn: body.optIn })
})

const RemindersSchema = z.object({ optIn: z.boolean({ error: 'optIn must be true or false' }) })

messageRoutes.post('/reminders', jsonBody(RemindersSchema, { maxBytes: 1024 }), async (c) => {
  const customer = await requireCustomer(c)
  const now = Date.now()
  await limitConsentChanges(c, customer.id, now)
  const optIn = c.req.valid('json').optIn
  await c.env.DB.prepare(
    `INSERT INTO reminder_consent (customer_id, opted_in, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT(customer_id) DO UPDATE SET opted_in = ?2, updated_at = ?3`,
  )
    .bind(customer.id, optIn ? 1 : 0, now)
    .run()
  return ok(c, { cartReminders: optIn })
})

messageRoutes.get('/cart-return', async (c) => {
  const token = (c.req.query('t') ?? '').slice(0, 2048)
  const cartId = await readRestoreLink(c.env, c.var.config, token, Date.now())
  if (cartId === null)
    return wordsPage(
      'This link no longer works',
      '<p>The link to your bag has expired. Sign in to see your bag.</p><p><a href="/cart">Go to your bag</a></p>',
      403,
    )
  // The cart is the signed-in shopper's own: the bag page shows it once they are signed in.
  return c.redirect('/cart', 303)
})

const stopExpired = expiredLink(
  'The link to stop cart reminders has expired or is not valid. Write to us and we will stop them.',
)

messageRoutes.get('/cart-reminders/stop', async (c) => {
  const token = (c.req.query('t') ?? '').slice(0, 2048)
  const email = await readStopLink(c.env, c.var.config, token, Date.now())
  if (email === null) return stopExpired()
  return wordsPage(
    'Stop cart reminders',
    `<p>Stop the mails that remind ${esc(email)} of a bag left at checkout?</p>
<form method="post"><input type="hidden" name="t" value="${esc(token)}"><button name="action" value="confirm">Stop cart reminders</button></form>`,
  )
})

messageRoutes.post('/cart-reminders/stop', async (c) => {
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > 8192) return wordsPage('Something went wrong', '<p>The form was too large.</p>', 400)
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
  const token = typeof form.t === 'string' ? form.t.slice(0, 2048) : ''
  const now = Date.now()
  const email = await readStopLink(c.env, c.var.config, token, now)
  if (email === null) return stopExpired()
  await stopReminders(c.env.DB, email, now)
  return wordsPage('Cart reminders stopped', `<p>We will not send ${esc(email)} any more cart reminders.</p>`)
})

messageRoutes.get('/preferences', async (c) => {
  const customer = await requireCustomer(c)
  const db = c.env.DB
  const [phones, reminders] = await db.batch([
    db
      .prepare(
        'SELECT phone FROM message_consent WHERE customer_id = ? AND opted_in = 1 ORDER BY updated_at DESC LIMIT 5',
      )
      .bind(customer.id),
    db.prepare('SELECT opted_in FROM reminder_consent WHERE customer_id = ?').bind(customer.id),
  ])
  return ok(c, {
    whatsappPhones: ((phones?.results ?? []) as { phone: string }[]).map((r) => `+${r.phone}`),
    cartReminders: ((reminders?.results ?? []) as { opted_in: number }[])[0]?.opted_in === 1,
  })
})
