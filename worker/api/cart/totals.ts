/**
 * Cart totals (Magento `/totals` shape), pure: lines priced by shared/domain/price (the caller
 * passes unit prices from `priceView`), coupon rules, tax after discount, free shipping. Amounts
 * are INR; prices are shown including tax (Indian market), so the 'subtotal' segment carries the
 * subtotal incl. tax, the discount is taken off the incl.-tax amount and the tax segment states
 * the tax contained in the grand total.
 */
import { MSG } from '@shared/i18n/messages'

export interface PricedLine {
  item_id: number
  sku: string
  name: string
  qty: number
  product_type: string
  product_option?: unknown
  /** Unit price excl. tax after special price and option deltas. */
  unitExcl: number
  unitIncl: number
  /** Tax rate percent. */
  taxRate: number
  /** Display options, [{label, value}] (configurable attributes). */
  options: { label: string; value: string }[]
}

export interface CouponRule {
  code: string
  kind: 'percent' | 'fixed'
  amount: number
  min_subtotal: number
  starts_at: string | null
  expires_at: string | null
  is_active: number
  label: string
  /** Usage rules (migration 0071): only for a first order; orders per shopper; orders in all. */
  first_order_only?: number
  per_customer_limit?: number | null
  total_limit?: number | null
}

interface TotalsInput {
  lines: PricedLine[]
  coupon: CouponRule | null
  shippingAmount: number
  currency: string
  /** Tax country; totals refuse to compute without one (the tax rate depends on it). */
  country: string | null | undefined
  now: number
}

const round2 = (x: number) => Math.round((x + Number.EPSILON) * 100) / 100
const formatInr = (x: number) => `₹${round2(x).toLocaleString('en-IN')}`

/** Thrown when the totals cannot be computed (no tax country). */
export class TotalsError extends Error {}

/** Why a coupon does not apply to a subtotal (incl. tax) at `now`, or null when it applies. */
export function couponProblem(
  rule: CouponRule | null,
  code: string,
  subtotalInclTax: number,
  now: number,
): string | null {
  if (!rule?.is_active) return `The coupon code "${code}" is not valid.`
  if (rule.starts_at && Date.parse(rule.starts_at) > now) return `The coupon code "${code}" is not valid yet.`
  if (rule.expires_at && Date.parse(rule.expires_at) < now) return `The coupon code "${code}" has expired.`
  // Compared in whole paise: a subtotal exactly at the minimum qualifies, whatever float noise
  // the incl.-tax multiplication left behind.
  if (round2(subtotalInclTax) < round2(rule.min_subtotal)) {
    return `The coupon code "${code}" needs a cart subtotal of at least ${formatInr(rule.min_subtotal)}.`
  }
  return null
}

/** The discount (incl. tax, positive) a valid coupon gives on a subtotal. */
function couponDiscount(rule: CouponRule, subtotalInclTax: number): number {
  const raw = rule.kind === 'percent' ? (subtotalInclTax * rule.amount) / 100 : rule.amount
  return round2(Math.min(Math.max(raw, 0), subtotalInclTax))
}

/** Magento-shaped totals with items and total_segments. */
export function computeTotals(input: TotalsInput) {
  if (!input.country) throw new TotalsError(MSG.totalsCountryMissing)
  const { lines, now } = input
  const subtotalIncl = round2(lines.reduce((s, l) => s + l.unitIncl * l.qty, 0))
  const applied =
    input.coupon && !couponProblem(input.coupon, input.coupon.code, subtotalIncl, now) ? input.coupon : null
  const discount = applied ? couponDiscount(applied, subtotalIncl) : 0
  let remaining = discount
  const items = lines.map((l, i) => {
    const rowIncl = round2(l.unitIncl * l.qty)
    const rowExcl = round2(l.unitExcl * l.qty)
    const share =
      i === lines.length - 1 ? remaining : subtotalIncl > 0 ? round2((discount * rowIncl) / subtotalIncl) : 0
    remaining = round2(remaining - share)
    const taxableIncl = rowIncl - share
    const divisor = 1 + l.taxRate / 100
    const tax = round2(taxableIncl - taxableIncl / divisor)
    return {
      item_id: l.item_id,
      sku: l.sku,
      price: round2(l.unitExcl),
      base_price: round2(l.unitExcl),
      qty: l.qty,
      row_total: rowExcl,
      base_row_total: rowExcl,
      row_total_with_discount: round2(rowExcl - share / divisor),
      tax_amount: tax,
      base_tax_amount: tax,
      tax_percent: l.taxRate,
      discount_amount: share,
      base_discount_amount: share,
      discount_percent: applied?.kind === 'percent' ? applied.amount : 0,
      price_incl_tax: round2(l.unitIncl),
      base_price_incl_tax: round2(l.unitIncl),
      row_total_incl_tax: rowIncl,
      base_row_total_incl_tax: rowIncl,
      options: JSON.stringify(l.options),
      weee_tax_applied_amount: null,
      weee_tax_applied: null,
      name: l.name,
      product_type: l.product_type,
      ...(l.product_option ? { product_option: l.product_option } : {}),
    }
  })
  const subtotalExcl = round2(items.reduce((s, i) => s + i.row_total, 0))
  const taxAmount = round2(items.reduce((s, i) => s + i.tax_amount, 0))
  const discountExcl = round2(items.reduce((s, i) => s + (i.row_total - i.row_total_with_discount), 0))
  const shipping = round2(input.shippingAmount)
  const grandTotal = round2(subtotalIncl - discount + shipping)
  const itemsQty = lines.reduce((s, l) => s + l.qty, 0)
  const byRate = new Map<number, number>()
  for (const i of items)
    if (i.tax_amount) byRate.set(i.tax_percent, round2((byRate.get(i.tax_percent) ?? 0) + i.tax_amount))
  const segments: {
    code: string
    title: string
    value: number
    area?: string
    extension_attributes?: unknown
  }[] = [
    { code: 'subtotal', title: 'Subtotal', value: subtotalIncl },
    { code: 'shipping', title: 'Shipping & Handling (Free Courier - Free Shipping)', value: shipping },
  ]
  if (applied) segments.push({ code: 'discount', title: `Discount (${applied.code})`, value: -discount })
  segments.push({
    code: 'tax',
    title: 'Tax',
    value: taxAmount,
    area: 'taxes',
    extension_attributes: {
      tax_grandtotal_details: [...byRate].map(([percent, amount], idx) => ({
        amount,
        rates: [{ percent: String(percent), title: `GST ${percent}%` }],
        group_id: idx + 1,
      })),
    },
  })
  segments.push({ code: 'grand_total', title: 'Grand Total', value: grandTotal, area: 'footer' })
  return {
    grand_total: grandTotal,
    base_grand_total: grandTotal,
    subtotal: subtotalExcl,
    base_subtotal: subtotalExcl,
    discount_amount: -discount,
    base_discount_amount: -discount,
    subtotal_with_discount: round2(subtotalExcl - discountExcl),
    base_subtotal_with_discount: round2(subtotalExcl - discountExcl),
    shipping_amount: shipping,
    base_shipping_amount: shipping,
    shipping_discount_amount: 0,
    shipping_incl_tax: shipping,
    base_shipping_incl_tax: shipping,
    tax_amount: taxAmount,
    base_tax_amount: taxAmount,
    subtotal_incl_tax: subtotalIncl,
    base_currency_code: input.currency,
    quote_currency_code: input.currency,
    items_qty: itemsQty,
    items_count: lines.length,
    ...(applied ? { coupon_code: applied.code } : {}),
    items,
    total_segments: segments,
  }
}
