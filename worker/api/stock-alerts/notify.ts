/**
 * Back-in-stock mail: the scheduled job that tells each shopper who asked ("Notify me") that their
 * sku can be bought again.
 *
 * - Stock put back in the back office, or by an operator cancelling an order, mails the waiting
 *   shoppers of those skus right after the answer (mailRestocked).
 * - Each mail carries a signed link (and the List-Unsubscribe headers) that removes its alert, or
 *   every alert of the address (./unsubscribe.ts).
 * - Each run checks at most SKUS_PER_RUN of the skus someone waits for, the least recently checked
 *   first, so every waiting sku is looked at within a few runs however many there are. A sku is
 *   back when the shop's one sellability rule says so (the stock API's answer).
 * - For a sku that is back, each waiting alert gets ONE mail: the alert is marked notified and the
 *   mail's outbox row written in one batch, the mark conditional on the alert still waiting and the
 *   row conditional on the mark, so two runs racing never mail an alert twice. The mail then goes
 *   out like every other mail (the outbox drain, its retries and its dead-letter state).
 * - At most MAILS_PER_RUN mails a run, and at most MAILS_PER_ADDRESS_PER_DAY back-in-stock mails to
 *   one address in 24 hours (checked inside the same conditional statement): further alerts of that
 *   address wait for a later run. Together with the request limits (per network address, per e-mail
 *   address a day, waiting alerts per address and per sku) nobody can use the form to flood an
 *   inbox.
 * - Only addresses that confirmed back-in-stock mail (double opt-in, ./confirm.ts) are mailed; the
 *   alerts of an address that has not confirmed lapse CONFIRM_LINK_TTL_DAYS after they were made.
 * - An alert lapses ALERT_TTL_DAYS after it was made, mailed or not (deleted by this job, oldest
 *   first, at most PRUNE_PER_RUN a run); a product that no longer exists drops its alerts.
 */
import { productUrl } from '@shared/domain/menu'
import { getProductsBySku } from '../../catalog/products'
import { renderAccountMail } from '../../mail/account-mail'
import type { MailTemplateText } from '../../mail/blocks'
import { mailTemplate } from '../../mail/templates'
import { messageBackInStock } from '../../messages/stock'
import { type AppConfig, readConfig } from '../../platform/env'
import { drainOutboxes } from '../mail/outbox'
import { getStockItems } from '../stock/stock-item'
import { magentoDate } from '../user/repo'
import { CONFIRM_LINK_TTL_DAYS } from './confirm'
import { unsubscribeLink } from './unsubscribe'

/** Most waiting skus one run checks. */
const SKUS_PER_RUN = 100
/** Most back-in-stock mails one run writes. */
const MAILS_PER_RUN = 100
/** Most back-in-stock mails one address gets in 24 hours. */
export const MAILS_PER_ADDRESS_PER_DAY = 5
/** How long an alert is kept, mailed or not. */
export const ALERT_TTL_DAYS = 90
/** Most lapsed alerts one run deletes. */
const PRUNE_PER_RUN = 1000
const DAY_MS = 24 * 3600 * 1000

interface WaitingAlert {
  id: number
  email: string
  sku: string
  created_at: number
}

/** An alert (of the stock_alerts row in scope) whose address confirmed back-in-stock mail. */
const CONFIRMED = 'EXISTS (SELECT 1 FROM stock_alert_addresses a WHERE a.email = stock_alerts.email)'

/** What the product of an alert's sku is called and where it is shown (null when it is gone). */
interface AlertProduct {
  name: string
  url: string
  /** Disabled products are not mailed about (their alerts wait). */
  enabled: boolean
}

async function productsOf(db: D1Database, skus: string[], config: AppConfig) {
  const out = new Map<string, AlertProduct>()
  const found = await getProductsBySku(db, skus)
  for (const [sku, { product, child }] of found) {
    out.set(sku, {
      name: child?.name || product.name,
      url: `${config.PUBLIC_ORIGIN}${productUrl(product, child?.sku ?? null)}`,
      enabled: (product.status ?? 1) < 2 && (child?.status ?? 1) < 2,
    })
  }
  return out
}

/** The mail an alert's address gets when its sku is back (text and HTML, the operator's words when edited). */
function backInStockMail(
  alert: WaitingAlert,
  product: AlertProduct,
  config: AppConfig,
  unsubscribe: string,
  custom: MailTemplateText | null,
) {
  const mail = renderAccountMail(
    'back_in_stock',
    {
      product: product.name,
      productUrl: product.url,
      asked: new Date(alert.created_at).toISOString().slice(0, 10),
      unsubscribe,
    },
    { name: config.STORE_NAME, supportEmail: config.SUPPORT_EMAIL },
    custom,
  )
  return {
    ...mail,
    // A mail client's own unsubscribe button posts to the same link (one click, no page).
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}

/**
 * The two statements that mail one alert: mark it notified, only while it still waits and while
 * its address got fewer than MAILS_PER_ADDRESS_PER_DAY such mails in the last day; then write the
 * mail's outbox row, only when the mark changed the row.
 */
function mailStatements(
  db: D1Database,
  alert: WaitingAlert,
  mail: { subject: string; text: string; html: string; headers: Record<string, string> },
  config: AppConfig,
  now: number,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE stock_alerts SET notified_at = ?1
         WHERE id = ?2 AND notified_at IS NULL AND ${CONFIRMED}
           AND (SELECT count(*) FROM stock_alerts WHERE email = ?3 AND notified_at > ?4) < ?5`,
      )
      .bind(now, alert.id, alert.email, now - DAY_MS, MAILS_PER_ADDRESS_PER_DAY),
    db
      .prepare(
        `INSERT INTO mail_outbox (kind, from_address, source_address, target_address, subject, body, headers,
           html, status, attempts, next_attempt_at, created_at)
         SELECT 'back-in-stock', ?1, ?1, ?2, ?3, ?4, ?6, ?7, 'queued', 0, 0, ?5 WHERE changes() = 1`,
      )
      .bind(
        config.SUPPORT_EMAIL,
        alert.email,
        mail.subject,
        mail.text,
        magentoDate(now),
        JSON.stringify(mail.headers),
        mail.html,
      ),
  ]
}

/** Moves the waiting alerts of these skus (or with these ids) to the back of the checking line. */
async function markChecked(
  db: D1Database,
  by: 'sku' | 'id',
  keys: readonly (string | number)[],
  now: number,
) {
  if (keys.length === 0) return
  await db
    .prepare(
      `UPDATE stock_alerts SET checked_at = ?1
       WHERE notified_at IS NULL AND ${by} IN (SELECT value FROM json_each(?2))`,
    )
    .bind(now, JSON.stringify(keys))
    .run()
}

/** What one run did, for the job log. */
interface BackInStockRun {
  checked: number
  back: number
  mailed: number
  lapsed: number
}

/**
 * The scheduled job: prunes lapsed alerts, checks the least recently checked waiting skus, and
 * queues one mail per waiting alert of each sku that is sellable again. With `skus` (a restock
 * just made), only those skus are checked, at once.
 */
export async function mailBackInStock(
  env: Env,
  now: number,
  opts: { skus?: readonly string[] } = {},
): Promise<BackInStockRun> {
  const db = env.DB
  const config = readConfig(env)
  const pruned = opts.skus
    ? null
    : await db
        .prepare(
          `DELETE FROM stock_alerts WHERE id IN
             (SELECT id FROM stock_alerts WHERE created_at < ?1 ORDER BY created_at LIMIT ?2)
           OR id IN (SELECT id FROM stock_alerts WHERE created_at < ?3 AND NOT ${CONFIRMED}
             ORDER BY created_at LIMIT ?2)`,
        )
        .bind(now - ALERT_TTL_DAYS * DAY_MS, PRUNE_PER_RUN, now - CONFIRM_LINK_TTL_DAYS * DAY_MS)
        .run()
  const { results: due } = await db
    .prepare(
      `SELECT sku FROM stock_alerts WHERE notified_at IS NULL AND ${CONFIRMED}
         AND (?2 IS NULL OR sku IN (SELECT value FROM json_each(?2)))
       GROUP BY sku ORDER BY min(checked_at), sku LIMIT ?1`,
    )
    .bind(SKUS_PER_RUN, opts.skus ? JSON.stringify(opts.skus.slice(0, SKUS_PER_RUN)) : null)
    .all<{ sku: string }>()
  const run: BackInStockRun = { checked: due.length, back: 0, mailed: 0, lapsed: pruned?.meta.changes ?? 0 }
  if (due.length === 0) return run
  const skus = due.map((r) => r.sku)
  const stock = await getStockItems(db, skus)
  const products = await productsOf(db, skus, config)
  // A sku whose product is gone can never come back: its alerts go.
  const gone = skus.filter((sku) => !products.has(sku))
  if (gone.length)
    await db
      .prepare('DELETE FROM stock_alerts WHERE sku IN (SELECT value FROM json_each(?1))')
      .bind(JSON.stringify(gone))
      .run()
  const back = skus.filter((sku) => stock.get(sku)?.is_in_stock && products.get(sku)?.enabled)
  run.back = back.length
  // Checked now: skus still out of stock go to the back of the line.
  await markChecked(
    db,
    'sku',
    skus.filter((sku) => !back.includes(sku)),
    now,
  )
  if (back.length === 0) return run
  const { results: alerts } = await db
    .prepare(
      `SELECT id, email, sku, created_at FROM stock_alerts
       WHERE notified_at IS NULL AND ${CONFIRMED} AND sku IN (SELECT value FROM json_each(?1))
       ORDER BY id LIMIT ?2`,
    )
    .bind(JSON.stringify(back), MAILS_PER_RUN)
    .all<WaitingAlert>()
  const custom = await mailTemplate(db, 'back_in_stock')
  const mails = await Promise.all(
    alerts.map(async (alert) => {
      const product = products.get(alert.sku) as AlertProduct
      const unsubscribe = await unsubscribeLink(env, config, alert, product.name, now)
      return mailStatements(
        db,
        alert,
        backInStockMail(alert, product, config, unsubscribe, custom),
        config,
        now,
      )
    }),
  )
  const statements = mails.flat()
  if (statements.length === 0) return run
  const results = await db.batch(statements)
  // Alerts of a sku that is back and were not reached this run keep their place in the line; those
  // tried (mailed, or held back by their address's daily limit) go to the back.
  await markChecked(
    db,
    'id',
    alerts.map((a) => a.id),
    now,
  )
  // Each alert's second statement wrote its mail only when this run marked it: those alerts, and
  // only those, also go on WhatsApp to a number their account opted in.
  const mailed = alerts.filter((_, i) => results[i * 2 + 1]?.meta.changes === 1)
  run.mailed = mailed.length
  await messageBackInStock(
    env,
    mailed.map((a) => ({ id: a.id, email: a.email, product: products.get(a.sku) as AlertProduct })),
    now,
  )
  return run
}

/**
 * After stock was put back by hand: mails the shoppers waiting for these skus now (queued, then
 * sent by one drain of the outbox), instead of on the next scheduled run.
 */
export async function mailRestocked(env: Env, skus: readonly string[], now: number): Promise<BackInStockRun> {
  const run = await mailBackInStock(env, now, { skus })
  if (run.mailed > 0) await drainOutboxes(env, now)
  return run
}
