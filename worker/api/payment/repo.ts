/**
 * The payment tables: `payments`, one row per order opened at a provider (a Razorpay order, a
 * PayPal order), and `provider_payments`, one row per payment a provider reported on one of them
 * (a Razorpay payment, a PayPal capture). A provider order can be paid more than once; each payment
 * keeps its own row, so the one that paid the order is never overwritten by a later one.
 */
import { magentoDate } from '../user/repo'

export type Provider = 'razorpay' | 'paypal'

export interface PaymentRow {
  id: number
  provider: Provider
  provider_order_id: string
  client_order_id: string
  amount_minor: number
  currency: string
  status: 'created' | 'paid' | 'failed' | 'flagged' | 'refunded_late'
  provider_payment_id: string | null
  detail: string
  created_at: string
  updated_at: string
}

/** One payment a provider reported. */
export interface ProviderPaymentRow {
  id: number
  provider: Provider
  provider_payment_id: string
  provider_order_id: string
  client_order_id: string
  amount_minor: number
  currency: string
  /** paid: it paid the order | refunding → refunded_late / refund_failed: given back | flagged: an operator decides. */
  status: 'paid' | 'refunding' | 'refunded_late' | 'refund_failed' | 'flagged'
  refund_id: string | null
  detail: string
}

export function findPayment(db: D1Database, provider: Provider, providerOrderId: string) {
  return db
    .prepare('SELECT * FROM payments WHERE provider = ? AND provider_order_id = ?')
    .bind(provider, providerOrderId)
    .first<PaymentRow>()
}

/** The provider orders of one of our orders, newest first. */
export async function paymentsOf(db: D1Database, clientOrderId: string): Promise<PaymentRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM payments WHERE client_order_id = ? ORDER BY id DESC LIMIT 50')
    .bind(clientOrderId)
    .all<PaymentRow>()
  return results
}

export async function insertPayment(
  db: D1Database,
  p: Pick<PaymentRow, 'provider' | 'provider_order_id' | 'client_order_id' | 'amount_minor' | 'currency'>,
  now: number,
) {
  const stamp = magentoDate(now)
  await db
    .prepare(
      `INSERT INTO payments (provider, provider_order_id, client_order_id, amount_minor, currency, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'created', ?, ?) ON CONFLICT(provider_order_id) DO NOTHING`,
    )
    .bind(p.provider, p.provider_order_id, p.client_order_id, p.amount_minor, p.currency, stamp, stamp)
    .run()
}

/**
 * Sets a provider order's status. A provider order that paid its order keeps 'paid' and the id of
 * the payment that paid it: whatever is reported on it later is recorded in provider_payments.
 */
export function setPaymentStatus(
  db: D1Database,
  id: number,
  status: PaymentRow['status'],
  paymentId: string | null,
  detail: Record<string, unknown>,
  now: number,
) {
  return db
    .prepare(
      `UPDATE payments SET status = ?, provider_payment_id = COALESCE(?, provider_payment_id), detail = ?, updated_at = ?
       WHERE id = ? AND status != 'paid'`,
    )
    .bind(status, paymentId, JSON.stringify(detail), magentoDate(now), id)
    .run()
}

/** A payment the provider reported, by the provider's id for it. */
export function findProviderPayment(db: D1Database, provider: Provider, paymentId: string) {
  return db
    .prepare('SELECT * FROM provider_payments WHERE provider = ? AND provider_payment_id = ?')
    .bind(provider, paymentId)
    .first<ProviderPaymentRow>()
}

/** The payment that paid an order (the one refunds go back through), if a provider paid it. */
export function paymentThatPaid(db: D1Database, clientOrderId: string) {
  return db
    .prepare(
      `SELECT * FROM provider_payments WHERE client_order_id = ? AND status = 'paid' ORDER BY id LIMIT 1`,
    )
    .bind(clientOrderId)
    .first<ProviderPaymentRow>()
}

/** What a reported payment is recorded with. */
export interface ReportedPayment {
  provider: Provider
  paymentId: string
  providerOrderId: string
  clientOrderId: string
  amountMinor: number
  currency: string
  detail: Record<string, unknown>
}

/**
 * A reported payment's first six columns of provider_payments (provider, provider_payment_id,
 * provider_order_id, client_order_id, amount_minor, currency), in the order every insert binds them.
 */
const reportedColumns = (p: ReportedPayment) =>
  [p.provider, p.paymentId, p.providerOrderId, p.clientOrderId, p.amountMinor, p.currency] as const

/**
 * Records a reported payment with `status`; with `onlyAfterChange` the row is written only when the
 * statement before it in the same batch changed a row (the order's move to paid). Another report
 * of the same payment writes nothing (its row stays as it is).
 */
export function recordProviderPayment(
  db: D1Database,
  p: ReportedPayment,
  status: ProviderPaymentRow['status'],
  now: number,
  onlyAfterChange = false,
): D1PreparedStatement {
  const stamp = magentoDate(now)
  return db
    .prepare(
      `INSERT INTO provider_payments (provider, provider_payment_id, provider_order_id, client_order_id,
         amount_minor, currency, status, detail, created_at, updated_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9 WHERE ?10 = 0 OR changes() = 1
       ON CONFLICT (provider, provider_payment_id) DO NOTHING`,
    )
    .bind(...reportedColumns(p), status, JSON.stringify(p.detail), stamp, onlyAfterChange ? 1 : 0)
}

/**
 * Records how an order was paid as the provider reports it (`doc.payment.paid_with`: 'upi',
 * 'card', 'netbanking', …), in the batch that marks it paid and only when this payment is the one
 * that paid it (a late payment given back never renames the order's method).
 */
export function paidWithStatement(db: D1Database, p: ReportedPayment, method: string): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE orders SET doc = json_set(doc, '$.payment.paid_with', ?1)
       WHERE client_order_id = ?2 AND EXISTS (SELECT 1 FROM provider_payments
         WHERE provider = ?3 AND provider_payment_id = ?4 AND status = 'paid')`,
    )
    .bind(method.slice(0, 40).toLowerCase(), p.clientOrderId, p.provider, p.paymentId)
}

/**
 * Claims a late payment for giving back: a new row in 'refunding', or a row whose last refund
 * attempt failed. True for exactly one of several concurrent claims.
 */
export async function claimLatePayment(db: D1Database, p: ReportedPayment, now: number): Promise<boolean> {
  const stamp = magentoDate(now)
  const res = await db
    .prepare(
      `INSERT INTO provider_payments (provider, provider_payment_id, provider_order_id, client_order_id,
         amount_minor, currency, status, detail, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'refunding', ?7, ?8, ?8)
       ON CONFLICT (provider, provider_payment_id) DO UPDATE SET status = 'refunding', updated_at = excluded.updated_at
         WHERE provider_payments.status = 'refund_failed'`,
    )
    .bind(...reportedColumns(p), JSON.stringify(p.detail), stamp)
    .run()
  return res.meta.changes === 1
}

/** Settles a claimed late payment: given back (with the provider's refund id) or its refund failed. */
export function settleLatePayment(
  db: D1Database,
  p: Pick<ReportedPayment, 'provider' | 'paymentId'>,
  outcome: { refundId: string } | { error: string },
  detail: Record<string, unknown>,
  now: number,
): D1PreparedStatement {
  const refunded = 'refundId' in outcome
  return db
    .prepare(
      `UPDATE provider_payments SET status = ?, refund_id = ?, detail = ?, updated_at = ?
       WHERE provider = ? AND provider_payment_id = ? AND status = 'refunding'`,
    )
    .bind(
      refunded ? 'refunded_late' : 'refund_failed',
      refunded ? outcome.refundId : null,
      JSON.stringify(detail),
      magentoDate(now),
      p.provider,
      p.paymentId,
    )
}
