/**
 * Cart totals (Magento `/totals` shape), pure, computed in integer minor units of ONE currency: each
 * line is charged unit × qty at the unit price the shared price view decided (tax for the shopper's
 * country included), lines sum to the subtotal, a coupon's discount is split over the lines in whole
 * minor units (largest remainder) so the split sums to it, and the tax segment states the tax the
 * grand total includes ("Includes GST ₹X"), never added on top. subtotal − discount + shipping =
 * grand total, exactly. Magento's decimal fields are the minor units / 100.
 */
import { baseCurrency, currencyConfig, destinationTax } from '@shared/config/store'
import { formatMinor, toChargeMinor } from '@shared/domain/currency'
import { allocateMinor, includedTaxMinor } from '@shared/domain/money'
import { PAGE_TEXT } from '@shared/i18n/messages'

export interface PricedLine {
  item_id: number
  sku: string
  name: string
  qty: number
  product_type: string
  product_option?: unknown
  /** The charged unit price, minor units of the totals' currency, tax for the country included. */
  unitMinor: number
  /** The tax rate (percent) the unit price includes. */
  taxRate: number
  /** What the shopper configured, [{label, value}] (variant choices, custom options, bundle and grouped pieces). */
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
  /** Shipping in INR (converted like a price). */
  shippingAmount: number
  currency: string
  /** Tax country; totals refuse to compute without one (the tax rate depends on it). */
  country: string | null | undefined
  now: number
}

const major = (minor: number) => minor / 100

/** Thrown when the totals cannot be computed (no tax country). */
export class TotalsError extends Error {}

/** A base-currency amount (coupon thresholds and fixed amounts) in exact minor units of `currency`. */
function baseToMinor(amount: number, currency: string): number {
  return Math.round(amount * currencyConfig(currency).rate * 100)
}

/** Why a coupon does not apply to a subtotal (minor units of `currency`) at `now`, or null when it applies. */
export function couponProblem(
  rule: CouponRule | null,
  code: string,
  subtotalMinor: number,
  now: number,
  currency: string = baseCurrency(),
): string | null {
  if (!rule?.is_active) return `The coupon code "${code}" is not valid.`
  if (rule.starts_at && Date.parse(rule.starts_at) > now) return `The coupon code "${code}" is not valid yet.`
  if (rule.expires_at && Date.parse(rule.expires_at) < now) return `The coupon code "${code}" has expired.`
  const min = baseToMinor(rule.min_subtotal, currency)
  if (subtotalMinor < min) {
    return `The coupon code "${code}" needs a cart subtotal of at least ${formatMinor(min, currency)}.`
  }
  return null
}

/** The discount (minor units, positive, at most the subtotal) a valid coupon gives. */
function couponDiscountMinor(rule: CouponRule, subtotalMinor: number, currency: string): number {
  const raw =
    rule.kind === 'percent'
      ? Math.round((subtotalMinor * rule.amount) / 100)
      : toChargeMinor(rule.amount, currency)
  return Math.min(Math.max(raw, 0), subtotalMinor)
}

/** Magento-shaped totals with items and total_segments, plus the exact minor units. */
export function computeTotals(input: TotalsInput) {
  if (!input.country) throw new TotalsError(PAGE_TEXT.totalsCountryMissing)
  const { lines, now, currency } = input
  const rows = lines.map((l) => l.unitMinor * l.qty)
  const subtotalMinor = rows.reduce((s, r) => s + r, 0)
  const applied =
    input.coupon && !couponProblem(input.coupon, input.coupon.code, subtotalMinor, now, currency)
      ? input.coupon
      : null
  const discountMinor = applied ? couponDiscountMinor(applied, subtotalMinor, currency) : 0
  const shares = allocateMinor(discountMinor, rows)
  const items = lines.map((l, i) => {
    const rowMinor = rows[i] as number
    const share = shares[i] as number
    const rowTax = includedTaxMinor(rowMinor, l.taxRate)
    const taxMinor = includedTaxMinor(rowMinor - share, l.taxRate)
    const unitTax = includedTaxMinor(l.unitMinor, l.taxRate)
    const shareTax = rowTax - taxMinor
    return {
      item_id: l.item_id,
      sku: l.sku,
      price: major(l.unitMinor - unitTax),
      base_price: major(l.unitMinor - unitTax),
      qty: l.qty,
      row_total: major(rowMinor - rowTax),
      base_row_total: major(rowMinor - rowTax),
      row_total_with_discount: major(rowMinor - rowTax - (share - shareTax)),
      tax_amount: major(taxMinor),
      base_tax_amount: major(taxMinor),
      tax_percent: l.taxRate,
      discount_amount: major(share),
      base_discount_amount: major(share),
      discount_percent: applied?.kind === 'percent' ? applied.amount : 0,
      price_incl_tax: major(l.unitMinor),
      base_price_incl_tax: major(l.unitMinor),
      row_total_incl_tax: major(rowMinor),
      base_row_total_incl_tax: major(rowMinor),
      options: JSON.stringify(l.options),
      weee_tax_applied_amount: null,
      weee_tax_applied: null,
      name: l.name,
      product_type: l.product_type,
      ...(l.product_option ? { product_option: l.product_option } : {}),
      extension_attributes: {
        row_total_minor: rowMinor,
        discount_minor: share,
        tax_minor: taxMinor,
        options: l.options,
      },
    }
  })
  const taxMinor = items.reduce((s, i) => s + i.extension_attributes.tax_minor, 0)
  const rowTaxMinor = lines.reduce((s, l, i) => s + includedTaxMinor(rows[i] as number, l.taxRate), 0)
  const subtotalExclMinor = subtotalMinor - rowTaxMinor
  const discountExclMinor = items.reduce(
    (s, i) => s + Math.round((i.row_total - i.row_total_with_discount) * 100),
    0,
  )
  const shippingMinor = toChargeMinor(input.shippingAmount, currency)
  const grandMinor = subtotalMinor - discountMinor + shippingMinor
  const itemsQty = lines.reduce((s, l) => s + l.qty, 0)
  const tax = destinationTax(input.country)
  const byRate = new Map<number, number>()
  for (const i of items)
    if (i.extension_attributes.tax_minor)
      byRate.set(i.tax_percent, (byRate.get(i.tax_percent) ?? 0) + i.extension_attributes.tax_minor)
  const segments: {
    code: string
    title: string
    value: number
    area?: string
    extension_attributes?: unknown
  }[] = [
    { code: 'subtotal', title: 'Subtotal', value: major(subtotalMinor) },
    {
      code: 'shipping',
      title: 'Shipping & Handling (Free Courier - Free Shipping)',
      value: major(shippingMinor),
    },
  ]
  if (applied)
    segments.push({ code: 'discount', title: `Discount (${applied.code})`, value: -major(discountMinor) })
  segments.push({
    code: 'tax',
    // The tax is contained in the prices: the segment says so and is never added to the total.
    title: `Includes ${tax.label}`,
    value: major(taxMinor),
    area: 'taxes',
    extension_attributes: {
      included: true,
      tax_grandtotal_details: [...byRate].map(([percent, amount], idx) => ({
        amount: major(amount),
        rates: [{ percent: String(percent), title: `${tax.label} ${percent}%` }],
        group_id: idx + 1,
      })),
    },
  })
  segments.push({ code: 'grand_total', title: 'Grand Total', value: major(grandMinor), area: 'footer' })
  return {
    grand_total: major(grandMinor),
    base_grand_total: major(grandMinor),
    subtotal: major(subtotalExclMinor),
    base_subtotal: major(subtotalExclMinor),
    discount_amount: -major(discountMinor),
    base_discount_amount: -major(discountMinor),
    subtotal_with_discount: major(subtotalExclMinor - discountExclMinor),
    base_subtotal_with_discount: major(subtotalExclMinor - discountExclMinor),
    shipping_amount: major(shippingMinor),
    base_shipping_amount: major(shippingMinor),
    shipping_discount_amount: 0,
    shipping_incl_tax: major(shippingMinor),
    base_shipping_incl_tax: major(shippingMinor),
    tax_amount: major(taxMinor),
    base_tax_amount: major(taxMinor),
    subtotal_incl_tax: major(subtotalMinor),
    base_currency_code: currency,
    quote_currency_code: currency,
    items_qty: itemsQty,
    items_count: lines.length,
    ...(applied ? { coupon_code: applied.code } : {}),
    items,
    total_segments: segments,
    extension_attributes: {
      currency,
      subtotal_minor: subtotalMinor,
      discount_minor: discountMinor,
      shipping_minor: shippingMinor,
      tax_minor: taxMinor,
      grand_total_minor: grandMinor,
      tax_label: tax.label,
      price_note: tax.note,
      country_sentence: tax.sentence,
    },
  }
}
