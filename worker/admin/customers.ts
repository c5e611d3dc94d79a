/**
 * Customers in the back office: the list (newest first), searched by name, e-mail or phone (an
 * account's address or an order's billing phone), guests who ordered without an account included
 * (by their orders' e-mail); one looked up by e-mail (with their orders and store credit), and
 * grant or revoke store credit. Every movement is a ledger row with the balance after it; a
 * revocation applies only while the balance covers it, so the balance never goes below zero.
 */
import { z } from 'zod'
import { shopperOrderIds } from '../api/order/repo'
import { magentoDate } from '../api/user/repo'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import { amountTyped, containsPattern, oneAmount, requiredText } from './input'

export const CreditSchema = z
  .object({
    amount: amountTyped('amount', { signed: true })
      .refine((n) => Math.abs(n) <= 100_000_000, 'amount is too large (at most ₹10,00,000)')
      .optional(),
    amount_minor: z.coerce
      .number()
      .int('amount_minor must be a whole number')
      .refine((n) => n !== 0, 'amount_minor must not be 0')
      .refine((n) => Math.abs(n) <= 100_000_000, 'amount_minor is too large')
      .optional(),
    comment: requiredText('comment', 500),
  })
  .transform(oneAmount)

/** One row of the customer list: an account, or a guest known by the e-mail of their orders. */
export interface CustomerRow {
  id: number | null
  email: string
  name: string
  orders: number
  credit_minor: number
}

/**
 * Accounts and guests matching `q` in their name, e-mail or phone (digits only are compared for a
 * phone, so "98765 43210" finds +91-9876543210), at most 50 of each; the newest accounts when `q`
 * is empty.
 */
export async function searchCustomers(db: D1Database, q: string): Promise<CustomerRow[]> {
  const like = containsPattern(q)
  const digits = q.replace(/\D/g, '')
  // A phone is searched only when at least 4 digits are typed (fewer match nearly everyone).
  const phone = digits.length >= 4 ? `%${digits}%` : null
  const phoneOf = (expr: string) =>
    `replace(replace(replace(replace(COALESCE(${expr}, ''), ' ', ''), '-', ''), '+', ''), '(', '')`
  const [accounts, guests] = await db.batch([
    db
      .prepare(
        `SELECT c.id, c.email, trim(c.firstname || ' ' || c.lastname) AS name, COALESCE(s.balance_minor, 0) AS credit_minor,
           (SELECT COUNT(*) FROM orders o WHERE o.entity_id IN (${shopperOrderIds('c.id', 'c.email')})) AS orders
         FROM customers c LEFT JOIN store_credit s ON s.customer_id = c.id
         WHERE ?3 = '' OR c.email LIKE ?1 ESCAPE '\\' OR (c.firstname || ' ' || c.lastname) LIKE ?1 ESCAPE '\\'
           OR (?2 IS NOT NULL AND EXISTS (SELECT 1 FROM customer_addresses a WHERE a.customer_id = c.id
                 AND ${phoneOf("json_extract(a.doc, '$.telephone')")} LIKE ?2))
         ORDER BY c.id DESC LIMIT 50`,
      )
      .bind(like, phone, q),
    db
      .prepare(
        `SELECT NULL AS id, customer_email AS email, 0 AS credit_minor, COUNT(*) AS orders,
           MAX(trim(COALESCE(json_extract(doc, '$.customer_firstname'), '') || ' ' || COALESCE(json_extract(doc, '$.customer_lastname'), ''))) AS name
         FROM orders o
         WHERE customer_id IS NULL AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.email = o.customer_email)
           AND (?3 = '' OR customer_email LIKE ?1 ESCAPE '\\'
             OR (json_extract(doc, '$.customer_firstname') || ' ' || json_extract(doc, '$.customer_lastname')) LIKE ?1 ESCAPE '\\'
             OR (?2 IS NOT NULL AND ${phoneOf("json_extract(doc, '$.billing_address.telephone')")} LIKE ?2))
         GROUP BY customer_email ORDER BY MAX(entity_id) DESC LIMIT 50`,
      )
      .bind(like, phone, q),
  ])
  return [
    ...((accounts?.results ?? []) as unknown as CustomerRow[]),
    ...((guests?.results ?? []) as unknown as CustomerRow[]),
  ]
}

/** A guest's orders by e-mail (no account): what the customer page shows for them. */
export async function guestOrders(db: D1Database, email: string) {
  const { results } = await db
    .prepare(
      `SELECT increment_id, status, payment_state, currency, grand_total_minor, created_at FROM orders
       WHERE customer_email = ? COLLATE NOCASE AND customer_id IS NULL ORDER BY entity_id DESC LIMIT 100`,
    )
    .bind(email)
    .all()
  return results
}

export async function findCustomer(db: D1Database, email: string) {
  const customer = await db
    .prepare(
      `SELECT c.id, c.email, c.firstname, c.lastname, c.created_at, c.disabled_at, COALESCE(s.balance_minor, 0) AS credit_minor
       FROM customers c LEFT JOIN store_credit s ON s.customer_id = c.id WHERE c.email = ?`,
    )
    .bind(email)
    .first<{
      id: number
      email: string
      firstname: string
      lastname: string
      created_at: string
      disabled_at: string | null
      credit_minor: number
    }>()
  if (!customer) return fail(404, `No customer has the e-mail ${email}.`)
  const [orders, ledger] = await db.batch([
    db
      .prepare(
        `SELECT increment_id, status, payment_state, currency, grand_total_minor, created_at FROM orders
         WHERE entity_id IN (${shopperOrderIds('?1', '?2')}) ORDER BY entity_id DESC LIMIT 100`,
      )
      .bind(customer.id, customer.email),
    db
      .prepare(
        'SELECT amount_minor, balance_after_minor, order_id, comment, created_at FROM store_credit_ledger WHERE customer_id = ? ORDER BY id DESC LIMIT 100',
      )
      .bind(customer.id),
  ])
  return { customer, orders: orders?.results ?? [], ledger: ledger?.results ?? [] }
}

/** Grants (positive) or revokes (negative) store credit; a revocation above the balance is a 409. */
export async function moveCredit(
  db: D1Database,
  customerId: number,
  req: z.infer<typeof CreditSchema>,
  actor: string,
  now: number,
) {
  const exists = await db.prepare('SELECT id FROM customers WHERE id = ?').bind(customerId).first()
  if (!exists) return fail(404, `Customer ${customerId} does not exist.`)
  const stamp = magentoDate(now)
  const before = await db
    .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
    .bind(customerId)
    .first<{ balance_minor: number }>()
  const change =
    req.amount_minor > 0
      ? db
          .prepare(
            `INSERT INTO store_credit (customer_id, balance_minor, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(customer_id) DO UPDATE SET balance_minor = balance_minor + ?2, updated_at = ?3`,
          )
          .bind(customerId, req.amount_minor, stamp)
      : db
          .prepare(
            'UPDATE store_credit SET balance_minor = balance_minor + ?2, updated_at = ?3 WHERE customer_id = ?1 AND balance_minor + ?2 >= 0',
          )
          .bind(customerId, req.amount_minor, stamp)
  const [moved] = await db.batch([
    change,
    db
      .prepare(
        `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, comment, created_at)
         SELECT customer_id, ?2, balance_minor, ?3, ?4 FROM store_credit WHERE customer_id = ?1 AND changes() = 1`,
      )
      .bind(customerId, req.amount_minor, req.comment, stamp),
    auditStatement(
      db,
      {
        actor,
        action: req.amount_minor > 0 ? 'credit.grant' : 'credit.revoke',
        target: `customer:${customerId}`,
        before: { balance_minor: before?.balance_minor ?? 0 },
        after: { amount_minor: req.amount_minor, comment: req.comment },
      },
      now,
      { onlyIfChanged: true },
    ),
  ])
  if (moved?.meta.changes !== 1) {
    return fail(
      409,
      `Cannot revoke ${-req.amount_minor}: the customer's store credit is only ${before?.balance_minor ?? 0}.`,
    )
  }
  const after = await db
    .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
    .bind(customerId)
    .first<{ balance_minor: number }>()
  return { customer_id: customerId, balance_minor: after?.balance_minor ?? 0 }
}

export const DisableSchema = z.object({
  disabled: z.preprocess((v) => v === true || v === 'true' || v === '1' || v === 'on', z.boolean()),
})

/**
 * Disables (or re-enables) a customer account. Disabling also ends its sessions: its access tokens
 * die with the token version, its refresh tokens are revoked.
 */
export async function setCustomerDisabled(
  db: D1Database,
  customerId: number,
  disabled: boolean,
  actor: string,
  now: number,
) {
  const row = await db
    .prepare('SELECT id, disabled_at FROM customers WHERE id = ?')
    .bind(customerId)
    .first<{ id: number; disabled_at: string | null }>()
  if (!row) return fail(404, `Customer ${customerId} does not exist.`)
  const stamp = magentoDate(now)
  const statements = [
    disabled
      ? db
          .prepare(
            'UPDATE customers SET disabled_at = COALESCE(disabled_at, ?), token_version = token_version + 1, updated_at = ? WHERE id = ?',
          )
          .bind(stamp, stamp, customerId)
      : db
          .prepare('UPDATE customers SET disabled_at = NULL, updated_at = ? WHERE id = ?')
          .bind(stamp, customerId),
    auditStatement(
      db,
      {
        actor,
        action: disabled ? 'customer.disable' : 'customer.enable',
        target: `customer:${customerId}`,
        before: { disabled_at: row.disabled_at },
        after: { disabled },
      },
      now,
    ),
  ]
  if (disabled) {
    statements.push(
      db
        .prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE customer_id = ? AND revoked_at IS NULL')
        .bind(now, customerId),
    )
  }
  await db.batch(statements)
  return { customer_id: customerId, disabled }
}
