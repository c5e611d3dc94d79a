/**
 * The ONE price function family (every price the shop shows or charges comes from here): special
 * price window, configurable = cheapest available variant, custom options (fixed / percent of the
 * original price), bundle, grouped, tax (VSF calculateProductTax semantics) and the view model
 * every surface uses. Catalogue prices are in the base currency (INR) and INCLUDE Indian GST: an
 * Indian shopper pays them as they are; elsewhere GST is taken out and the destination's tax put in
 * (countryPrice). The view converts to the display currency and rounds to its step, and that
 * rounded unit price is the one charged. `now` is a parameter (ms epoch or Date).
 *
 * Date window: special_from_date / special_to_date are Magento date strings ('YYYY-MM-DD' or
 * 'YYYY-MM-DD HH:MM:SS', read as UTC) or ISO strings; a bound given as a bare date or at midnight
 * covers that whole day (Magento treats both bounds as inclusive days). A missing bound is open.
 * The backend's `final_price` field is not trusted for the window: final = active special ?? price.
 */
import { FLAGS } from '../config/flags'
import { DEFAULT_COUNTRY, destinationTax, pricingCountry } from '../config/store'
import { availableVariants, isChildInStock, type VariantFields } from './availability'
import { formatMinor, toChargeMinor } from './currency'

export type Now = number | Date

export interface PriceFields {
  price?: number | null
  special_price?: number | null
  special_from_date?: string | null
  special_to_date?: string | null
}

const DAY_MS = 86_400_000

function toMs(now: Now): number {
  return typeof now === 'number' ? now : now.getTime()
}

/** Parses a Magento/ISO date string to ms epoch (UTC when no zone is given), or null when unparseable. */
export function parseCatalogDate(value: string | null | undefined): number | null {
  if (!value) return null
  const trimmed = value.trim()
  // Zone-less catalogue dates ('2027-03-15', '2027-3-5 10:00:00.000', '2027/03/15') are UTC, so the
  // server and every shopper's browser agree on whether a window is open whatever their time zone.
  const m =
    /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/.exec(
      trimmed,
    )
  if (m) {
    return Date.UTC(
      Number(m[1]),
      Number(m[2]) - 1,
      Number(m[3]),
      Number(m[4] ?? 0),
      Number(m[5] ?? 0),
      Number(m[6] ?? 0),
      Number((m[7] ?? '0').padEnd(3, '0')),
    )
  }
  // Anything else is read only when it names its zone; a form the runtime would read in local time
  // is refused rather than read differently on the server and in the browser.
  if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed)) return null
  const ms = Date.parse(trimmed)
  return Number.isNaN(ms) ? null : ms
}

/** Whether `now` lies within [from, to]; a bound at midnight (or a bare date) as `to` covers that whole day. */
export function isWithinDateWindow(
  from: string | null | undefined,
  to: string | null | undefined,
  now: Now,
): boolean {
  const t = toMs(now)
  const fromMs = parseCatalogDate(from)
  if (from && fromMs === null) return false
  if (fromMs !== null && t < fromMs) return false
  const toMsRaw = parseCatalogDate(to)
  if (to && toMsRaw === null) return false
  if (toMsRaw !== null) {
    const end = toMsRaw % DAY_MS === 0 ? toMsRaw + DAY_MS - 1 : toMsRaw
    if (t > end) return false
  }
  return true
}

/** The special price when it is > 0, below the regular price and `now` is in its window; else 0 (an inactive special price counts as 0). */
export function effectiveSpecialPrice(p: PriceFields, now: Now): number {
  const special = p.special_price ?? 0
  const regular = p.price ?? 0
  if (!(special > 0) || !(special < regular)) return 0
  return isWithinDateWindow(p.special_from_date, p.special_to_date, now) ? special : 0
}

/** True when the special price applies now (see effectiveSpecialPrice). */
export function hasSpecialPrice(p: PriceFields, now: Now): boolean {
  return effectiveSpecialPrice(p, now) > 0
}

/** The price actually charged (excl. tax, before options): the active special price, else the regular price. */
export function finalPrice(p: PriceFields, now: Now): number {
  return effectiveSpecialPrice(p, now) || (p.price ?? 0)
}

/** The original (regular) price before any special price: price, or 0 when unknown. */
export function originalPrice(p: PriceFields): number {
  return p.price ?? 0
}

/** Discount percent of `final` against `regular`, rounded to a whole number; 0 when not lower. */
export function discountPercent(regular: number, final: number): number {
  if (!(regular > 0) || !(final < regular)) return 0
  return Math.round(((regular - final) / regular) * 100)
}

// ---------------------------------------------------------------------------------------------
// Tax
// ---------------------------------------------------------------------------------------------

interface TaxRateFields {
  rate: number
  tax_country_id: string
  region_name?: string | null
  tax_region_id?: number | null
}
export interface TaxRuleFields {
  product_tax_class_ids: readonly number[]
  rates: readonly TaxRateFields[]
}

/**
 * The tax rate (percent) for a product tax class in a country (VSF calculateProductTax): the first
 * rule listing the class, its first rate for the country whose region matches (or has none); 0 otherwise.
 */
export function taxRateFor(
  taxClassId: number | null | undefined,
  taxRules: readonly TaxRuleFields[] | null | undefined,
  country: string | null | undefined,
  region = '',
): number {
  if (!taxClassId || taxClassId <= 0 || !taxRules || !country) return 0
  const rule = taxRules.find((r) => r.product_tax_class_ids.includes(taxClassId))
  if (!rule) return 0
  const rate = rule.rates.find(
    (r) =>
      r.tax_country_id === country && (r.region_name === region || !r.region_name || r.tax_region_id === 0),
  )
  return rate?.rate ?? 0
}

/** price × (1 + rate/100), the VSF priceInclTax rule. */
export function priceInclTax(price: number, ratePercent: number): number {
  return price * (1 + ratePercent / 100)
}

/** The tax part of a price excluding tax: price × rate/100. */
export function taxAmount(price: number, ratePercent: number): number {
  return price * (ratePercent / 100)
}

// ---------------------------------------------------------------------------------------------
// Configurable
// ---------------------------------------------------------------------------------------------

interface ChildPriceFields extends PriceFields, VariantFields {}

/**
 * A configurable's displayed price source: its cheapest available child by final price (in-stock
 * children preferred; all children when none is available); null when it has no children.
 */
export function cheapestVariant<T extends ChildPriceFields>(
  children: readonly T[] | null | undefined,
  now: Now,
  opts: { listOutOfStock: boolean } = { listOutOfStock: FLAGS.listOutOfStockProducts },
): T | null {
  const all = children ?? []
  if (all.length === 0) return null
  const available = availableVariants(all, opts)
  const inStock = available.filter(isChildInStock)
  const pool = inStock.length ? inStock : available.length ? available : all
  let best: T | null = null
  for (const c of pool) {
    if (!((c.price ?? 0) > 0)) continue
    if (!best || finalPrice(c, now) < finalPrice(best, now)) best = c
  }
  return best ?? pool[0] ?? null
}

// ---------------------------------------------------------------------------------------------
// Custom options
// ---------------------------------------------------------------------------------------------

interface CustomOptionValuePrice {
  option_type_id: number
  price?: number | null
  price_type?: 'fixed' | 'percent' | string | null
}
interface CustomOptionPrice {
  option_id: number
  type: string
  price?: number | null
  price_type?: 'fixed' | 'percent' | string | null
  values?: readonly CustomOptionValuePrice[] | null
}
/** Selected custom option values keyed by option_id: option_type_id(s) for choices, text for 'field'. */
export type CustomOptionSelection = Record<string | number, unknown>

interface PriceDelta {
  excl: number
  incl: number
}

function optionDelta(
  price: number | null | undefined,
  type: string | null | undefined,
  original: PriceDelta,
  rate: number,
): PriceDelta {
  const p = price ?? 0
  if (!p) return { excl: 0, incl: 0 }
  if (type === 'percent') return { excl: (p / 100) * original.excl, incl: (p / 100) * original.incl }
  return { excl: p, incl: priceInclTax(p, rate) }
}

function isEmptySelection(value: unknown): boolean {
  return value == null || value === '' || value === false || (Array.isArray(value) && value.length === 0)
}

/**
 * The price added by selected custom options: each selected value's fixed price, or its percent of
 * the ORIGINAL (regular, pre-option) price; excl and incl tax computed separately.
 */
export function customOptionsDelta(
  options: readonly CustomOptionPrice[] | null | undefined,
  selection: CustomOptionSelection,
  originalPrice: number,
  taxRate = 0,
): PriceDelta {
  const original = { excl: originalPrice, incl: priceInclTax(originalPrice, taxRate) }
  const total = { excl: 0, incl: 0 }
  for (const option of options ?? []) {
    const chosen = selection[option.option_id]
    if (isEmptySelection(chosen)) continue
    const parts: PriceDelta[] = []
    if (option.type === 'field') {
      parts.push(optionDelta(option.price, option.price_type, original, taxRate))
    } else {
      const ids = (Array.isArray(chosen) ? chosen : [chosen]).map(Number)
      for (const v of option.values ?? []) {
        if (ids.includes(v.option_type_id)) parts.push(optionDelta(v.price, v.price_type, original, taxRate))
      }
    }
    for (const d of parts) {
      total.excl += d.excl
      total.incl += d.incl
    }
  }
  return total
}

// ---------------------------------------------------------------------------------------------
// Bundle and grouped
// ---------------------------------------------------------------------------------------------

interface BundleLinkPrice {
  id: number
  qty?: number | null
  is_default?: boolean | null
  price?: number | null
  product?: (PriceFields & { name?: string }) | null
}
interface BundleOptionPrice {
  option_id: number
  product_links: readonly BundleLinkPrice[]
}
/** A bundle choice per option_id: the chosen link id and its quantity. */
export type BundleSelection = Record<string | number, { linkId: number | null; qty: number } | undefined>

function linkUnitPrice(link: BundleLinkPrice, now: Now): number {
  if (link.product && (link.product.price ?? 0) > 0) return finalPrice(link.product, now)
  return link.price ?? 0
}

/** The default (else first) link of a bundle option. */
export function defaultBundleLink<T extends BundleLinkPrice>(option: {
  product_links: readonly T[]
}): T | null {
  return option.product_links.find((l) => l.is_default) ?? option.product_links[0] ?? null
}

/**
 * Bundle price: starts at 0 and adds each option's default (else first) link × its qty; when a
 * selection is given, the sum of the selected links' price × chosen qty replaces it only if > 0.
 */
export function bundlePrice(
  options: readonly BundleOptionPrice[] | null | undefined,
  now: Now,
  selection?: BundleSelection,
): number {
  let base = 0
  for (const option of options ?? []) {
    const link = defaultBundleLink(option)
    if (link) base += linkUnitPrice(link, now) * (link.qty ?? 1)
  }
  if (!selection) return base
  let selected = 0
  for (const option of options ?? []) {
    const choice = selection[option.option_id]
    if (!choice || choice.linkId == null) continue
    const link = option.product_links.find((l) => l.id === choice.linkId)
    if (link) selected += linkUnitPrice(link, now) * (Number(choice.qty) || 0)
  }
  return selected > 0 ? selected : base
}

interface GroupedLinkPrice {
  link_type?: string | null
  linked_product_type?: string | null
  product?: PriceFields | null
}

/** Grouped price: starts at 0 and sums the associated simple products' (final) prices, qty 1 each. */
export function groupedPrice(links: readonly GroupedLinkPrice[] | null | undefined, now: Now): number {
  let total = 0
  for (const link of links ?? []) {
    if (link.link_type && link.link_type !== 'associated') continue
    if (link.product) total += finalPrice(link.product, now)
  }
  return total
}

// ---------------------------------------------------------------------------------------------
// Pricing country
// ---------------------------------------------------------------------------------------------

/** The Indian GST rate (percent) a product's catalogue price includes: its tax class's IN rate. */
export function gstRateOf(
  taxClassId: number | null | undefined,
  taxRules: readonly TaxRuleFields[] | null | undefined,
): number {
  return taxRateFor(taxClassId, taxRules, 'IN')
}

/** The tax rate (percent) a price for `country` includes: GST in India, the destination's rate elsewhere (0 for goods without GST). */
function includedTaxRate(gstRate: number, country: string | null | undefined): number {
  if (pricingCountry(country ?? DEFAULT_COUNTRY) === 'IN') return gstRate
  return gstRate > 0 ? destinationTax(country).rate : 0
}

/**
 * A catalogue price (INR, Indian GST included) as the shopper of `country` pays it, in INR: the
 * same amount in India; elsewhere GST is taken out (price / (1 + GST/100)) and the destination's
 * rate put in. Goods without GST (gift cards) cost their face value everywhere.
 */
function countryPrice(catalogueInr: number, gstRate: number, country: string | null | undefined): number {
  if (pricingCountry(country ?? DEFAULT_COUNTRY) === 'IN' || !(gstRate > 0)) return catalogueInr
  return (catalogueInr / (1 + gstRate / 100)) * (1 + includedTaxRate(gstRate, country) / 100)
}

// ---------------------------------------------------------------------------------------------
// View model
// ---------------------------------------------------------------------------------------------

interface PricedProduct extends PriceFields {
  sku?: string
  type_id?: string
  tax_class_id?: number | null
  configurable_children?: readonly ChildPriceFields[] | null
  bundle_options?: readonly BundleOptionPrice[] | null
  product_links?: readonly GroupedLinkPrice[] | null
  custom_options?: readonly CustomOptionPrice[] | null
}

export interface PriceViewOptions {
  now: Now
  /** Display and charge currency code (INR, USD, GBP). */
  currency: string
  /** Catalogue tax rules: the product's Indian GST rate comes from them (0 without them). */
  taxRules?: readonly TaxRuleFields[] | null
  /** The shopper's country (ISO code); its pricing country decides the tax the price includes. Default IN. */
  country?: string | null
  /** Out-of-stock listing setting for the cheapest-variant rule (default FLAGS). */
  listOutOfStock?: boolean
  /** Selected custom options (product page). */
  customOptions?: CustomOptionSelection
  /** Selected bundle links (product page). */
  bundleSelection?: BundleSelection
  /** Price this configurable child instead of the cheapest one (selected variant; unknown sku → cheapest). */
  variantSku?: string | null
  /** Quantity the formatted amounts are multiplied by (AMP "multiplied by qty"); default 1. */
  qty?: number
}

export interface PriceView {
  /** Regular unit price without the tax it includes, INR (incl. option deltas). */
  regular: number
  /** Active special unit price without tax, INR, or null. */
  special: number | null
  /** Final unit price without tax, INR. */
  final: number
  /** Regular unit price the shopper's country pays, INR (the catalogue price in India). */
  regularInclTax: number
  specialInclTax: number | null
  /** Final unit price the shopper's country pays, INR. */
  finalInclTax: number
  /** The tax rate (percent) the price includes for the shopper's country. */
  taxRate: number
  /** The Indian GST rate of the product's tax class. */
  gstRate: number
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

/**
 * THE function that decides a displayed (and charged) price: everything a tile, search result,
 * product page, AMP page, JSON-LD offer, cart line or order line shows about a product's price.
 */
export function priceView(product: PricedProduct, opts: PriceViewOptions): PriceView {
  const { now } = opts
  const country = opts.country || DEFAULT_COUNTRY
  const gstRate = gstRateOf(product.tax_class_id, opts.taxRules)
  const taxRate = includedTaxRate(gstRate, country)
  let source: PriceFields = product
  let variantSku: string | null = null
  if (product.type_id === 'configurable' && product.configurable_children?.length) {
    const children = product.configurable_children
    // An unknown variantSku falls back to the cheapest child rather than the parent's own (often 0) price.
    const chosen =
      (opts.variantSku ? children.find((c) => c.sku === opts.variantSku) : undefined) ??
      cheapestVariant(children, now, { listOutOfStock: opts.listOutOfStock ?? FLAGS.listOutOfStockProducts })
    if (chosen) {
      source = chosen
      variantSku = chosen.sku
    }
  }
  let regular = source.price ?? 0
  let special: number | null = effectiveSpecialPrice(source, now) || null
  if (product.type_id === 'bundle' && product.bundle_options?.length) {
    regular = bundlePrice(product.bundle_options, now, opts.bundleSelection)
    special = null
  } else if (product.type_id === 'grouped' && product.product_links?.length) {
    regular = groupedPrice(product.product_links, now)
    special = null
  }
  // Option prices are catalogue prices too (GST included); a percent is of the regular price.
  const delta = opts.customOptions
    ? customOptionsDelta(product.custom_options, opts.customOptions, regular).excl
    : 0
  const regularIncl = countryPrice(regular + delta, gstRate, country)
  const specialIncl = special != null ? countryPrice(special + delta, gstRate, country) : null
  const finalIncl = specialIncl ?? regularIncl
  const regularMinor = toChargeMinor(regularIncl, opts.currency)
  const specialMinor = specialIncl != null ? toChargeMinor(specialIncl, opts.currency) : null
  const unitMinor = specialMinor ?? regularMinor
  const qty = opts.qty ?? 1
  const show = (minor: number) => formatMinor(minor * qty, opts.currency)
  const net = (x: number) => x / (1 + taxRate / 100)
  const tax = destinationTax(country)
  return {
    regular: net(regularIncl),
    special: specialIncl != null ? net(specialIncl) : null,
    final: net(finalIncl),
    regularInclTax: regularIncl,
    specialInclTax: specialIncl,
    finalInclTax: finalIncl,
    taxRate,
    gstRate,
    discountPercent: discountPercent(regularMinor, unitMinor),
    isOnSale: specialMinor != null && specialMinor < regularMinor,
    variantSku,
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
