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
import { formatMinor, formatMinorForOperator } from '@shared/domain/currency'
import { creditNoteStatements } from '../../documents/credit-notes'
import type { AppConfig } from '../../platform/env'
import {
  clawBackPlan,
  clawBackStatements,
  HOLD_FINGERPRINT_SQL,
  orderHold,
  redeemedRefusal,
  refundRoom,
  undoClawBack,
} from '../giftcard/ledger'
import { notifyOrder } from '../mail/notify'
import { orderEventStatement } from '../order/lifecycle'
import { findOrderByAnyId, findOrderByClientId, type OrderRow } from '../order/repo'
import { magentoDate } from '../user/repo'
import { paypalConfig, razorpayConfig } from './config'
import { refundPayPalCapture } from './paypal'
import { refundRazorpayPayment } from './razorpay'
import { type ProviderPaymentRow, paymentThatPaid } from './repo'

type RefundResult =
  | { ok: true; refundedMinor: number; providerRefundId: string | null; paymentState: PaymentState }
  | { ok: false; status: 400 | 409 | 502; message: string }

/** The payment state after `refunded` of `paid` minor units have gone back. */
const stateAfter = (paid: number, refunded: number): PaymentState =>
  refunded <= 0 ? 'paid' : refunded >= paid ? 'refunded' : 'partially_refunded'

const STATE_SQL = `CASE WHEN refunded_minor >= paid_minor THEN 'refunded'
  WHEN refunded_minor > 0 THEN 'partially_refunded' ELSE 'paid' END`

/** Moves `delta` minor units into (positive) or out of (negative) refunded_minor, within 0..paid. */
function adjustRefundedStatement(db: D1Database, orderId: string, delta: number, now: number) {
  return db
    .prepare(
      `UPDATE orders SET refunded_minor = refunded_minor + ?1, updated_at = ?3
       WHERE client_order_id = ?2 AND refunded_minor + ?1 <= paid_minor AND refunded_minor + ?1 >= 0`,
    )
    .bind(delta, orderId, magentoDate(now))
}

async function adjustRefunded(db: D1Database, orderId: string, delta: number, now: number) {
  const res = await adjustRefundedStatement(db, orderId, delta, now).run()
  return res.meta.changes === 1
}

/**
 * The provider request id of one refund: our refund row's id, so every refund (two at the same
 * moment included) is its own request at the provider, and a retried request is the same one.
 */
const refundRequestId = (order: OrderRow, refundRowId: number) =>
  `refund-${order.increment_id}-${refundRowId}`

async function callProvider(
  env: Env,
  pay: ProviderPaymentRow,
  order: OrderRow,
  amountMinor: number,
  reason: string,
  requestId: string,
): Promise<{ id: string; processed: boolean }> {
  if (pay.provider === 'razorpay') {
    const cfg = razorpayConfig(env)
    if (!cfg) throw new Error('Razorpay is not configured')
    const r = await refundRazorpayPayment(cfg, pay.provider_payment_id, {
      amountMinor,
      receipt: requestId,
      notes: { reason: reason.slice(0, 200), order: order.increment_id },
    })
    return { id: r.id, processed: r.status === 'processed' }
  }
  const cfg = paypalConfig(env)
  if (!cfg) throw new Error('PayPal is not configured')
  const r = await refundPayPalCapture(cfg, pay.provider_payment_id, {
    amountMinor,
    currency: pay.currency,
    requestId,
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
      message: `A refund of ${formatMinorForOperator(req.amountMinor, order.currency)} is more than the ${formatMinorForOperator(Math.max(0, refundable), order.currency)} still refundable on order ${order.increment_id}.`,
    }
  }
  // Gift cards the order bought: a refund never gives back a redeemed card's value, and takes
  // back what it reaches of the cards not yet redeemed.
  const hold = await orderHold(db, order.client_order_id)
  const room = refundRoom(order, hold)
  if (req.amountMinor > room.max) {
    return { ok: false, status: 409, message: redeemedRefusal(order, room, req.amountMinor) }
  }
  const plan = req.amountMinor > room.free ? clawBackPlan(hold, req.amountMinor - Math.max(0, room.free)) : []
  const pay = await paymentThatPaid(db, order.client_order_id)
  const provider = pay?.provider ?? 'manual'
  const stamp = magentoDate(now)
  // The amount is reserved, the refund recorded as asked and the cards' part taken back in one
  // batch, only while the order's cards and credit are as read: of two refunds racing for the same
  // money (or a refund and a redemption) one goes through, and each reserved refund has its own row
  // (and request id).
  const [reserved, recorded] = await db.batch([
    db
      .prepare(
        `UPDATE orders SET refunded_minor = refunded_minor + ?2, updated_at = ?3
         WHERE client_order_id = ?1 AND refunded_minor + ?2 <= paid_minor AND ${HOLD_FINGERPRINT_SQL} = ?4`,
      )
      .bind(order.client_order_id, req.amountMinor, stamp, hold.fingerprint),
    db
      .prepare(
        `INSERT INTO refunds (client_order_id, provider, provider_refund_id, amount_minor, currency, status, actor, reason, created_at, updated_at)
         SELECT ?, ?, NULL, ?, ?, 'requested', ?, ?, ?, ? WHERE changes() = 1`,
      )
      .bind(
        order.client_order_id,
        provider,
        req.amountMinor,
        order.currency,
        req.actor,
        req.reason,
        stamp,
        stamp,
      ),
    ...clawBackStatements(db, plan),
  ])
  if (reserved?.meta.changes !== 1) {
    return {
      ok: false,
      status: 409,
      message: `Order ${order.increment_id} changed while the refund was made (another refund?); nothing was refunded. Please look again.`,
    }
  }
  const refundRowId = Number(recorded?.meta.last_row_id)
  let answer: { id: string; processed: boolean } | null = null
  if (pay) {
    try {
      answer = await callProvider(
        env,
        pay,
        order,
        req.amountMinor,
        req.reason,
        refundRequestId(order, refundRowId),
      )
    } catch (err) {
      const why = String((err as Error)?.message ?? err).slice(0, 200)
      await db.batch([
        adjustRefundedStatement(db, order.client_order_id, -req.amountMinor, now),
        db
          .prepare(`UPDATE refunds SET status = 'failed', reason = reason || ?, updated_at = ? WHERE id = ?`)
          .bind(` (refused by the provider: ${why})`, stamp, refundRowId),
      ])
      await undoClawBack(db, plan, order.increment_id, now)
      return {
        ok: false,
        status: 502,
        message: `The payment provider did not accept the refund; nothing was refunded (${why}).`,
      }
    }
  }
  // The credit note of this refund, written in the batch that records the refund as made (none
  // when nothing was invoiced); its source is the refund's own row, so it is issued once.
  const creditNote = await creditNoteStatements(
    env,
    order,
    { source: `refund:${refundRowId}`, reason: req.reason, amountMinor: req.amountMinor },
    now,
  )
  const detail = {
    amountMinor: req.amountMinor,
    currency: order.currency,
    provider,
    providerRefundId: answer?.id ?? null,
    reason: req.reason,
    ...(plan.length ? { giftCardsTakenBack: plan } : {}),
  }
  await db.batch([
    db
      .prepare(`UPDATE orders SET payment_state = ${STATE_SQL} WHERE client_order_id = ?`)
      .bind(order.client_order_id),
    // A provider's report that arrived first (refund.processed) may have marked it processed already.
    db
      .prepare(
        `UPDATE refunds SET provider_refund_id = ?, updated_at = ?,
           status = CASE WHEN status = 'processed' THEN status ELSE ? END WHERE id = ?`,
      )
      .bind(answer?.id ?? null, stamp, answer && !answer.processed ? 'pending' : 'processed', refundRowId),
    orderEventStatement(db, order.client_order_id, { kind: 'refund', actor: req.actor, detail }, now),
    ...creditNote,
  ])
  const after = (await findOrderByClientId(db, order.client_order_id)) as OrderRow
  try {
    await notifyOrder(env, config, 'refunded', order.client_order_id, now, {
      'Amount refunded': formatMinor(req.amountMinor, order.currency),
    })
  } catch (err) {
    console.error(JSON.stringify({ msg: 'refund mail failed', err: String(err) }))
  }
  return {
    ok: true,
    refundedMinor: after.refunded_minor,
    providerRefundId: answer?.id ?? null,
    paymentState: stateAfter(after.paid_minor, after.refunded_minor),
  }
}

/** Our refund row id in a provider request id (refundRequestId), null for anything else. */
function refundRowOf(requestRef: string | null | undefined): number | null {
  const m = /^refund-\d+-(\d+)$/.exec(requestRef ?? '')
  return m ? Number(m[1]) : null
}

/**
 * A provider reports a refund as processed: one we asked for (found by its refund id, or by the
 * request id we sent with it when the report comes before our own call has returned) is marked
 * processed; one made elsewhere (the provider's dashboard) is recorded and counted against the
 * order, once.
 */
export async function providerRefundProcessed(
  env: Env,
  report: {
    provider: 'razorpay' | 'paypal'
    providerRefundId: string
    paymentId: string
    amountMinor: number
    currency: string
    /** What the refund carries back of our request (Razorpay `receipt`, PayPal `custom_id`). */
    requestRef?: string | null
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
  const ours = refundRowOf(report.requestRef)
  if (ours !== null) {
    const asked = await db
      .prepare(
        `UPDATE refunds SET status = 'processed', provider_refund_id = COALESCE(provider_refund_id, ?), updated_at = ?
         WHERE id = ? AND provider = ? AND status IN ('requested', 'pending', 'processed')`,
      )
      .bind(report.providerRefundId, stamp, ours, report.provider)
      .run()
    if (asked.meta.changes === 1) return 'marked'
  }
  const pay = await db
    .prepare(
      `SELECT * FROM provider_payments WHERE provider = ? AND provider_payment_id = ? AND status = 'paid'`,
    )
    .bind(report.provider, report.paymentId)
    .first<ProviderPaymentRow>()
  if (!pay || report.currency !== pay.currency) return 'unknown'
  const [reserved, inserted] = await db.batch([
    adjustRefundedStatement(db, pay.client_order_id, report.amountMinor, now),
    db
      .prepare(
        `INSERT INTO refunds (client_order_id, provider, provider_refund_id, amount_minor, currency, status, actor, reason, created_at, updated_at)
         SELECT ?, ?, ?, ?, ?, 'processed', ?, 'made at the provider', ?, ? WHERE changes() = 1
         ON CONFLICT(provider_refund_id) DO NOTHING`,
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
      ),
  ])
  if (reserved?.meta.changes !== 1) return 'unknown'
  if (inserted?.meta.changes !== 1) {
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
