/**
 * What a product's price is made of before tax and currency: a configurable's cheapest available
 * variant, custom options (fixed, or a percent of the original price), a bundle's chosen links and a
 * grouped product's pieces. Amounts are catalogue amounts (base currency).
 */
import { FLAGS } from '../config/flags'
import { availableVariants, isChildInStock, type VariantFields } from './availability'
import { finalPrice, type Now, type PriceFields } from './price-window'
import type { TaxedFields } from './tax-rules'

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
  // The best price so far is kept, not worked out again for every variant compared with it.
  let bestPrice = 0
  for (const c of pool) {
    if (!((c.price ?? 0) > 0)) continue
    const price = finalPrice(c, now)
    if (!best || price < bestPrice) {
      best = c
      bestPrice = price
    }
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

/** What one option value adds: its fixed price, or its percent of the original (regular) price. */
function optionDelta(price: number | null | undefined, type: string | null | undefined, original: number) {
  const p = price ?? 0
  return type === 'percent' ? (p / 100) * original : p
}

function isEmptySelection(value: unknown): boolean {
  return value == null || value === '' || value === false || (Array.isArray(value) && value.length === 0)
}

/**
 * The price added by selected custom options: each selected value's fixed price, or its percent of
 * the ORIGINAL (regular, pre-option) price. Option prices are catalogue prices like the product's
 * (the home country's tax inside), so the sum is priced for a country together with the product.
 */
export function customOptionsDelta(
  options: readonly CustomOptionPrice[] | null | undefined,
  selection: CustomOptionSelection,
  originalPrice: number,
): number {
  let total = 0
  for (const option of options ?? []) {
    const chosen = selection[option.option_id]
    if (isEmptySelection(chosen)) continue
    if (option.type === 'field') {
      total += optionDelta(option.price, option.price_type, originalPrice)
      continue
    }
    const ids = (Array.isArray(chosen) ? chosen : [chosen]).map(Number)
    for (const v of option.values ?? [])
      if (ids.includes(v.option_type_id)) total += optionDelta(v.price, v.price_type, originalPrice)
  }
  return total
}

// ---------------------------------------------------------------------------------------------
// Bundle and grouped
// ---------------------------------------------------------------------------------------------

/** One kind of piece a unit of a product consists of: its catalogue value, how many, what taxes it. */
export interface Piece extends TaxedFields {
  /** Catalogue value of ONE piece (base currency). */
  value: number
  /** Pieces of this kind in one unit of the line (a bundle link's quantity). */
  count: number
}

interface BundleLinkPrice {
  id: number
  qty?: number | null
  is_default?: boolean | null
  price?: number | null
  product?: (PriceFields & TaxedFields & { name?: string }) | null
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

/** A linked product's tax fields, else the composite's own (a link document may not carry them). */
function taxedAs(own: TaxedFields | null | undefined, parent: TaxedFields): TaxedFields {
  return {
    tax_class_id: own?.tax_class_id ?? parent.tax_class_id ?? null,
    hsn_code: own?.hsn_code ?? parent.hsn_code ?? null,
  }
}

const sumPieces = (pieces: readonly Piece[]) => pieces.reduce((s, p) => s + p.value * p.count, 0)

/**
 * A bundle's pieces: each option's default (else first) link × its qty; when a selection is given,
 * the selected links × their chosen qty replace them only if they are worth more than 0.
 */
export function bundlePieces(
  options: readonly BundleOptionPrice[] | null | undefined,
  now: Now,
  selection?: BundleSelection,
  parent: TaxedFields = {},
): Piece[] {
  const piece = (link: BundleLinkPrice, count: number): Piece => ({
    value: linkUnitPrice(link, now),
    count,
    ...taxedAs(link.product, parent),
  })
  const base: Piece[] = []
  for (const option of options ?? []) {
    const link = defaultBundleLink(option)
    if (link) base.push(piece(link, link.qty ?? 1))
  }
  if (!selection) return base
  const selected: Piece[] = []
  for (const option of options ?? []) {
    const choice = selection[option.option_id]
    if (!choice || choice.linkId == null) continue
    const link = option.product_links.find((l) => l.id === choice.linkId)
    if (link) selected.push(piece(link, Number(choice.qty) || 0))
  }
  return sumPieces(selected) > 0 ? selected : base
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
  return sumPieces(bundlePieces(options, now, selection))
}

interface GroupedLinkPrice {
  link_type?: string | null
  linked_product_sku?: string
  linked_product_type?: string | null
  product?: (PriceFields & TaxedFields) | null
}

/** How many of each piece of a grouped product the shopper chose, by the piece's sku. */
export type GroupedQuantities = Readonly<Record<string, number>>

/**
 * A grouped product's pieces: its associated simple products at their (final) prices, one of each;
 * with the shopper's quantities, each piece that many times (a piece not named, or at 0, is left
 * out), so the price is what the chosen pieces cost together.
 */
export function groupedPieces(
  links: readonly GroupedLinkPrice[] | null | undefined,
  now: Now,
  parent: TaxedFields = {},
  quantities?: GroupedQuantities,
): Piece[] {
  const pieces: Piece[] = []
  for (const link of links ?? []) {
    if (link.link_type && link.link_type !== 'associated') continue
    const count = quantities ? (quantities[link.linked_product_sku ?? ''] ?? 0) : 1
    if (link.product && count > 0)
      pieces.push({ value: finalPrice(link.product, now), count, ...taxedAs(link.product, parent) })
  }
  return pieces
}

/** Grouped price: starts at 0 and sums the associated simple products' (final) prices, qty 1 each. */
export function groupedPrice(links: readonly GroupedLinkPrice[] | null | undefined, now: Now): number {
  return sumPieces(groupedPieces(links, now))
}
