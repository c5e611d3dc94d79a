/**
 * Refunds, full or partial, recorded against the order. The amount is reserved on the order first
 * with a conditional UPDATE (refunded_minor may never exceed paid_minor; the column's CHECK says
 * the same), so two refunds racing each other can never together give back more than was paid.
 * Then:
 * - an order paid through a provider is refunded through that provider's refund API; when the
 *   provider refuses or cannot be reached the reservation is undone and nothing is recorded;
 * - an order paid without a provider (cash on delivery collected, store credit) is refunded as
 *   'manual': recorded here, paid back by the operator.
 * Every refund writes a 'refund' order event and a refunds row, and the shopper is told by mail.
 */
import type { PaymentState } from '@shared/config/order-status'
import { formatPrice } from '@shared/domain/currency'
import { creditNoteStatements } from '../../documents/credit-notes'
import type { AppConfig } from '../../platform/env'
import { notifyOrder } from '../mail/notify'
import { orderEventStatement } from '../order/lifecycle'
import { findOrderByAnyId, findOrderByClientId, type OrderRow } from '../order/repo'
import { magentoDate } from '../user/repo'
import { paypalConfig, razorpayConfig } from './config'
import { refundPayPalCapture } from './paypal'
import { refundRazorpayPayment } from './razorpay'
import type { PaymentRow } from './repo'

type RefundResult =
  | { ok: true; refundedMinor: number; providerRefundId: string | null; paymentState: PaymentState }
  | { ok: false; status: 400 | 409 | 502; message: string }

/** The payment state after `refunded` of `paid` minor units have gone back. */
const stateAfter = (paid: number, refunded: number): PaymentState =>
  refunded <= 0 ? 'paid' : refunded >= paid ? 'refunded' : 'partially_refunded'

const STATE_SQL = `CASE WHEN refunded_minor >= paid_minor THEN 'refunded'
  WHEN refunded_minor > 0 THEN 'partially_refunded' ELSE 'paid' END`

/** An amount as an operator and the shopper read it (₹5,000.00), in the order's currency. */
function money(minor: number, currency: string) {
  return formatPrice(minor / 100, currency, { convert: false })
}

/** The provider payment an order was paid with, if any. */
function paidPayment(db: D1Database, orderId: string) {
  return db
    .prepare(`SELECT * FROM payments WHERE client_order_id = ? AND status = 'paid' ORDER BY id DESC LIMIT 1`)
    .bind(orderId)
    .first<PaymentRow>()
}

/** Moves `delta` minor units into (positive) or out of (negative) refunded_minor, within 0..paid. */
async function adjustRefunded(db: D1Database, orderId: string, delta: number, now: number) {
  const res = await db
    .prepare(
      `UPDATE orders SET refunded_minor = refunded_minor + ?1, updated_at = ?3
       WHERE client_order_id = ?2 AND refunded_minor + ?1 <= paid_minor AND refunded_minor + ?1 >= 0`,
    )
    .bind(delta, orderId, magentoDate(now))
    .run()
  return res.meta.changes === 1
}

async function callProvider(
  env: Env,
  pay: PaymentRow,
  order: OrderRow,
  amountMinor: number,
  reason: string,
  refundNo: number,
): Promise<{ id: string; processed: boolean }> {
  if (!pay.provider_payment_id) throw new Error('the payment has no provider payment id')
  if (pay.provider === 'razorpay') {
    const cfg = razorpayConfig(env)
    if (!cfg) throw new Error('Razorpay is not configured')
    const r = await refundRazorpayPayment(cfg, pay.provider_payment_id, {
      amountMinor,
      receipt: `refund-${order.increment_id}-${refundNo}`,
      notes: { reason: reason.slice(0, 200), order: order.increment_id },
    })
    return { id: r.id, processed: r.status === 'processed' }
  }
  const cfg = paypalConfig(env)
  if (!cfg) throw new Error('PayPal is not configured')
  const r = await refundPayPalCapture(cfg, pay.provider_payment_id, {
    amountMinor,
    currency: pay.currency,
    requestId: `refund-${order.client_order_id}-${refundNo}`,
    note: reason,
  })
  return { id: r.id, processed: r.status === 'COMPLETED' }
}

export async function refundOrder(
  env: Env,
  config: AppConfig,
  req: { orderId: string; amountMinor: number; actor: string; reason: string },
  now: number,
): Promise<RefundResult> {
  if (!Number.isSafeInteger(req.amountMinor) || req.amountMinor <= 0) {
    return {
      ok: false,
      status: 400,
      message: 'Invalid refund: amountMinor must be a whole number of minor units above 0',
    }
  }
  if (typeof req.reason !== 'string' || req.reason.trim() === '' || req.reason.length > 500) {
    return { ok: false, status: 400, message: 'Invalid refund: reason must be 1 to 500 characters' }
  }
  const db = env.DB
  const order = await findOrderByAnyId(db, req.orderId)
  if (!order)
    return { ok: false, status: 400, message: `Invalid refund: order ${req.orderId} does not exist` }
  const refundable = order.paid_minor - order.refunded_minor
  if (req.amountMinor > refundable) {
    return {
      ok: false,
      status: 409,
      message: `A refund of ${money(req.amountMinor, order.currency)} is more than the ${money(Math.max(0, refundable), order.currency)} still refundable on order ${order.increment_id}.`,
    }
  }
  if (!(await adjustRefunded(db, order.client_order_id, req.amountMinor, now))) {
    return {
      ok: false,
      status: 409,
      message: `Order ${order.increment_id} changed while the refund was made (another refund?); nothing was refunded. Please look again.`,
    }
  }
  const pay = await paidPayment(db, order.client_order_id)
  const count = await db
    .prepare('SELECT COUNT(*) AS n FROM refunds WHERE client_order_id = ?')
    .bind(order.client_order_id)
    .first<{ n: number }>()
  let provider: { id: string; processed: boolean } | null = null
  if (pay) {
    try {
      provider = await callProvider(env, pay, order, req.amountMinor, req.reason, (count?.n ?? 0) + 1)
    } catch (err) {
      await adjustRefunded(db, order.client_order_id, -req.amountMinor, now)
      return {
        ok: false,
        status: 502,
        message: `The payment provider did not accept the refund; nothing was refunded (${String((err as Error)?.message ?? err).slice(0, 200)}).`,
      }
    }
  }
  const stamp = magentoDate(now)
  const providerName = pay?.provider ?? 'manual'
  // The credit note of this refund, written in its batch (none when nothing was invoiced).
  const creditNote = await creditNoteStatements(
    env,
    order,
    {
      source: provider ? `${providerName}:${provider.id}` : `manual:${crypto.randomUUID()}`,
      reason: req.reason,
      amountMinor: req.amountMinor,
    },
    now,
  )
  const detail = {
    amountMinor: req.amountMinor,
    currency: order.currency,
    provider: pay?.provider ?? 'manual',
    providerRefundId: provider?.id ?? null,
    reason: req.reason,
  }
  await db.batch([
    db
      .prepare(`UPDATE orders SET payment_state = ${STATE_SQL} WHERE client_order_id = ?`)
      .bind(order.client_order_id),
    db
      .prepare(
        `INSERT INTO refunds (client_order_id, provider, provider_refund_id, amount_minor, currency, status, actor, reason, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        order.client_order_id,
        pay?.provider ?? 'manual',
        provider?.id ?? null,
        req.amountMinor,
        order.currency,
        provider && !provider.processed ? 'pending' : 'processed',
        req.actor,
        req.reason,
        stamp,
        stamp,
      ),
    orderEventStatement(db, order.client_order_id, { kind: 'refund', actor: req.actor, detail }, now),
    ...creditNote,
  ])
  const after = (await findOrderByClientId(db, order.client_order_id)) as OrderRow
  try {
    await notifyOrder(env, config, 'refunded', order.client_order_id, now, {
      'Amount refunded': money(req.amountMinor, order.currency),
    })
  } catch (err) {
    console.error(JSON.stringify({ msg: 'refund mail failed', err: String(err) }))
  }
  return {
    ok: true,
    refundedMinor: after.refunded_minor,
    providerRefundId: provider?.id ?? null,
    paymentState: stateAfter(after.paid_minor, after.refunded_minor),
  }
}

/**
 * A provider reports a refund as processed: one we asked for is marked processed; one made
 * elsewhere (the provider's dashboard) is recorded and counted against the order, once.
 */
export async function providerRefundProcessed(
  env: Env,
  report: {
    provider: 'razorpay' | 'paypal'
    providerRefundId: string
    paymentId: string
    amountMinor: number
    currency: string
  },
  now: number,
): Promise<'marked' | 'recorded' | 'unknown'> {
  const db = env.DB
  const stamp = magentoDate(now)
  const known = await db
    .prepare(
      `UPDATE refunds SET status = 'processed', updated_at = ? WHERE provider = ? AND provider_refund_id = ?`,
    )
    .bind(stamp, report.provider, report.providerRefundId)
    .run()
  if (known.meta.changes === 1) return 'marked'
  const pay = await db
    .prepare(`SELECT * FROM payments WHERE provider = ? AND provider_payment_id = ? AND status = 'paid'`)
    .bind(report.provider, report.paymentId)
    .first<PaymentRow>()
  if (!pay || report.currency !== pay.currency) return 'unknown'
  if (!(await adjustRefunded(db, pay.client_order_id, report.amountMinor, now))) return 'unknown'
  const inserted = await db
    .prepare(
      `INSERT INTO refunds (client_order_id, provider, provider_refund_id, amount_minor, currency, status, actor, reason, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'processed', ?, 'made at the provider', ?, ?) ON CONFLICT(provider_refund_id) DO NOTHING`,
    )
    .bind(
      pay.client_order_id,
      report.provider,
      report.providerRefundId,
      report.amountMinor,
      report.currency,
      `provider:${report.provider}`,
      stamp,
      stamp,
    )
    .run()
  if (inserted.meta.changes !== 1) {
    await adjustRefunded(db, pay.client_order_id, -report.amountMinor, now)
    return 'marked'
  }
  const order = (await findOrderByClientId(db, pay.client_order_id)) as OrderRow
  await db.batch([
    ...(await creditNoteStatements(
      env,
      order,
      {
        source: `${report.provider}:${report.providerRefundId}`,
        reason: 'made at the provider',
        amountMinor: report.amountMinor,
      },
      now,
    )),
    db
      .prepare(`UPDATE orders SET payment_state = ${STATE_SQL} WHERE client_order_id = ?`)
      .bind(pay.client_order_id),
    orderEventStatement(
      db,
      pay.client_order_id,
      {
        kind: 'refund',
        actor: `provider:${report.provider}`,
        detail: { ...report, reason: 'made at the provider' },
      },
      now,
    ),
  ])
  return 'recorded'
}
