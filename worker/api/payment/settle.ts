/**
 * What a payment the provider reported does to an order. Only called after the report was
 * verified (callback signature, webhook signature, or our own capture call), and always with the
 * amount and currency the PROVIDER reports for it:
 * - it must equal the provider order we opened and the order's charge, else the payment is
 *   flagged for an operator and the order is NOT marked paid;
 * - a payable order moves to 'processing' through transitionOrder (compare-and-set), so the
 *   callback, a webhook and its retries mark it paid exactly once, in whatever order they come;
 * - every reported payment is recorded on its own (provider_payments), never over another: the one
 *   that paid the order is recorded with the move, in its batch;
 * - a payment for an order that can no longer be paid (expired, canceled, or already paid by
 *   another payment) is given back through the provider's refund API at once, by the one request
 *   that claims it — never kept silently; if that refund fails the payment waits for an operator
 *   and the refund is tried again on its next report.
 * A failed payment moves 'pending_payment' to 'payment_failed', which stays payable (pay-now).
 */
import { type OrderStatus, PAYABLE_STATUSES } from '@shared/config/order-status'
import { invoiceStatements } from '../../documents/issue'
import type { AppConfig } from '../../platform/env'
import { issueGiftCards } from '../giftcard/codes'
import { notifyOrder } from '../mail/notify'
import { orderEventStatement, transitionOrder } from '../order/lifecycle'
import { findOrderByClientId, type OrderRow } from '../order/repo'
import { paypalConfig, razorpayConfig } from './config'
import { refundPayPalCapture } from './paypal'
import { prepaidDiscountStatement, withPrepaidDiscount } from './prepaid-discount'
import { refundRazorpayPayment } from './razorpay'
import {
  claimLatePayment,
  findPayment,
  findProviderPayment,
  type PaymentRow,
  type Provider,
  type ProviderPaymentRow,
  paidWithStatement,
  type ReportedPayment,
  recordProviderPayment,
  setPaymentStatus,
  settleLatePayment,
} from './repo'

/** Runs work after the answer (request handlers) or at once (scheduled work, tests). */
export type Later = (work: () => Promise<unknown>, label: string) => void

interface PaymentReport {
  provider: Provider
  providerOrderId: string
  /** Razorpay payment id or PayPal capture id. */
  paymentId: string
  amountMinor: number
  currency: string
  /** How the shopper paid, as the provider reports it (Razorpay: 'upi', 'card', 'netbanking', …). */
  method?: string | undefined
  /** What told us: 'callback', 'webhook:<event>', 'capture'. */
  via: string
  /**
   * The statuses the payment may pay the order from (default PAYABLE_STATUSES); a payment link
   * offered to a cash-on-delivery order pays it from 'pending'.
   */
  payableFrom?: readonly OrderStatus[]
  /** A further condition on the order's row the payment needs when it is written (transitionOrder's onlyIf). */
  onlyIf?: string
  /**
   * Paise off the order's total that the payment was asked for less (a payment link's prepaid
   * discount, as stored with its link): the payment must equal the total less it, and the discount
   * is written to the order in the batch that marks it paid (worker/api/payment/prepaid-discount.ts).
   */
  discountMinor?: number
}

type PaidOutcome = 'paid' | 'already-paid' | 'flagged' | 'refunded-late' | 'needs-attention' | 'unknown-order'

const isPayable = (status: string, from: readonly OrderStatus[] = PAYABLE_STATUSES) =>
  (from as readonly string[]).includes(status)

/** What a payment already on record means for a new report of it. */
const OUTCOME_OF: Record<ProviderPaymentRow['status'], PaidOutcome> = {
  paid: 'already-paid',
  refunding: 'refunded-late',
  refunded_late: 'refunded-late',
  refund_failed: 'needs-attention',
  flagged: 'flagged',
}

export async function settlePaid(
  env: Env,
  config: AppConfig,
  report: PaymentReport,
  now: number,
  later: Later,
): Promise<{ outcome: PaidOutcome; order: OrderRow | null }> {
  const db = env.DB
  const pay = await findPayment(db, report.provider, report.providerOrderId)
  if (!pay) return { outcome: 'unknown-order', order: null }
  const order = await findOrderByClientId(db, pay.client_order_id)
  if (!order) return { outcome: 'unknown-order', order: null }
  const actor = `provider:${report.provider}`
  const detail = {
    provider: report.provider,
    providerOrderId: report.providerOrderId,
    paymentId: report.paymentId,
    amountMinor: report.amountMinor,
    currency: report.currency,
    via: report.via,
  }
  const reported: ReportedPayment = {
    provider: report.provider,
    paymentId: report.paymentId,
    providerOrderId: report.providerOrderId,
    clientOrderId: order.client_order_id,
    amountMinor: report.amountMinor,
    currency: report.currency,
    detail,
  }
  const known = await findProviderPayment(db, report.provider, report.paymentId)
  // A payment given back whose refund failed is tried again below; any other is settled already.
  if (known && known.status !== 'refund_failed') return { outcome: OUTCOME_OF[known.status], order }
  const discount = report.discountMinor ?? 0
  const matches =
    report.amountMinor === pay.amount_minor &&
    report.currency === pay.currency &&
    report.amountMinor === (order.grand_total_minor ?? 0) - discount &&
    report.currency === order.currency
  if (!matches) {
    const flagged = await db.batch([
      recordProviderPayment(db, reported, 'flagged', now),
      orderEventStatement(
        db,
        order.client_order_id,
        {
          kind: 'payment',
          actor,
          detail: {
            ...detail,
            flag: 'amount or currency differs from the order: not marked paid, an operator must decide',
            expectedMinor: (order.grand_total_minor ?? 0) - discount,
            expectedCurrency: order.currency,
          },
        },
        now,
        { onlyAfterChange: true },
      ),
    ])
    if (flagged[0]?.meta.changes === 1)
      await setPaymentStatus(db, pay.id, 'flagged', report.paymentId, detail, now)
    return { outcome: 'flagged', order }
  }
  // The order as paid: with the discount the payment was asked for less, invoiced as such.
  const paidOrder = withPrepaidDiscount(env, order, discount)
  const moved = isPayable(order.status, report.payableFrom)
    ? await transitionOrder(
        db,
        {
          orderId: order.client_order_id,
          to: 'processing',
          from: report.payableFrom ?? PAYABLE_STATUSES,
          onlyIf: report.onlyIf,
          actor,
          paymentState: 'paid',
          paidMinor: report.amountMinor,
          detail,
          // A paid order is invoiced in the batch that marks it paid, and records how it was paid.
          documents: [
            // The discounted document first: how it was paid is set on it after.
            ...(discount > 0 ? [prepaidDiscountStatement(db, order, paidOrder, reported)] : []),
            ...(report.method ? [paidWithStatement(db, reported, report.method)] : []),
            ...(await invoiceStatements(env, paidOrder, now)),
          ],
          // The payment that paid the order is recorded with the move, in its batch.
          withMove: recordProviderPayment(db, reported, 'paid', now, true),
        },
        now,
      )
    : null
  if (moved?.changed) {
    await setPaymentStatus(db, pay.id, 'paid', report.paymentId, detail, now)
    later(() => notifyOrder(env, config, 'paid', order.client_order_id, now), 'paid mail')
    later(() => issueGiftCards(env, config, order.client_order_id, now), 'gift card codes')
    return { outcome: 'paid', order: moved.order }
  }
  // Not payable, or lost a race: either this same payment won it through another path, or the
  // order stopped being payable (expired, canceled, paid by another payment) in the meantime.
  const current = (await findOrderByClientId(db, order.client_order_id)) ?? order
  if (!(await claimLatePayment(db, reported, now))) {
    const row = await findProviderPayment(db, report.provider, report.paymentId)
    return { outcome: row ? OUTCOME_OF[row.status] : 'refunded-late', order: current }
  }
  return { outcome: await giveBackLatePayment(env, pay, current, report, now), order: current }
}

/**
 * Refunds a payment the order can no longer take (claimed by this request alone); when the refund
 * does not go through it is kept for an operator and tried again on the next report of it.
 */
async function giveBackLatePayment(
  env: Env,
  pay: PaymentRow,
  order: OrderRow,
  report: PaymentReport,
  now: number,
): Promise<'refunded-late' | 'needs-attention'> {
  const db = env.DB
  const base = {
    provider: report.provider,
    providerOrderId: report.providerOrderId,
    paymentId: report.paymentId,
    amountMinor: report.amountMinor,
    currency: report.currency,
    orderStatus: order.status,
  }
  let refundId: string | null = null
  let error: string | null = null
  try {
    refundId = await refundWholePayment(env, report, order)
  } catch (err) {
    error = String((err as Error)?.message ?? err)
  }
  const why = order.status === 'processing' || order.payment_state === 'paid' ? 'already paid' : order.status
  const note = refundId
    ? { ...base, reason: `paid after the order was ${why}: refunded in full`, refundId }
    : {
        ...base,
        flag: `paid after the order was ${why}; the automatic refund failed: an operator must refund it`,
        error,
      }
  await db.batch([
    settleLatePayment(db, report, refundId ? { refundId } : { error: error ?? '' }, note, now),
    orderEventStatement(
      db,
      order.client_order_id,
      { kind: refundId ? 'refund' : 'payment', actor: `provider:${report.provider}`, detail: note },
      now,
    ),
  ])
  await setPaymentStatus(db, pay.id, refundId ? 'refunded_late' : 'flagged', report.paymentId, note, now)
  return refundId ? 'refunded-late' : 'needs-attention'
}

async function refundWholePayment(env: Env, report: PaymentReport, order: OrderRow): Promise<string> {
  if (report.provider === 'razorpay') {
    const cfg = razorpayConfig(env)
    if (!cfg) throw new Error('Razorpay is not configured')
    const refund = await refundRazorpayPayment(cfg, report.paymentId, {
      amountMinor: report.amountMinor,
      receipt: `late-${report.paymentId}`,
      notes: { reason: 'order no longer payable', order: order.increment_id },
    })
    return refund.id
  }
  const cfg = paypalConfig(env)
  if (!cfg) throw new Error('PayPal is not configured')
  const refund = await refundPayPalCapture(cfg, report.paymentId, {
    amountMinor: report.amountMinor,
    currency: report.currency,
    requestId: `late-${report.paymentId}`,
    note: `Order ${order.increment_id} could no longer be paid; your payment has been refunded.`,
  })
  return refund.id
}

/**
 * A failed payment attempt: an order awaiting payment moves to 'payment_failed' (still payable);
 * a failure reported for an order that is already paid, failed or closed changes nothing.
 */
export async function settleFailed(
  env: Env,
  config: AppConfig,
  report: {
    provider: Provider
    providerOrderId: string
    paymentId: string | null
    reason: string
    via: string
  },
  now: number,
  later: Later,
): Promise<{ changed: boolean; order: OrderRow | null }> {
  const db = env.DB
  const pay = await findPayment(db, report.provider, report.providerOrderId)
  if (!pay) return { changed: false, order: null }
  const detail = {
    provider: report.provider,
    providerOrderId: report.providerOrderId,
    paymentId: report.paymentId,
    reason: report.reason.slice(0, 300),
    via: report.via,
  }
  const moved = await transitionOrder(
    db,
    {
      orderId: pay.client_order_id,
      to: 'payment_failed',
      from: ['pending_payment'] as OrderStatus[],
      actor: `provider:${report.provider}`,
      paymentState: 'failed',
      detail,
    },
    now,
  )
  if (pay.status === 'created') await setPaymentStatus(db, pay.id, 'failed', report.paymentId, detail, now)
  if (!moved.changed) return { changed: false, order: await findOrderByClientId(db, pay.client_order_id) }
  later(
    () => notifyOrder(env, config, 'payment_failed', pay.client_order_id, now, { reason: detail.reason }),
    'payment failed mail',
  )
  return { changed: true, order: moved.order }
}
