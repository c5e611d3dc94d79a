/**
 * Double opt-in of "Notify me", like the newsletter's: an address gets back-in-stock mail only once
 * it has confirmed, from a mail sent to it, that it wants such mail.
 *   GET  /api/stock-alerts/confirm?key=   a page with a button (mail scanners open links: a GET
 *                                         changes nothing)
 *   POST /api/stock-alerts/confirm?key=   confirms the address: its waiting alerts, and those it
 *                                         asks for later, are mailed when their products are back
 * The key is a signed link (../newsletter/signed-links.ts) naming the address, valid
 * CONFIRM_LINK_TTL_DAYS. The confirmation lasts until the address stops all back-in-stock mail
 * (./unsubscribe.ts). A first "Notify me" of an address that has not confirmed sends the mail
 * (`askToConfirm`), at most CONFIRM_MAILS_PER_ADDRESS a day: later requests need none, since any
 * one link confirms the address for all of its alerts. The mail carries only the shop's words and
 * the catalogue's product name.
 */
import { Hono } from 'hono'
import { getProductsBySku } from '../../catalog/products'
import type { AppConfig, AppEnv } from '../../platform/env'
import { limitBody, ok } from '../../platform/http'
import { withinLimits } from '../auth/rate-limit'
import { deliverMail } from '../mail/deliver'
import { linkOf, linkPage, signedLink, signLink, wantsPage } from '../newsletter/signed-links'

const LINK_TYPE = 'stock-alert-confirm'
const PATH = '/api/stock-alerts/confirm'
/** A confirmation link works this long; an alert nobody confirms lapses in the same time. */
export const CONFIRM_LINK_TTL_DAYS = 7
/** Confirmation mails one address gets a day, whoever asks. */
export const CONFIRM_MAILS_PER_ADDRESS = 3
const DAY_MS = 24 * 3600_000
export const MSG_BAD_CONFIRM_LINK = 'This back-in-stock confirmation link is invalid or has expired.'

/** Whether `email` (lower case) has confirmed back-in-stock mail. */
async function addressConfirmed(db: D1Database, email: string): Promise<boolean> {
  const row = await db
    .prepare('SELECT 1 AS yes FROM stock_alert_addresses WHERE email = ?1')
    .bind(email)
    .first<{ yes: number }>()
  return row !== null
}

/**
 * Mails `email` (lower case) a confirmation link unless it has confirmed already, within its daily
 * limit (over it nothing is sent: an earlier link confirms too). `sku` names what was asked for,
 * by the catalogue's name. Run after the answer, so the answer is the same for every address.
 */
export async function askToConfirm(env: Env, config: AppConfig, email: string, sku: string, now: number) {
  if (await addressConfirmed(env.DB, email)) return
  const allowed = await withinLimits(
    env.DB,
    [{ key: `stock-alert:confirm:${email}`, limit: CONFIRM_MAILS_PER_ADDRESS, windowMs: DAY_MS }],
    now,
  )
  if (!allowed) return
  const found = (await getProductsBySku(env.DB, [sku])).get(sku)
  const productName = found?.child?.name || found?.product.name || sku
  const link = await signLink(
    env,
    config,
    { path: PATH, typ: LINK_TYPE, email, ttlSeconds: CONFIRM_LINK_TTL_DAYS * 24 * 3600 },
    now,
  )
  await deliverMail(
    env,
    {
      kind: 'stock-alert-confirm',
      from: config.SUPPORT_EMAIL,
      to: email,
      subject: `${config.STORE_NAME}: please confirm back-in-stock mail`,
      text: [
        'Hello,',
        '',
        `Someone, perhaps you, asked ${config.STORE_NAME} to write to this address when ${productName} is back in stock.`,
        `To receive back-in-stock mail at this address, open this link within ${CONFIRM_LINK_TTL_DAYS} days:`,
        link,
        '',
        'If you did not ask, ignore this mail: nothing else will be sent to you.',
      ].join('\n'),
    },
    now,
  )
}

const signedConfirmLink = signedLink(LINK_TYPE, MSG_BAD_CONFIRM_LINK, CONFIRM_LINK_TTL_DAYS * 24 * 3600)

/** GET and POST of the confirmation link, mounted at /api/stock-alerts/confirm. */
export const confirmRoutes = new Hono<AppEnv>()

confirmRoutes.get('/', signedConfirmLink, (c) => {
  const { email } = linkOf(c)
  if (!wantsPage(c)) return ok(c, { action: 'confirm', email })
  return linkPage(
    c,
    200,
    'Back-in-stock mail',
    `Write to ${email} when the products it asked for are back in stock?`,
    'Yes, send me back-in-stock mail',
  )
})

confirmRoutes.post('/', limitBody(1024), signedConfirmLink, async (c) => {
  const { email } = linkOf(c)
  await c.env.DB.prepare(
    'INSERT INTO stock_alert_addresses (email, confirmed_at) VALUES (?1, ?2) ON CONFLICT (email) DO NOTHING',
  )
    .bind(email, Date.now())
    .run()
  if (wantsPage(c))
    return linkPage(
      c,
      200,
      'Back-in-stock mail confirmed',
      `We will write to ${email} when the products it asked for are back in stock.`,
    )
  return ok(c, { confirmed: true, email })
})
