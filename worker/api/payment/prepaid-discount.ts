/**
 * The prepaid discount: what a cash-on-delivery order is offered off its total when it switches to
 * prepaid through a payment link (the operator's setting, migration 0346; none unless set).
 * - 'percent': that share of the goods (the item lines as charged, gift cards left out), rounded
 *   down to a paisa and never more than the cap; 'fixed': that many paise.
 * - It never takes the total below ₹1 (a payment link is for a positive amount) nor more than the
 *   goods: the COD fee and shipping are never discounted.
 * - The discount is fixed when the link is made (stored with its payment row) and written to the
 *   order only with the move that marks it paid: the order's total, its coupon-style discount, and
 *   each line's `discount_minor`, spread over the lines by largest remainder (allocateMinor) so the
 *   tax invoice charges GST on the discounted values.
 */
import { isGiftCard } from '@shared/domain/gift-card-details'
import { allocateMinor } from '@shared/domain/money'
import { parseOrderDocument } from '../order/document'
import type { OrderRow } from '../order/repo'

export interface PrepaidDiscountSetting {
  kind: 'off' | 'percent' | 'fixed'
  percent: number
  cap_minor: number
  fixed_minor: number
}

/** The least an order paid through a link may come to (paise). */
const LEAST_TOTAL_MINOR = 100

/** The operator's setting ('off' when never set). */
export async function prepaidDiscountSetting(db: D1Database): Promise<PrepaidDiscountSetting> {
  const row = await db
    .prepare('SELECT kind, percent, cap_minor, fixed_minor FROM prepaid_discount WHERE id = 1')
    .first<PrepaidDiscountSetting>()
  return row ?? { kind: 'off', percent: 0, cap_minor: 0, fixed_minor: 0 }
}

/** What each line was charged (paise), gift cards counted as 0: the weights the discount is spread by. */
function goodsOf(order: Pick<OrderRow, 'doc'>): number[] {
  return (parseOrderDocument(order.doc).items ?? []).map((it) =>
    isGiftCard(it)
      ? 0
      : Math.max(
          0,
          (it.row_total_minor ?? 0) - (it.discount_minor ?? Math.round((it.discount_amount ?? 0) * 100)),
        ),
  )
}

/** The discount (paise) the setting gives this order; 0 when off or when there is nothing to take off. */
export function prepaidDiscountFor(
  setting: PrepaidDiscountSetting,
  order: Pick<OrderRow, 'doc' | 'grand_total_minor' | 'currency'>,
): number {
  if (setting.kind === 'off' || order.currency !== 'INR') return 0
  const goods = goodsOf(order).reduce((s, v) => s + v, 0)
  const wanted =
    setting.kind === 'percent'
      ? Math.min(Math.floor((goods * setting.percent) / 100), setting.cap_minor)
      : setting.fixed_minor
  const d = Math.min(wanted, goods, (order.grand_total_minor ?? 0) - LEAST_TOTAL_MINOR)
  return Math.max(d, 0)
}

/** The order as it stands with the discount written: total, coupon-style discount, each line's share. */
export function withPrepaidDiscount(order: OrderRow, discountMinor: number): OrderRow {
  if (discountMinor <= 0) return order
  const doc = parseOrderDocument(order.doc)
  const shares = allocateMinor(discountMinor, goodsOf(order))
  const items = (doc.items ?? []).map((it, i) => {
    const share = shares[i] ?? 0
    if (!share) return it
    const before = it.discount_minor ?? Math.round((it.discount_amount ?? 0) * 100)
    return { ...it, discount_minor: before + share, discount_amount: (before + share) / 100 }
  })
  const total = (order.grand_total_minor ?? 0) - discountMinor
  const next = {
    ...doc,
    items,
    discount_amount: Math.round((doc.discount_amount ?? 0) * 100 - discountMinor) / 100,
    grand_total: total / 100,
    base_grand_total: total / 100,
    grand_total_minor: total,
  }
  return { ...order, doc: JSON.stringify(next), grand_total_minor: total }
}

/**
 * Writes the discounted order, in the batch of the move that marks it paid and after it: only when
 * that move happened (this payment is recorded as the one that paid it) and only once (the total
 * must still be the undiscounted one).
 */
export function prepaidDiscountStatement(
  db: D1Database,
  before: OrderRow,
  after: OrderRow,
  payment: { provider: string; paymentId: string },
) {
  return db
    .prepare(
      `UPDATE orders SET doc = ?1, grand_total_minor = ?2
       WHERE client_order_id = ?3 AND grand_total_minor = ?4 AND payment_state = 'paid'
         AND EXISTS (SELECT 1 FROM provider_payments WHERE provider = ?5 AND provider_payment_id = ?6
           AND client_order_id = ?3 AND status = 'paid')`,
    )
    .bind(
      after.doc,
      after.grand_total_minor,
      before.client_order_id,
      before.grand_total_minor,
      payment.provider,
      payment.paymentId,
    )
}
