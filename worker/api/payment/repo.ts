/** The payments table: one row per order opened at a provider. */
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
       WHERE id = ?`,
    )
    .bind(status, paymentId, JSON.stringify(detail), magentoDate(now), id)
    .run()
}
