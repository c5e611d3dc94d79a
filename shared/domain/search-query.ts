/**
 * The one builder of catalogue search requests (the Elasticsearch DSL vue-storefront-api takes on
 * GET /api/catalog/{index}/product/_search). Every side builds its queries here: the listing and
 * search islands and both Commerce adapters (the upstream one sends the body over HTTP, the embedded
 * one hands it to the search engine).
 *
 * The body follows storefront-query-builder's shape: `query.bool.filter.bool.must` holds
 * visibility [2,3,4], status [0,1], (stock when out-of-stock products are not listed),
 * category_ids and the chosen filters, where an attribute value matches the product itself OR a
 * configurable whose `<attr>_options` holds it; full-text search is a function_score over a
 * multi_match (name^4 sku^2 category.name^1, fuzziness 2) and exact sku phrases, with a minimum
 * score of 0.02; aggregations are agg_terms_<attr> (+ _options) and agg_range_price.
 * docs/catalogue-queries.md lists where and why our bodies differ from that library's.
 */
import {
  AGGREGATION_SIZE,
  DEFAULT_FILTERS,
  LIST_OUT_OF_STOCK_PRODUCTS,
  LISTING_STATUS,
  LISTING_VISIBILITY,
  PRICE_FILTER_KEY,
  PRICE_RANGES,
  type PriceRange,
  SEARCH_BOOSTS,
  SEARCH_DEFAULT_SIZE,
  SEARCH_FUZZINESS,
  SEARCH_MIN_SCORE,
  SHOWN_PRICE_KEY,
} from '../config/catalog'
import { PRICE_ATTRIBUTE } from './filters'
import type { TermValue } from './terms-query'

export type DslClause = Record<string, unknown>

/** A product listing or search request (category page, search, curated queries). */
export interface CatalogQuery {
  /** Category ids to match (the category plus its descendants); omitted = all categories. */
  categoryIds?: number[]
  /**
   * Layered-navigation filters: attribute code → option ids. A value matches the product itself OR
   * a configurable whose `<attr>_options` holds it. Several values = any of.
   */
  filters?: Record<string, Array<number | string>>
  /**
   * Price filter [from, to) (`to` absent = and above): on the price the shopper is shown, in their
   * currency, when built for the shop's own engine; on final_price otherwise.
   */
  price?: { from?: number; to?: number }
  /** Full-text search text. */
  text?: string
  /** Extra exact-match constraints, e.g. { sku: ['A','B'] } or { id: [1,2] }. */
  terms?: Record<string, TermValue[]>
  /** Product ids from..to (inclusive): keyset windows past the 10,000-result search window. */
  idRange?: { from: number; to: number }
  /** Only in-stock products; default: the out-of-stock listing setting (they are listed). */
  inStockOnly?: boolean
  /** Sort; default created_at desc. A text search without one is in relevance order. */
  sort?: { field: string; order: 'asc' | 'desc' }
  from?: number
  size?: number
  /** Attribute codes to facet on (agg_terms_<attr> + agg_terms_<attr>_options); 'price' adds agg_range_price. */
  aggregations?: readonly string[]
  includeFields?: string[]
  excludeFields?: string[]
}

/** What the builder answers: the DSL body and the URI parameters sent beside it. */
export interface BuiltQuery {
  body: DslClause
  size: number
  from: number
  /** ES URI sort, e.g. 'created_at:desc'; empty for relevance order. */
  sort: string
  sourceInclude?: string[]
  sourceExclude?: string[]
}

/** Document field each filter attribute queries ('category' filters on category_ids). */
const FILTER_FIELDS: Readonly<Record<string, string>> = { category: 'category_ids' }

/** Fields that are not configurable options: filtered and counted without the `_options` branch. */
const PLAIN_FIELDS = new Set(Object.values(FILTER_FIELDS))

/** The document field of a filter attribute. */
function filterField(attribute: string): string {
  return FILTER_FIELDS[attribute] ?? attribute
}

/** A filter id as a term: numbers (ids, '-3', '1.25') are sent as numbers, anything else as text. */
export function termValue(id: string): string | number {
  return /^-?\d+(\.\d+)?$/.test(id) ? Number(id) : id
}

/**
 * The range clause of a price range on final_price, [from, to): {range:{final_price:{gte?, lt?}}}.
 * The upper edge is left out, as a range aggregation's bucket leaves it out, so a band selects
 * exactly the products it counts and a product priced at an edge is in the band that starts there.
 */
export function priceRangeClause(range: { from?: number; to?: number }, field = PRICE_FILTER_KEY): DslClause {
  const bounds: Record<string, number> = {}
  if (range.from !== undefined) bounds.gte = range.from
  if (range.to !== undefined) bounds.lt = range.to
  return { range: { [field]: bounds } }
}

/** `clause` on the product itself OR (`optionsClause` and the product is configurable). */
function selfOrConfigurable(clause: DslClause, optionsClause: DslClause): DslClause {
  return {
    bool: { should: [clause, { bool: { must: [optionsClause, { match: { type_id: 'configurable' } }] } }] },
  }
}

/** A value of `field` on the product, or in its `<field>_options` when it is configurable. */
function optionsFilterClause(field: string, values: readonly TermValue[]): DslClause {
  return selfOrConfigurable(
    { terms: { [field]: [...values] } },
    { terms: { [`${field}_options`]: [...values] } },
  )
}

/** A layered-navigation clause; category_ids (a plain field) has no `_options` branch. */
export function catalogFilterClause(attribute: string, values: readonly TermValue[]): DslClause {
  const field = filterField(attribute)
  return PLAIN_FIELDS.has(field) ? { terms: { [field]: [...values] } } : optionsFilterClause(field, values)
}

function hasPrice(price: CatalogQuery['price']): price is { from?: number; to?: number } {
  return !!price && (price.from !== undefined || price.to !== undefined)
}

/** The must-clauses of a listing: visibility, status, stock, category, extra terms, id window, filters, price. */
export function listingFilterClauses(params: CatalogQuery, priceField = PRICE_FILTER_KEY): DslClause[] {
  const must: DslClause[] = [
    { terms: { visibility: [...LISTING_VISIBILITY] } },
    { terms: { status: [...LISTING_STATUS] } },
  ]
  if (params.inStockOnly ?? !LIST_OUT_OF_STOCK_PRODUCTS) must.push({ terms: { 'stock.is_in_stock': [true] } })
  if (params.categoryIds?.length) must.push({ terms: { category_ids: [...params.categoryIds] } })
  for (const [field, values] of Object.entries(params.terms ?? {})) {
    if (values.length) must.push({ terms: { [field]: values } })
  }
  if (params.idRange) must.push({ range: { id: { gte: params.idRange.from, lte: params.idRange.to } } })
  for (const [attribute, values] of Object.entries(params.filters ?? {})) {
    if (values.length) must.push(catalogFilterClause(attribute, values))
  }
  if (hasPrice(params.price)) must.push(priceRangeClause(params.price, priceField))
  return must
}

/** agg_terms_<name> on a field and agg_terms_<name>_options on its configurable options. */
function termsAggregations(
  name: string,
  field: string,
  size: number = AGGREGATION_SIZE,
): Record<string, DslClause> {
  return {
    [`agg_terms_${name}`]: { terms: { field, size } },
    [`agg_terms_${name}_options`]: { terms: { field: `${field}_options`, size } },
  }
}

/** agg_terms_price and agg_range_price over `ranges` (an open range has no `to` at all). */
function priceAggregations(
  field: string,
  ranges: readonly { from?: number; to?: number }[],
  size: number = AGGREGATION_SIZE,
): Record<string, DslClause> {
  return {
    agg_terms_price: { terms: { field, size } },
    agg_range_price: {
      range: {
        field,
        ranges: ranges.map((r) => ({
          ...(r.from !== undefined ? { from: r.from } : {}),
          ...(r.to !== undefined ? { to: r.to } : {}),
        })),
      },
    },
  }
}

/** The configured price ranges plus the applied one, unless it is one of them. */
function priceRangesWith(
  applied: { from?: number; to?: number } | null | undefined,
  ranges: readonly PriceRange[] = PRICE_RANGES,
): { from?: number; to?: number }[] {
  const all: { from?: number; to?: number }[] = [...ranges]
  if (applied && !all.some((r) => r.from === applied.from && r.to === applied.to)) all.push(applied)
  return all
}

/** The filter-panel aggregations; price is counted on `priceField`, the field the price filter narrows. */
export function listingAggregations(
  filters: readonly string[] = DEFAULT_FILTERS,
  appliedPrice: PriceRange | null = null,
  priceField: string = PRICE_FILTER_KEY,
  ranges: readonly PriceRange[] = PRICE_RANGES,
): Record<string, DslClause> {
  let aggs: Record<string, DslClause> = {}
  for (const attribute of filters) {
    if (attribute === PRICE_ATTRIBUTE) {
      aggs = { ...aggs, ...priceAggregations(priceField, priceRangesWith(appliedPrice, ranges)) }
      continue
    }
    const field = filterField(attribute)
    if (PLAIN_FIELDS.has(field)) aggs[`agg_terms_${attribute}`] = { terms: { field, size: AGGREGATION_SIZE } }
    else aggs = { ...aggs, ...termsAggregations(attribute, field) }
  }
  return aggs
}

/** Extra multi_match settings (the engine's SearchQuery reading adds vue-storefront-api's). */
interface TextScoring {
  minimum_should_match?: string
  tie_breaker?: number
}

/**
 * The full-text part of a search: a fuzzy multi_match with the boosts, OR a child sku equal to one
 * of the text's dash-separated parts, OR the text as a phrase of the sku or a child sku.
 */
export function fullTextQuery(text: string, scoring: TextScoring = {}): DslClause {
  const fields = Object.entries(SEARCH_BOOSTS).map(([field, boost]) => `${field}^${boost}`)
  return {
    function_score: {
      query: {
        bool: {
          should: [
            { multi_match: { fields, query: text, fuzziness: SEARCH_FUZZINESS, operator: 'or', ...scoring } },
            {
              bool: {
                should: [
                  { terms: { 'configurable_children.sku': text.split('-') } },
                  { match_phrase: { sku: { query: text, boost: 1 } } },
                  { match_phrase: { 'configurable_children.sku': { query: text, boost: 1 } } },
                ],
              },
            },
          ],
        },
      },
      min_score: SEARCH_MIN_SCORE,
    },
  }
}

interface BuildOptions {
  /** Ask for the final price minimum and maximum too (the Commerce port's answers carry them). */
  priceBounds?: boolean
  /**
   * Filter and count prices as each shopper's tile shows them (SHOWN_PRICE_KEY, in the display
   * currency), for the shop's own search engine; otherwise on the catalogue's final_price.
   */
  shownPrice?: boolean
}

/** The aggregations of a request, with the applied price range counted and the optional price bounds. */
function requestAggregations(params: CatalogQuery, facets: readonly string[], options: BuildOptions) {
  const price = params.price
  const applied = hasPrice(price)
    ? { from: price.from ?? 0, ...(price.to !== undefined ? { to: price.to } : {}) }
    : null
  const aggs = listingAggregations(facets, applied, options.shownPrice ? SHOWN_PRICE_KEY : PRICE_FILTER_KEY)
  if (options.priceBounds && facets.includes(PRICE_ATTRIBUTE)) {
    aggs.agg_min_final_price = { min: { field: PRICE_FILTER_KEY } }
    aggs.agg_max_final_price = { max: { field: PRICE_FILTER_KEY } }
  }
  return aggs
}

/** The product listing/search request for a CatalogQuery. */
export function buildCatalogQuery(params: CatalogQuery, options: BuildOptions = {}): BuiltQuery {
  const priceField = options.shownPrice ? SHOWN_PRICE_KEY : PRICE_FILTER_KEY
  const bool: DslClause = { filter: { bool: { must: listingFilterClauses(params, priceField) } } }
  const body: DslClause = { query: { bool } }
  const text = params.text?.trim()
  if (text) {
    bool.must = fullTextQuery(text)
    body.min_score = SEARCH_MIN_SCORE
  }
  if (params.aggregations?.length) body.aggs = requestAggregations(params, params.aggregations, options)
  const size = params.size !== undefined && params.size > 0 ? Math.floor(params.size) : SEARCH_DEFAULT_SIZE
  const from = params.from !== undefined && params.from > 0 ? Math.floor(params.from) : 0
  const sort = params.sort ? `${params.sort.field}:${params.sort.order}` : text ? '' : 'created_at:desc'
  const built: BuiltQuery = { body, size, from, sort }
  if (params.includeFields) built.sourceInclude = params.includeFields
  if (params.excludeFields) built.sourceExclude = params.excludeFields
  return built
}

/** The browser's form of a request: URI size/from/sort and the body sent as `request`. */
export interface CatalogSearchRequest {
  size: number
  from: number
  /** ES URI sort ('created_at:desc'); omitted for relevance-sorted text search. */
  sort?: string
  request: DslClause
}

/** The browser's request for a CatalogQuery to the shop's own engine (the body the embedded adapter sends). */
export function catalogSearchRequest(params: CatalogQuery): CatalogSearchRequest {
  const { body, size, from, sort } = buildCatalogQuery(params, { shownPrice: true })
  return sort ? { size, from, sort, request: body } : { size, from, request: body }
}

/** The query string for GET /api/catalog/vue_storefront_catalog/product/_search (size, from, sort, request). */
export function catalogSearchQueryString(req: CatalogSearchRequest): string {
  const params = new URLSearchParams({ size: String(req.size), from: String(req.from) })
  if (req.sort) params.set('sort', req.sort)
  params.set('request', JSON.stringify(req.request))
  return params.toString()
}
