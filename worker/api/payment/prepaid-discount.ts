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
 *   tax invoice charges GST on the discounted values, and the tax each line and the order include,
 *   worked out by the invoice's own rule so the stored order and its invoice agree.
 * - GST on a piece is at the slab its value as charged decides, as in the cart's totals: a line
 *   whose share takes its piece under a slab's bound (₹2,500 on apparel) is taxed at the lower
 *   rate, decided by `slabRate` from the slabs the line stored at placement on the discounted
 *   value of one piece. A bundle's or grouped product's line stored each kind of piece with its
 *   share of the unit price: its discount is spread over them and each piece's rate decided the
 *   same way (`lineTax`, the cart's own), the line's rate being their combined one. A line that
 *   stored neither (an order placed before lines stored them) keeps the rate it was placed at.
 */

import { toBaseCurrency } from '@shared/domain/currency'
import { isGiftCard } from '@shared/domain/gift-card-details'
import { allocateMinor } from '@shared/domain/money'
import type { InvoiceFigures } from '@shared/domain/tax-document'
import { slabRate } from '@shared/domain/tax-rules'
import { invoiceFiguresOf } from '../../documents/issue'
import { linePercent, lineTax } from '../cart/totals'
import {
  type OrderDocument,
  type OrderDocumentItem,
  parseOrderDocument,
  type StoredGstSlab,
} from '../order/document'
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

/**
 * The order as it stands with the discount written: its total (in the charge and the base
 * currency), its coupon-style discount, each line's share, and the tax every figure includes worked
 * out again from the discounted values by the tax invoice's own rule (`invoiceFiguresOf`): each
 * line's tax is what its invoice line charges, the order's tax the invoice's (shipping included), so
 * the order, its pages and its invoice never differ; each line's rate is first decided again on its
 * discounted value (`withRateCharged`). Without an invoice (no seller configured) the tax and the
 * rates stay as placed.
 */
export function withPrepaidDiscount(
  env: Env,
  order: OrderRow,
  discountMinor: number,
): OrderRow & { base_grand_total_minor?: number } {
  if (discountMinor <= 0) return order
  const doc = parseOrderDocument(order.doc)
  const shares = allocateMinor(discountMinor, goodsOf(order))
  const discounted = (doc.items ?? []).map((it, i) => {
    const share = shares[i] ?? 0
    if (!share) return it
    const before = it.discount_minor ?? Math.round((it.discount_amount ?? 0) * 100)
    return { ...it, discount_minor: before + share, discount_amount: (before + share) / 100 }
  })
  const total = (order.grand_total_minor ?? 0) - discountMinor
  const base = Math.round(toBaseCurrency(total, order.currency))
  const next: OrderDocument = {
    ...doc,
    items: discounted,
    discount_amount: Math.round((doc.discount_amount ?? 0) * 100 - discountMinor) / 100,
    grand_total: total / 100,
    base_grand_total: base / 100,
    grand_total_minor: total,
  }
  // Each line at the rate its discounted value decides, its tax then worked out by the invoice's rule.
  const rated = { ...next, items: discounted.map((it) => withRateCharged(it, order.currency)) }
  const figures = invoiceFiguresOf(env, { ...order, doc: JSON.stringify(rated) })
  const taxed = figures ? withInvoiceTax(rated, figures) : next
  return { ...order, doc: JSON.stringify(taxed), grand_total_minor: total, base_grand_total_minor: base }
}

/** Slabs as the order keeps them, as the rates of India they are. */
const indianSlabs = (slabs: readonly StoredGstSlab[]) => slabs.map((s) => ({ ...s, tax_country_id: 'IN' }))

/**
 * The line at the GST rate its pieces pay at what the line is now charged, by what it stored: the
 * rate the cart's totals decide. One piece a unit (`gst_slabs`): the first slab whose bound the
 * value of ONE piece without its tax, in the base currency, holds. Several (`gst_pieces`): the
 * line's discount spread over its pieces by their shares, each piece's rate decided so, and the
 * line's rate their combined one. Written where the invoice and the order's pages read it. A line
 * that stored neither, and a gift card, is left as it is.
 */
function withRateCharged(it: OrderDocumentItem, currency: string): OrderDocumentItem {
  const qty = it.qty_ordered ?? 0
  if (isGiftCard(it) || qty <= 0) return it
  const discount = it.discount_minor ?? 0
  const paid = Math.max(0, (it.row_total_minor ?? 0) - discount)
  if (it.gst_pieces?.length) {
    const pieces = it.gst_pieces.map((p) => ({ minor: p.minor, count: p.count, rates: indianSlabs(p.slabs) }))
    const tax = lineTax({ pieces }, discount, qty, currency)
    const rate = linePercent(tax.byRate, paid, tax.total)
    return { ...it, gst_rate: rate, tax_percent: rate }
  }
  const slabs = it.gst_slabs
  if (!slabs?.length) return it
  // The value of ONE piece, in the base currency the slab bounds are written in.
  const value = toBaseCurrency(paid / qty / 100, currency)
  const rate = slabRate(indianSlabs(slabs), value, true)
  return { ...it, gst_rate: rate, tax_percent: rate }
}

/** The tax a document line's value includes (GST, and abroad a destination tax). */
const taxIn = (l: { valueMinor: number; taxableMinor: number }) => l.valueMinor - l.taxableMinor

/**
 * The document with the tax of its invoice: each goods line's (the invoice lists goods in the
 * order's order, gift cards apart and untaxed), the order's total tax with shipping's.
 */
function withInvoiceTax(doc: OrderDocument, figures: InvoiceFigures): OrderDocument {
  const goods = figures.lines.filter((l) => !l.shipping)
  let next = 0
  const items = doc.items.map((it) => {
    if (isGiftCard(it)) return it
    const line = goods[next++]
    if (!line) return it
    const tax = taxIn(line)
    return { ...it, tax_minor: tax, tax_amount: tax / 100 }
  })
  const tax = taxIn(figures.totals)
  const [assignment, ...rest] = doc.extension_attributes.shipping_assignments ?? []
  return {
    ...doc,
    items,
    tax_amount: tax / 100,
    extension_attributes: {
      ...doc.extension_attributes,
      tax_amount_minor: tax,
      // The shipment's copy of the lines is the same lines.
      shipping_assignments: assignment ? [{ ...assignment, items }, ...rest] : [],
    },
  }
}

/**
 * Writes the discounted order, in the batch of the move that marks it paid and after it: only when
 * that move happened (this payment is recorded as the one that paid it) and only once (the total
 * must still be the undiscounted one).
 */
export function prepaidDiscountStatement(
  db: D1Database,
  before: OrderRow,
  after: OrderRow & { base_grand_total_minor?: number },
  payment: { provider: string; paymentId: string },
) {
  return db
    .prepare(
      `UPDATE orders SET doc = ?1, grand_total_minor = ?2, grand_total = ?2 / 100.0, base_grand_total_minor = COALESCE(?7, base_grand_total_minor)
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
      after.base_grand_total_minor ?? null,
    )
}
