/**
 * /api/giftcard/* (gift cards and store credit):
 *   GET  /store-credit-transaction ?token → {items:[ledger entries, newest first], total_balance}
 *   POST /store-credit-spending    ?token {amount, order_id?} → {spent, total_balance}
 *   POST /redeem                   token {code} → {credited, total_balance}: a gift card code
 *                                  becomes store credit (once; codes.ts)
 * Balances are kept in paise; the balance column's CHECK (>= 0) makes an overspend fail the whole
 * batch (balance update + ledger row), so concurrent spends can never drive it below 0.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, jsonBody, noStore, ok } from '../../platform/http'
import { requireCustomer, signedIn } from '../auth/guard'
import { reserveOrReject } from '../auth/rate-limit'
import { magentoDate } from '../user/repo'
import { redeemGiftCard } from './codes'

export const giftcardRoutes = new Hono<AppEnv>()
giftcardRoutes.use('*', noStore)

const toMajor = (minor: number) => Math.round(minor) / 100

const SpendBodySchema = z.object({
  amount: z.coerce
    .number({ error: 'amount must be a number' })
    .positive('amount must be greater than 0')
    .max(10_000_000, 'amount is too large'),
  order_id: z.string().trim().min(1).max(100).optional(),
})

/** Adds store credit (operators, refunds, tests): one atomic upsert + ledger row. */
export async function grantStoreCredit(
  db: D1Database,
  customerId: number,
  amount: number,
  comment: string,
  now: number,
) {
  const minor = Math.round(amount * 100)
  const stamp = magentoDate(now)
  await db.batch([
    db
      .prepare(
        `INSERT INTO store_credit (customer_id, balance_minor, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT(customer_id) DO UPDATE SET balance_minor = balance_minor + ?2, updated_at = ?3`,
      )
      .bind(customerId, minor, stamp),
    db
      .prepare(
        `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, comment, created_at)
         SELECT customer_id, ?2, balance_minor, ?3, ?4 FROM store_credit WHERE customer_id = ?1`,
      )
      .bind(customerId, minor, comment, stamp),
  ])
}

giftcardRoutes.get('/store-credit-transaction', async (c) => {
  const customer = await requireCustomer(c)
  const db = c.env.DB
  const [{ results }, balance] = await Promise.all([
    db
      .prepare(
        'SELECT id, amount_minor, balance_after_minor, order_id, comment, created_at FROM store_credit_ledger WHERE customer_id = ? ORDER BY id DESC LIMIT 200',
      )
      .bind(customer.id)
      .all<{
        id: number
        amount_minor: number
        balance_after_minor: number
        order_id: string | null
        comment: string
        created_at: string
      }>(),
    db
      .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
      .bind(customer.id)
      .first<{ balance_minor: number }>(),
  ])
  return ok(c, {
    items: results.map((r) => ({
      id: r.id,
      amount: toMajor(r.amount_minor),
      balance: toMajor(r.balance_after_minor),
      order_id: r.order_id,
      comment: r.comment,
      created_at: r.created_at,
    })),
    total_balance: toMajor(balance?.balance_minor ?? 0),
  })
})

giftcardRoutes.post('/store-credit-spending', signedIn, jsonBody(SpendBodySchema), async (c) => {
  const customer = await requireCustomer(c)
  const { amount, order_id } = c.req.valid('json')
  const minor = Math.round(amount * 100)
  if (minor <= 0) fail(400, 'amount must be at least 0.01')
  const db = c.env.DB
  const stamp = magentoDate(Date.now())
  const insufficient = 'Insufficient store credit balance.'
  let results: D1Result[]
  try {
    results = await db.batch([
      db
        .prepare(
          'UPDATE store_credit SET balance_minor = balance_minor - ?, updated_at = ? WHERE customer_id = ?',
        )
        .bind(minor, stamp, customer.id),
      db
        .prepare(
          `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, order_id, comment, created_at)
           SELECT customer_id, ?, balance_minor, ?, ?, ? FROM store_credit WHERE customer_id = ?`,
        )
        .bind(
          -minor,
          order_id ?? null,
          order_id ? `Spent on order ${order_id}` : 'Spent',
          stamp,
          customer.id,
        ),
    ])
  } catch (err) {
    // The CHECK (balance_minor >= 0) rolled back the whole batch.
    if (String((err as Error)?.message).includes('CHECK constraint failed')) fail(400, insufficient)
    throw err
  }
  if ((results[0]?.meta.changes ?? 0) !== 1) fail(400, insufficient)
  const balance = await db
    .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
    .bind(customer.id)
    .first<{ balance_minor: number }>()
  return ok(c, { spent: toMajor(minor), total_balance: toMajor(balance?.balance_minor ?? 0) })
})

/**
 * Redeeming is limited per account (codes carry about 80 random bits, so guessing is hopeless;
 * the limit keeps anyone from spending the database's time on trying).
 */
const REDEEM_ATTEMPTS_PER_WINDOW = 10
const MSG_TOO_MANY_REDEEMS = 'Too many gift card codes tried. Please wait 15 minutes and try again.'

const RedeemBodySchema = z.object({
  code: z.string({ error: 'code is required' }).max(64, 'code must be at most 64 characters'),
})

giftcardRoutes.post(
  '/redeem',
  signedIn,
  jsonBody(RedeemBodySchema, { what: 'gift card', maxBytes: 1024 }),
  async (c) => {
    const customer = await requireCustomer(c)
    await reserveOrReject(
      c.env.DB,
      [{ key: `giftcard-redeem:${customer.id}`, limit: REDEEM_ATTEMPTS_PER_WINDOW }],
      Date.now(),
      MSG_TOO_MANY_REDEEMS,
    )
    return ok(c, await redeemGiftCard(c.env.DB, customer.id, c.req.valid('json').code, Date.now()))
  },
)
