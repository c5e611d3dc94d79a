/**
 * THE price function (every price the shop shows or charges comes from here): the view model every
 * surface uses, from the special-price window (price-window.ts), what a product is made of
 * (price-parts.ts: cheapest variant, custom options, bundle and grouped pieces) and the tax rules
 * (tax-rules.ts).
 *
 * The money model: catalogue prices are in the base currency and include the tax of the home
 * country (India's GST). A unit of a product is one or more pieces (a bundle's links, a grouped
 * product's products); each piece is priced for the shopper's country on its own:
 * - at home, the catalogue value stands; the GST inside it is at the rate its value decides (slabs);
 * - elsewhere, that GST is taken out (value / (1 + rate/100)) and the destination's rate, as the
 *   piece's tax rule names it for the country (0 when it names none), is put in.
 * The unit price is the pieces' sum converted to the display currency and rounded to its step, and
 * that rounded unit price is the one charged.
 */
import { FLAGS } from '../config/flags'
import { DEFAULT_COUNTRY, destinationTax, HOME_COUNTRY } from '../config/store'
import { formatMinor, toChargeMinor } from './currency'
import {
  type BundleSelection,
  bundlePieces,
  type CustomOptionSelection,
  cheapestVariant,
  customOptionsDelta,
  type GroupedQuantities,
  groupedPieces,
  type Piece,
} from './price-parts'
import { discountPercent, effectiveSpecialPrice, type Now, type PriceFields } from './price-window'
import { countryRates, slabRate, type TaxRateFields, type TaxRuleFields, taxRuleOf } from './tax-rules'

/** A piece as the shopper's country pays it. */
interface PiecePrice {
  /** What one piece costs in the shopper's country (base currency, its tax included). */
  amount: number
  /** Pieces of this kind in one unit. */
  count: number
  /** The tax rate (percent) inside `amount`. */
  rate: number
  /** The country's rates for the piece (slabs), so a discounted piece's rate can be decided again. */
  rates: TaxRateFields[]
}

/** One piece's catalogue value as the shopper of `country` pays it, and the tax inside. */
function piecePrice(
  piece: Piece,
  taxRules: readonly TaxRuleFields[] | null | undefined,
  country: string,
): PiecePrice {
  const rule = taxRuleOf(piece, taxRules)
  const homeRates = countryRates(rule, HOME_COUNTRY)
  const homeRate = slabRate(homeRates, piece.value, true)
  if (country === HOME_COUNTRY)
    return { amount: piece.value, count: piece.count, rate: homeRate, rates: homeRates }
  const net = piece.value / (1 + homeRate / 100)
  const rates = countryRates(rule, country)
  const rate = slabRate(rates, net, false)
  return { amount: net * (1 + rate / 100), count: piece.count, rate, rates }
}

const unitAmount = (pieces: readonly PiecePrice[]) => pieces.reduce((s, p) => s + p.amount * p.count, 0)
const unitNet = (pieces: readonly PiecePrice[]) =>
  pieces.reduce((s, p) => s + (p.amount / (1 + p.rate / 100)) * p.count, 0)

interface ChildPriceFields extends PriceFields {
  sku: string
  tax_class_id?: number | null
  hsn_code?: string | number | null
}

export interface PricedProduct extends PriceFields {
  sku?: string
  type_id?: string
  tax_class_id?: number | null
  hsn_code?: string | number | null
  configurable_children?: readonly ChildPriceFields[] | null
  bundle_options?: Parameters<typeof bundlePieces>[0]
  product_links?: Parameters<typeof groupedPieces>[0]
  custom_options?: Parameters<typeof customOptionsDelta>[0]
}

export interface PriceViewOptions {
  now: Now
  /** Display and charge currency code (INR, USD, GBP). */
  currency: string
  /** The catalogue's tax rules (no tax anywhere without them). */
  taxRules?: readonly TaxRuleFields[] | null
  /** The shopper's country (ISO code): it decides the tax in the price. Default: the store's country. */
  country?: string | null
  /** Out-of-stock listing setting for the cheapest-variant rule (default FLAGS). */
  listOutOfStock?: boolean
  /** Selected custom options (product page). */
  customOptions?: CustomOptionSelection
  /** Selected bundle links (product page). */
  bundleSelection?: BundleSelection
  /** A grouped product's chosen pieces and quantities (product page): the price of those alone. */
  groupedQuantities?: GroupedQuantities
  /** Price this configurable child instead of the cheapest one (selected variant; unknown sku → cheapest). */
  variantSku?: string | null
  /** Quantity the formatted amounts are multiplied by (AMP "multiplied by qty"); default 1. */
  qty?: number
}

export interface PriceView {
  /** Regular unit price without the tax it includes, base currency (incl. option deltas). */
  regular: number
  /** Active special unit price without tax, base currency, or null. */
  special: number | null
  /** Final unit price without tax, base currency. */
  final: number
  /** Regular unit price the shopper's country pays, base currency (the catalogue price at home). */
  regularInclTax: number
  specialInclTax: number | null
  /** Final unit price the shopper's country pays, base currency. */
  finalInclTax: number
  /** The tax rate (percent) inside the final price (for several pieces: their combined rate). */
  taxRate: number
  /** The pieces of one unit at the final price, as the shopper's country pays them. */
  pieces: PiecePrice[]
  discountPercent: number
  isOnSale: boolean
  /** The configurable child the price came from, if any. */
  variantSku: string | null
  currency: string
  /** The charged unit price in minor units of `currency` (rounded to its display step). */
  unitMinor: number
  regularMinor: number
  specialMinor: number | null
  /** The line under a price ('Inclusive of all taxes') and its short form. */
  note: string
  shortNote: string
  /** Display strings (× qty) in the display currency, exactly the charged amounts. */
  formatted: { regular: string; special: string | null; final: string }
}

/** The catalogue pieces of one unit at the regular and (when one runs) the special price. */
function productPieces(
  product: PricedProduct,
  opts: PriceViewOptions,
): { regular: Piece[]; special: Piece[] | null; variantSku: string | null } {
  const { now } = opts
  const taxed = { tax_class_id: product.tax_class_id, hsn_code: product.hsn_code }
  if (product.type_id === 'bundle' && product.bundle_options?.length)
    return {
      regular: bundlePieces(product.bundle_options, now, opts.bundleSelection, taxed),
      special: null,
      variantSku: null,
    }
  if (product.type_id === 'grouped' && product.product_links?.length)
    return {
      regular: groupedPieces(product.product_links, now, taxed, opts.groupedQuantities),
      special: null,
      variantSku: null,
    }
  const children = product.type_id === 'configurable' ? product.configurable_children : null
  // An unknown variantSku falls back to the cheapest child rather than the parent's own (often 0) price.
  const chosen = children?.length
    ? (children.find((c) => c.sku === opts.variantSku) ??
      cheapestVariant(children, now, {
        listOutOfStock: opts.listOutOfStock ?? FLAGS.listOutOfStockProducts,
      }))
    : null
  const source: ChildPriceFields | PricedProduct = chosen ?? product
  // Option prices are catalogue prices too (tax included); a percent is of the regular price. The
  // options are part of the piece, so its value with them decides its tax slab.
  const delta = opts.customOptions
    ? customOptionsDelta(product.custom_options, opts.customOptions, source.price ?? 0)
    : 0
  const piece = (value: number): Piece[] => [
    {
      value: value + delta,
      count: 1,
      tax_class_id: source.tax_class_id ?? taxed.tax_class_id,
      hsn_code: source.hsn_code ?? taxed.hsn_code,
    },
  ]
  const special = effectiveSpecialPrice(source, now)
  return {
    regular: piece(source.price ?? 0),
    special: special ? piece(special) : null,
    variantSku: chosen?.sku ?? null,
  }
}

/**
 * THE function that decides a displayed (and charged) price: everything a tile, search result,
 * product page, AMP page, JSON-LD offer, cart line or order line shows about a product's price.
 */
export function priceView(product: PricedProduct, opts: PriceViewOptions): PriceView {
  const country = (opts.country || DEFAULT_COUNTRY).trim().toUpperCase()
  const parts = productPieces(product, opts)
  const price = (pieces: Piece[]) => pieces.map((p) => piecePrice(p, opts.taxRules, country))
  const regularPieces = price(parts.regular)
  const specialPieces = parts.special ? price(parts.special) : null
  const finalPieces = specialPieces ?? regularPieces
  const regularIncl = unitAmount(regularPieces)
  const specialIncl = specialPieces ? unitAmount(specialPieces) : null
  const finalIncl = specialIncl ?? regularIncl
  const regularMinor = toChargeMinor(regularIncl, opts.currency)
  const specialMinor = specialIncl != null ? toChargeMinor(specialIncl, opts.currency) : null
  const unitMinor = specialMinor ?? regularMinor
  const qty = opts.qty ?? 1
  const show = (minor: number) => formatMinor(minor * qty, opts.currency)
  const finalNet = unitNet(finalPieces)
  // One piece: its rate; several: their combined rate (to the hundredth of a percent).
  const taxRate = finalNet > 0 ? Math.round((finalIncl / finalNet - 1) * 10_000) / 100 : 0
  const tax = destinationTax(
    country,
    finalPieces.some((p) => p.rate > 0),
  )
  return {
    regular: unitNet(regularPieces),
    special: specialPieces ? unitNet(specialPieces) : null,
    final: finalNet,
    regularInclTax: regularIncl,
    specialInclTax: specialIncl,
    finalInclTax: finalIncl,
    taxRate,
    pieces: finalPieces,
    discountPercent: discountPercent(regularMinor, unitMinor),
    isOnSale: specialMinor != null && specialMinor < regularMinor,
    variantSku: parts.variantSku,
    currency: opts.currency,
    unitMinor,
    regularMinor,
    specialMinor,
    note: tax.note,
    shortNote: tax.shortNote,
    formatted: {
      regular: show(regularMinor),
      special: specialMinor != null ? show(specialMinor) : null,
      final: show(unitMinor),
    },
  }
}
