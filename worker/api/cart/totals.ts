/**
 * Cart totals (Magento `/totals` shape), pure, computed in integer minor units of ONE currency: each
 * line is charged unit × qty at the unit price the shared price view decided (tax for the shopper's
 * country included), lines sum to the subtotal, a coupon's discount is split over the lines — and
 * within a line over its pieces — in whole minor units (largest remainder) so the split sums to it,
 * and the tax segment states the tax the grand total includes ("Includes GST ₹X"), never added on
 * top. The tax inside each piece is at the rate its value AFTER its share of the discount decides
 * (a slab: GST on a ₹2,600 piece sold for ₹2,400 is 5 %). Shipping follows the operator's rules
 * (`shippingQuote`: free above a threshold judged on this subtotal, else the destination zone's
 * rate) and cash on delivery adds its fee; both are charges for delivering the goods, so at home
 * the GST inside them is at the highest rate of the goods, as on the invoice. subtotal − discount +
 * shipping + COD fee = grand total, exactly. Magento's `shipping_amount` is shipping and handling
 * (the fee included); the segments show the two apart. Magento's decimal fields are the minor
 * units / 100; `base_*` fields are those amounts converted into the base currency.
 */
import { CASH_ON_DELIVERY_CODE, destinationSentence } from '@shared/config/checkout'
import { codFeeMinor, shippingQuote } from '@shared/config/shipping'
import { baseCurrency, currencyConfig, destinationTax, HOME_COUNTRY } from '@shared/config/store'
import { formatMinor, toBaseCurrency, toChargeMinor } from '@shared/domain/currency'
import { allocateMinor, includedTaxMinor } from '@shared/domain/money'
import type { PriceView } from '@shared/domain/price'
import { slabRate, type TaxRateFields } from '@shared/domain/tax-rules'
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
  /** The pieces of one unit: their shares of unitMinor (summing to it), how many, their tax rates (slabs). */
  pieces: LinePiece[]
  /** What the shopper configured, [{label, value}] (variant choices, custom options, bundle and grouped pieces). */
  options: { label: string; value: string }[]
  /** The line's picture and product page, as the product page adds them. */
  image?: string | null
  url_path?: string
}

/** One kind of piece in a unit of a line, as charged. */
interface LinePiece {
  /** Its share of the unit price (all pieces of this kind together), minor units. */
  minor: number
  /** Pieces of this kind in one unit. */
  count: number
  /** The destination's rates for it, lowest slab first. */
  rates: TaxRateFields[]
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
  /**
   * Where the order ships: whether anything ships at all, and the PIN code (at home the zone
   * follows it). The shipping country is `country`.
   */
  shipping: { ships: boolean; postcode?: string | null }
  /** The payment method chosen, when known (cash on delivery adds its fee). */
  paymentMethod?: string | null
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

/** The pieces of a priced unit as charged: the unit price split over them by their amounts, exactly. */
export function linePieces(view: Pick<PriceView, 'unitMinor' | 'pieces'>): LinePiece[] {
  const shares = allocateMinor(
    view.unitMinor,
    view.pieces.map((p) => p.amount * p.count),
  )
  return view.pieces.map((p, i) => ({ minor: shares[i] as number, count: p.count, rates: p.rates }))
}

/** The tax inside a line's row after `discountMinor` of it: piece by piece, each at the rate its value decides. */
export function lineTax(
  line: Pick<PricedLine, 'pieces'>,
  discountMinor: number,
  qty: number,
  currency: string,
) {
  const rows = line.pieces.map((p) => p.minor * qty)
  const discounts = allocateMinor(discountMinor, rows)
  const byRate = new Map<number, number>()
  let total = 0
  line.pieces.forEach((p, j) => {
    const paid = (rows[j] as number) - (discounts[j] as number)
    const pieces = p.count * qty
    // The value of ONE piece, in the base currency the slab bounds are written in.
    const value = pieces > 0 ? toBaseCurrency(paid / pieces / 100, currency) : 0
    const rate = slabRate(p.rates, value, true)
    const tax = includedTaxMinor(paid, rate)
    total += tax
    if (tax) byRate.set(rate, (byRate.get(rate) ?? 0) + tax)
  })
  return { total, byRate }
}

/** The percent a line's tax is of its amount without tax (the one rate, or the pieces' combined rate). */
export function linePercent(
  byRate: ReadonlyMap<number, number>,
  paidMinor: number,
  taxMinor: number,
): number {
  if (byRate.size <= 1) return [...byRate.keys()][0] ?? 0
  const net = paidMinor - taxMinor
  return net > 0 ? Math.round((taxMinor / net) * 10_000) / 100 : 0
}

/** Minor units of `currency` as minor units of the base currency. */
const baseMinor = (minor: number, currency: string) => Math.round(toBaseCurrency(minor, currency))

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
  const byRate = new Map<number, number>()
  const items = lines.map((l, i) => {
    const rowMinor = rows[i] as number
    const share = shares[i] as number
    const rowTax = lineTax(l, 0, l.qty, currency).total
    const paid = lineTax(l, share, l.qty, currency)
    const taxMinor = paid.total
    const unitTax = lineTax(l, 0, 1, currency).total
    const shareTax = rowTax - taxMinor
    for (const [rate, amount] of paid.byRate) byRate.set(rate, (byRate.get(rate) ?? 0) + amount)
    const base = (minor: number) => major(baseMinor(minor, currency))
    return {
      item_id: l.item_id,
      sku: l.sku,
      price: major(l.unitMinor - unitTax),
      base_price: base(l.unitMinor - unitTax),
      qty: l.qty,
      row_total: major(rowMinor - rowTax),
      base_row_total: base(rowMinor - rowTax),
      row_total_with_discount: major(rowMinor - rowTax - (share - shareTax)),
      tax_amount: major(taxMinor),
      base_tax_amount: base(taxMinor),
      tax_percent: linePercent(paid.byRate, rowMinor - share, taxMinor),
      discount_amount: major(share),
      base_discount_amount: base(share),
      discount_percent: applied?.kind === 'percent' ? applied.amount : 0,
      price_incl_tax: major(l.unitMinor),
      base_price_incl_tax: base(l.unitMinor),
      row_total_incl_tax: major(rowMinor),
      base_row_total_incl_tax: base(rowMinor),
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
  const itemsTaxMinor = items.reduce((s, i) => s + i.extension_attributes.tax_minor, 0)
  const rowTaxMinor = lines.reduce((s, l) => s + lineTax(l, 0, l.qty, currency).total, 0)
  const subtotalExclMinor = subtotalMinor - rowTaxMinor
  const discountExclMinor = items.reduce(
    (s, i) => s + Math.round((i.row_total - i.row_total_with_discount) * 100),
    0,
  )
  const country = input.country.trim().toUpperCase()
  const quote = shippingQuote({
    ships: input.shipping.ships,
    country,
    postcode: input.shipping.postcode,
    subtotalMinor,
    currency,
  })
  const shippingMinor = quote.amountMinor
  const codFee =
    input.paymentMethod === CASH_ON_DELIVERY_CODE && input.shipping.ships ? codFeeMinor(currency) : 0
  // Shipping and the COD fee carry the GST of the goods they deliver (the highest rate among them), at home.
  const deliveryRate = country === HOME_COUNTRY ? Math.max(0, ...byRate.keys()) : 0
  const deliveryTax = includedTaxMinor(shippingMinor + codFee, deliveryRate)
  if (deliveryTax) byRate.set(deliveryRate, (byRate.get(deliveryRate) ?? 0) + deliveryTax)
  const taxMinor = itemsTaxMinor + deliveryTax
  const grandMinor = subtotalMinor - discountMinor + shippingMinor + codFee
  const itemsQty = lines.reduce((s, l) => s + l.qty, 0)
  const taxed = country === HOME_COUNTRY || byRate.size > 0
  const tax = destinationTax(country, taxed)
  const segments: {
    code: string
    title: string
    value: number
    area?: string
    extension_attributes?: unknown
  }[] = [
    { code: 'subtotal', title: 'Subtotal', value: major(subtotalMinor) },
    { code: 'shipping', title: `Shipping (${quote.title})`, value: major(shippingMinor) },
  ]
  if (codFee) segments.push({ code: 'cod_fee', title: 'Cash on delivery fee', value: major(codFee) })
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
  const base = (minor: number) => major(baseMinor(minor, currency))
  const handlingMinor = shippingMinor + codFee
  return {
    grand_total: major(grandMinor),
    base_grand_total: base(grandMinor),
    subtotal: major(subtotalExclMinor),
    base_subtotal: base(subtotalExclMinor),
    discount_amount: -major(discountMinor),
    base_discount_amount: -base(discountMinor),
    subtotal_with_discount: major(subtotalExclMinor - discountExclMinor),
    base_subtotal_with_discount: base(subtotalExclMinor - discountExclMinor),
    shipping_amount: major(handlingMinor),
    base_shipping_amount: base(handlingMinor),
    shipping_discount_amount: 0,
    shipping_incl_tax: major(handlingMinor),
    base_shipping_incl_tax: base(handlingMinor),
    tax_amount: major(taxMinor),
    base_tax_amount: base(taxMinor),
    subtotal_incl_tax: major(subtotalMinor),
    base_currency_code: baseCurrency(),
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
      shipping_title: quote.title,
      cod_fee_minor: codFee,
      tax_minor: taxMinor,
      grand_total_minor: grandMinor,
      tax_label: tax.label,
      price_note: tax.note,
      country,
      country_sentence: destinationSentence(country, taxed),
    },
  }
}
