/**
 * Refunding an order. Never more than what was paid and not yet refunded: the update is
 * conditional on it (and the orders CHECK holds the same line), and its event row and payment
 * state are written in the same batch. This version records refunds made outside a payment
 * provider (cash collected on delivery, store credit, a bank transfer): the money goes back by
 * hand, the shop records it.
 */
import type { PaymentState } from '@shared/config/order-status'
import type { AppConfig } from '../../platform/env'
import { magentoDate } from '../user/repo'

type RefundResult =
  | { ok: true; refundedMinor: number; providerRefundId: string | null; paymentState: PaymentState }
  | { ok: false; status: 400 | 409 | 502; message: string }

export async function refundOrder(
  env: Env,
  _config: AppConfig,
  req: { orderId: string; amountMinor: number; actor: string; reason: string },
  now: number,
): Promise<RefundResult> {
  if (!Number.isSafeInteger(req.amountMinor) || req.amountMinor <= 0) {
    return {
      ok: false,
      status: 400,
      message: 'Refund amount must be a positive whole number of minor units.',
    }
  }
  const db = env.DB
  const order = await db
    .prepare('SELECT paid_minor, refunded_minor, currency FROM orders WHERE client_order_id = ?')
    .bind(req.orderId)
    .first<{ paid_minor: number; refunded_minor: number; currency: string }>()
  if (!order) return { ok: false, status: 400, message: `Order ${req.orderId} does not exist.` }
  const stamp = magentoDate(now)
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE orders SET refunded_minor = refunded_minor + ?1,
           payment_state = CASE WHEN refunded_minor + ?1 = paid_minor THEN 'refunded' ELSE 'partially_refunded' END,
           updated_at = ?2
         WHERE client_order_id = ?3 AND refunded_minor + ?1 <= paid_minor`,
      )
      .bind(req.amountMinor, stamp, req.orderId),
    db
      .prepare(
        `INSERT INTO order_events (client_order_id, kind, actor, detail, created_at)
         SELECT ?1, 'refund', ?2, ?3, ?4 WHERE changes() = 1`,
      )
      .bind(
        req.orderId,
        req.actor,
        JSON.stringify({
          amount_minor: req.amountMinor,
          currency: order.currency,
          reason: req.reason,
          method: 'manual',
        }),
        stamp,
      ),
  ])
  if (update?.meta.changes !== 1) {
    const left = await db
      .prepare('SELECT paid_minor - refunded_minor AS left FROM orders WHERE client_order_id = ?')
      .bind(req.orderId)
      .first<{ left: number }>()
    return {
      ok: false,
      status: 409,
      message: `Refund of ${req.amountMinor} is more than the ${left?.left ?? 0} paid and not yet refunded.`,
    }
  }
  const after = await db
    .prepare('SELECT refunded_minor, payment_state FROM orders WHERE client_order_id = ?')
    .bind(req.orderId)
    .first<{ refunded_minor: number; payment_state: PaymentState }>()
  return {
    ok: true,
    refundedMinor: after?.refunded_minor ?? 0,
    providerRefundId: null,
    paymentState: after?.payment_state ?? 'partially_refunded',
  }
}
