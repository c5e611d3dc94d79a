/**
 * Category listing filters, sort and layout:
 * toggling, 'min-max' price range ids, filter state ⇄ URL query (shareable; the canonical URL has
 * no filters), the filter panel from search aggregations, sort options, listing columns and the
 * search paging defaults. Pure and small: islands import it.
 */
import {
  DEFAULT_FILTERS,
  DEFAULT_SORT,
  LISTING_COLUMNS,
  MAX_FILTER_VALUES,
  MAX_PRICE_BANDS,
  PAGE_SIZE,
  PRICE_RANGES,
  type PriceRange,
  SEARCH_DEFAULT_SIZE,
  SORT_OPTIONS,
  SORT_PARAM,
  type SortId,
} from '../config/catalog'
import { FLAGS } from '../config/flags'
import { currencyConfig } from '../config/store'
import { formatMinor } from './currency'

interface FilterValue {
  /** Option id as a string ('49'), or a 'min-max' price range id ('0-50', '150-'). */
  id: string
  label: string
}
interface FilterOption extends FilterValue {
  count: number
}
/** "Chosen filters keyed by attribute, each with an id list and a label." */
export type ChosenFilters = Record<string, FilterValue[]>
/** Available filters per attribute, each with options (id, label, count). */
type AvailableFilters = Record<string, FilterOption[]>

export const PRICE_ATTRIBUTE = 'price'

/**
 * Toggles a filter value: multi-select (add/remove the id) when multi-select is configured and the
 * attribute is not price; otherwise selects that single value, or deselects it when already chosen.
 */
export function toggleFilter(
  chosen: ChosenFilters,
  attribute: string,
  value: FilterValue,
  multiSelect: boolean = FLAGS.multiSelectFilters,
): ChosenFilters {
  const current = chosen[attribute] ?? []
  const present = current.some((v) => v.id === value.id)
  const next: ChosenFilters = { ...chosen }
  let values: FilterValue[]
  if (multiSelect && attribute !== PRICE_ATTRIBUTE) {
    values = present ? current.filter((v) => v.id !== value.id) : [...current, value]
  } else {
    values = present ? [] : [value]
  }
  if (values.length) next[attribute] = values
  else delete next[attribute]
  return next
}

/** Is this value chosen? */
export function isFilterChosen(chosen: ChosenFilters, attribute: string, id: string): boolean {
  return (chosen[attribute] ?? []).some((v) => v.id === id)
}

/** Number of chosen values across attributes. */
export function countChosenFilters(chosen: ChosenFilters): number {
  return Object.values(chosen).reduce((n, values) => n + values.length, 0)
}

/** The 'min-max' id of a price range: {0,50} → '0-50'; open-ended {150} → '150-'. */
export function priceRangeId(range: PriceRange): string {
  return `${range.from}-${range.to ?? ''}`
}

/** Parses a price range id ('0-50', '150-', '150+'), or null when it is not one. */
export function parsePriceRangeId(id: string | null | undefined): PriceRange | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?)?|\+)\s*$/.exec(id ?? '')
  if (!m) return null
  const from = Number(m[1])
  if (m[2] === undefined) return { from }
  const to = Number(m[2])
  return to > from ? { from, to } : null
}

/**
 * Display label of a price range [from, to) of shown prices (major units of the display currency,
 * the price a tile shows): its lowest shown price and its highest, one display step (₹1, $1, or a
 * cent in a currency shown to the cent) below `to` — '₹1,000 - ₹4,999', '$10.00 - $19.00',
 * '₹1,00,000+'. A product is in the band exactly when its tile price is between the two.
 */
export function priceRangeLabel(range: PriceRange, currencyCode: string): string {
  const fromMinor = Math.round(range.from * 100)
  const from = formatMinor(fromMinor, currencyCode)
  if (range.to === undefined) return `${from}+`
  const step = currencyConfig(currencyCode).stepMinor
  return `${from} - ${formatMinor(Math.max(fromMinor, Math.round(range.to * 100) - step), currencyCode)}`
}

/** The configured price ranges as filter options (counts filled from aggregations elsewhere). */
export function priceRangeOptions(
  currencyCode: string,
  ranges: readonly PriceRange[] = PRICE_RANGES,
): FilterOption[] {
  return ranges.map((r) => ({ id: priceRangeId(r), label: priceRangeLabel(r, currencyCode), count: 0 }))
}

interface CountedRange extends PriceRange {
  count: number
}

/**
 * The price filter's bands from the counts of the fine buckets (PRICE_RANGES, in their order):
 * from the first bucket with products to the last, cut on bucket edges into at most `most` bands
 * of about equal counts (a band closes once the products so far reach its share of the total).
 * Each band is [from, to) of the shown price, like the buckets, so the bands' counts are exact
 * and a product at an edge is in the band that starts there. No products: no bands.
 */
export function priceBands(buckets: readonly CountedRange[], most: number = MAX_PRICE_BANDS): CountedRange[] {
  const first = buckets.findIndex((b) => b.count > 0)
  if (first < 0 || most < 1) return []
  let last = buckets.length - 1
  while (last > first && (buckets[last] as CountedRange).count === 0) last--
  const total = buckets.slice(first, last + 1).reduce((n, b) => n + b.count, 0)
  const bands: CountedRange[] = []
  let open: CountedRange | null = null
  let seen = 0
  for (let i = first; i <= last; i++) {
    const b = buckets[i] as CountedRange
    open ??= { from: b.from, count: 0 }
    open.count += b.count
    seen += b.count
    const share = (total * (bands.length + 1)) / most
    if (i === last || (seen >= share && bands.length < most - 1)) {
      bands.push(b.to === undefined ? { from: open.from, count: open.count } : { ...open, to: b.to })
      open = null
    }
  }
  return bands
}

/** Is the range one of the fine buckets? */
function isPriceBucket(range: { from?: number; to?: number }): boolean {
  return PRICE_RANGES.some((r) => r.from === range.from && r.to === range.to)
}

export interface ListingState {
  chosen: ChosenFilters
  sort: SortId
}

/** Serialises filters and sort to a URL query: attributes in a stable order, ids comma-joined, default sort omitted. */
export function listingStateToQuery(state: ListingState): string {
  const params = new URLSearchParams()
  for (const attribute of Object.keys(state.chosen).sort()) {
    const ids = (state.chosen[attribute] ?? []).map((v) => v.id)
    if (ids.length) params.set(attribute, ids.join(','))
  }
  if (state.sort !== DEFAULT_SORT) params.set(SORT_PARAM, state.sort)
  const query = params.toString()
  return query ? `?${query.replace(/%2C/g, ',')}` : ''
}

/** Is `id` a valid sort id? */
function isSortId(id: unknown): id is SortId {
  return SORT_OPTIONS.some((s) => s.id === id)
}

/**
 * Reads filters and sort from a URL query (string or URLSearchParams); only `attributes` are read,
 * price ids must parse, labels come from `available` when given (else the id).
 */
export function listingStateFromQuery(
  query: string | URLSearchParams,
  available: AvailableFilters = {},
  attributes: readonly string[] = DEFAULT_FILTERS,
): ListingState {
  const params = typeof query === 'string' ? new URLSearchParams(query.replace(/^\?/, '')) : query
  const chosen: ChosenFilters = {}
  for (const attribute of attributes) {
    const raw = params.get(attribute)
    if (!raw) continue
    let ids = raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
    if (attribute === PRICE_ATTRIBUTE) {
      ids = ids.filter((id) => parsePriceRangeId(id)).slice(0, 1)
    } else {
      ids = ids.filter((id) => /^[\w.-]+$/.test(id))
      if (!FLAGS.multiSelectFilters) ids = ids.slice(0, 1)
    }
    const unique = [...new Set(ids)].slice(0, MAX_FILTER_VALUES)
    if (!unique.length) continue
    chosen[attribute] = unique.map((id) => ({
      id,
      label: available[attribute]?.find((o) => o.id === id)?.label ?? id,
    }))
  }
  const sort = params.get(SORT_PARAM)
  return { chosen, sort: isSortId(sort) ? sort : DEFAULT_SORT }
}

/** The sort option for an id (field, order, label); unknown ids give the default (Latest = created_at desc). */
export function sortOption(id: string | null | undefined) {
  return (
    SORT_OPTIONS.find((s) => s.id === id) ??
    (SORT_OPTIONS.find((s) => s.id === DEFAULT_SORT) as (typeof SORT_OPTIONS)[number])
  )
}

/** The ES URI sort string for a sort id: 'created_at:desc', 'final_price:asc'. */
export function sortParam(id: string | null | undefined): string {
  const s = sortOption(id)
  return `${s.field}:${s.order}`
}

interface AggregationBucket {
  key: string | number
  doc_count: number
  from?: number
  to?: number
}
export type Aggregations = Record<string, { buckets?: readonly AggregationBucket[] } | undefined>

interface AttributeOptionsLike {
  attribute_code: string
  options?: readonly { value: string | number; label: string }[] | null
}

/**
 * The filter panel from search aggregations: per attribute, agg_terms_<attr> and
 * agg_terms_<attr>_options buckets merged (max count per id), labelled from the attribute options
 * (unlabelled ids dropped; `labelFor` may name e.g. category ids), in attribute option order;
 * price from agg_range_price with 'min-max' ids. Attributes with no options are omitted.
 */
export function filtersFromAggregations(
  aggregations: Aggregations | null | undefined,
  attributes: readonly AttributeOptionsLike[],
  currencyCode: string,
  filters: readonly string[] = DEFAULT_FILTERS,
  labelFor?: (attribute: string, id: string) => string | null | undefined,
): AvailableFilters {
  const result: AvailableFilters = {}
  const aggs = aggregations ?? {}
  for (const attribute of filters) {
    if (attribute === PRICE_ATTRIBUTE) {
      const buckets = (aggs.agg_range_price?.buckets ?? [])
        .filter((b) => typeof b.from === 'number')
        .map((b) => ({
          from: b.from as number,
          ...(b.to === undefined ? {} : { to: b.to }),
          count: b.doc_count,
        }))
      // A chosen band that is not a bucket is counted as its own range: it is the one band then.
      const applied = buckets.find((b) => !isPriceBucket(b) && b.count > 0)
      const bands = applied ? [applied] : priceBands(buckets.filter(isPriceBucket))
      const options = bands.map((band) => {
        const range: PriceRange =
          band.to === undefined ? { from: band.from } : { from: band.from, to: band.to }
        return { id: priceRangeId(range), label: priceRangeLabel(range, currencyCode), count: band.count }
      })
      if (options.length) result[attribute] = options
      continue
    }
    const counts = new Map<string, number>()
    for (const name of [`agg_terms_${attribute}`, `agg_terms_${attribute}_options`]) {
      for (const b of aggs[name]?.buckets ?? []) {
        const id = String(b.key)
        counts.set(id, Math.max(counts.get(id) ?? 0, b.doc_count))
      }
    }
    const meta = attributes.find((a) => a.attribute_code === attribute)
    const ordered: FilterOption[] = []
    for (const opt of meta?.options ?? []) {
      const id = String(opt.value)
      const count = counts.get(id)
      if (count && count > 0) {
        ordered.push({ id, label: opt.label, count })
        counts.delete(id)
      }
    }
    for (const [id, count] of counts) {
      const label = labelFor?.(attribute, id)
      if (label && count > 0) ordered.push({ id, label, count })
    }
    if (ordered.length) result[attribute] = ordered
  }
  return result
}

/** Listing layout: 2 per row on small screens, else the configured columns with width 12 / columns. */
export function listingColumns(
  isSmallScreen: boolean,
  configuredColumns: number = LISTING_COLUMNS.configured,
): { perRow: number; width: number } {
  if (isSmallScreen)
    return { perRow: LISTING_COLUMNS.small, width: LISTING_COLUMNS.grid / LISTING_COLUMNS.small }
  const columns = configuredColumns > 0 ? configuredColumns : LISTING_COLUMNS.configured
  return { perRow: columns, width: LISTING_COLUMNS.grid / columns }
}

/** "Search size defaults to 24 if not above 0, and start to 0 if negative." */
export function normalizeSearchPaging(size: unknown, from: unknown): { size: number; from: number } {
  const s = Number(size)
  const f = Number(from)
  return {
    size: Number.isFinite(s) && s > 0 ? Math.floor(s) : SEARCH_DEFAULT_SIZE,
    from: Number.isFinite(f) && f >= 0 ? Math.floor(f) : 0,
  }
}

/** The `from` offset of a listing page (0-based page; pagination resets to 0 on filter change). */
export function pageOffset(page: number, perPage: number = PAGE_SIZE): number {
  return Math.max(0, Math.floor(page)) * perPage
}

/** The canonical URL of a listing: the path without filters, sort or hash ('/women?color=49' → '/women'). */
export function canonicalListingPath(url: string): string {
  const cut = url.search(/[?#]/)
  return cut === -1 ? url : url.slice(0, cut)
}
