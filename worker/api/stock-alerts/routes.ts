/**
 * /api/stock-alerts ("Notify me" for an out-of-stock product or size):
 *   POST / {email, sku}   stores the address for that sku (once; asking again is the same answer).
 * Only a sku that exists and is out of stock is accepted (400 otherwise, naming why), so the table
 * holds real requests only. Limited like the other public forms: per network address (and the
 * shared burst limiter) and per e-mail address, before anything is written; the answer is the same
 * whether or not the address had asked before, or had confirmed, so it tells nobody who did.
 * Double opt-in: an address that has not confirmed back-in-stock mail gets a confirmation mail
 * (./confirm.ts) and its alerts wait, unmailed, until it confirms. Waiting alerts are bounded too:
 * per e-mail address (confirmed or not) and per sku (alerts of confirmed addresses; 409 naming the
 * limit). The mail itself is sent by the scheduled job in ./notify.ts; each mail's signed link
 * leaves through ./unsubscribe.ts.
 */
import { EmailSchema } from '@shared/schemas/user'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail, jsonBody, noStore, ok } from '../../platform/http'
import { limitClientAddress, reserveOrReject } from '../auth/rate-limit'
import { runAfterAnswer } from '../mail/deliver'
import { getStockItems } from '../stock/stock-item'
import { askToConfirm, confirmRoutes } from './confirm'
import { unsubscribeRoutes } from './unsubscribe'

/** Requests per network address in 15 minutes, and per e-mail address in a day. */
const STOCK_ALERT_LIMIT_PER_IP = 10
const STOCK_ALERT_LIMIT_PER_ADDRESS = 20
const DAY_MS = 24 * 3600 * 1000
/** Alerts one e-mail address may have waiting at once, and one sku may have waiting. */
const MAX_WAITING_PER_ADDRESS = 20
const MAX_WAITING_PER_SKU = 5000
const STOCK_ALERT_RATE_LIMITED = `Too many "Notify me" requests (at most ${STOCK_ALERT_LIMIT_PER_IP} per network address in 15 minutes and ${STOCK_ALERT_LIMIT_PER_ADDRESS} per e-mail address a day). Please try again later.`

const StockAlertBody = z.object({
  email: EmailSchema,
  sku: z
    .string({ error: 'sku is required' })
    .trim()
    .min(1, 'sku is required')
    .max(128, 'sku is too long')
    .regex(/^[\w.:/-]+$/, 'sku may hold only letters, digits and . _ : / -'),
})

export const stockAlertRoutes = new Hono<AppEnv>()
stockAlertRoutes.use('*', noStore)
stockAlertRoutes.route('/unsubscribe', unsubscribeRoutes)
stockAlertRoutes.route('/confirm', confirmRoutes)

stockAlertRoutes.post('/', jsonBody(StockAlertBody, { what: 'stock alert', maxBytes: 4096 }), async (c) => {
  const { email, sku } = c.req.valid('json')
  const address = email.toLowerCase()
  await limitClientAddress(c)
  await reserveOrReject(
    c.env.DB,
    [
      { key: `stock-alert:ip:${clientAddress(c)}`, limit: STOCK_ALERT_LIMIT_PER_IP },
      { key: `stock-alert:addr:${address}`, limit: STOCK_ALERT_LIMIT_PER_ADDRESS, windowMs: DAY_MS },
    ],
    Date.now(),
    STOCK_ALERT_RATE_LIMITED,
  )
  const item = (await getStockItems(c.env.DB, [sku])).get(sku)
  if (!item) fail(404, `No product with sku ${sku}`)
  if (item.is_in_stock) fail(400, `Invalid stock alert: sku: ${sku} is in stock, so it can be ordered now`)
  const parent = await c.env.DB.prepare('SELECT parent_sku FROM inventory WHERE sku = ?')
    .bind(sku)
    .first<{ parent_sku: string | null }>()
  const waiting = await c.env.DB.prepare(
    `SELECT (SELECT count(*) FROM stock_alerts WHERE email = ?1 AND notified_at IS NULL) AS address,
       (SELECT count(*) FROM stock_alerts WHERE sku = ?2 AND notified_at IS NULL
          AND email IN (SELECT email FROM stock_alert_addresses)) AS sku,
       EXISTS (SELECT 1 FROM stock_alerts WHERE email = ?1 AND sku = ?2 AND notified_at IS NULL) AS known`,
  )
    .bind(address, sku)
    .first<{ address: number; sku: number; known: number }>()
  // Asking again for an alert still waiting is the same answer; a new one (or one asked again after
  // its mail went out: the sku sold out again) must fit the limits.
  if (waiting && !waiting.known) {
    if (waiting.address >= MAX_WAITING_PER_ADDRESS)
      fail(
        409,
        `This e-mail address already waits for ${MAX_WAITING_PER_ADDRESS} products to come back (the most it may); we will write as they do.`,
      )
    if (waiting.sku >= MAX_WAITING_PER_SKU)
      fail(
        409,
        `Too many shoppers already wait for ${sku} (at most ${MAX_WAITING_PER_SKU}). Please check again later.`,
      )
  }
  await c.env.DB.prepare(
    `INSERT INTO stock_alerts (email, sku, parent_sku, created_at) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (email, sku) DO UPDATE SET created_at = excluded.created_at, notified_at = NULL, checked_at = 0
       WHERE stock_alerts.notified_at IS NOT NULL`,
  )
    .bind(address, sku, parent?.parent_sku ?? null, Date.now())
    .run()
  runAfterAnswer(
    c,
    () => askToConfirm(c.env, c.var.config, address, sku, Date.now()),
    'stock alert confirmation mail',
  )
  return ok(c, { sku, subscribed: true })
})
