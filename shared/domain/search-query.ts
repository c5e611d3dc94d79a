/**
 * The catalogue search request for listings and search (vsf-api-contract §1.1; catalogue spec §5,
 * §9), built identically by the page loaders, the upstream adapter and the islands:
 * `query.bool.filter.bool.must` with visibility [2,3,4], status [0,1], (stock when out-of-stock
 * listing is off), category_ids, catalog-scope attribute filters with the `<attr>_options` branch
 * for configurables, and a price range on final_price; aggregations agg_terms_<attr>(+_options)
 * and agg_range_price; full-text search with boosts name^4 sku^2 category.name^1, fuzziness 2 and
 * min_score 0.02.
 */
import {
  AGGREGATION_SIZE,
  DEFAULT_FILTERS,
  LIST_OUT_OF_STOCK_PRODUCTS,
  LISTING_STATUS,
  LISTING_VISIBILITY,
  PAGE_SIZE,
  PRICE_FILTER_KEY,
  PRICE_RANGES,
  type PriceRange,
  SEARCH_BOOSTS,
  SEARCH_FUZZINESS,
  SEARCH_MIN_SCORE,
} from '../config/catalog'
import { type ChosenFilters, PRICE_ATTRIBUTE, parsePriceRangeId, sortParam } from './filters'

export type DslClause = Record<string, unknown>

/** Document field each filter attribute queries ('category' filters on category_ids). */
export const FILTER_FIELDS: Readonly<Record<string, string>> = { category: 'category_ids' }

/** The document field of a filter attribute. */
export function filterField(attribute: string): string {
  return FILTER_FIELDS[attribute] ?? attribute
}

function toTermValue(id: string): string | number {
  return /^-?\d+(\.\d+)?$/.test(id) ? Number(id) : id
}

/** The range clause of a price range on final_price: {range:{final_price:{gte, lte?}}}. */
export function priceRangeClause(range: PriceRange, field: string = PRICE_FILTER_KEY): DslClause {
  const bounds: Record<string, number> = { gte: range.from }
  if (range.to !== undefined) bounds.lte = range.to
  return { range: { [field]: bounds } }
}

/**
 * A catalog-scope (layered navigation) clause: the product itself has one of the values, OR it is
 * configurable and its `<attr>_options` contains one.
 */
export function catalogFilterClause(attribute: string, ids: readonly string[]): DslClause {
  const field = filterField(attribute)
  const values = ids.map(toTermValue)
  if (field !== attribute) return { terms: { [field]: values } }
  return {
    bool: {
      should: [
        { terms: { [field]: values } },
        {
          bool: {
            must: [{ terms: { [`${field}_options`]: values } }, { match: { type_id: 'configurable' } }],
          },
        },
      ],
    },
  }
}

export interface ListingFilterOptions {
  /** The category and all its descendants (empty: no category restriction, e.g. search). */
  categoryIds?: readonly number[]
  chosen?: ChosenFilters
  /** Out-of-stock listing setting (on in the spec: out-of-stock products are listed). */
  listOutOfStock?: boolean
}

/** The must-clauses every listing query carries (visibility, status, stock, category) plus the chosen filters. */
export function listingFilterClauses(opts: ListingFilterOptions): DslClause[] {
  const must: DslClause[] = [
    { terms: { visibility: [...LISTING_VISIBILITY] } },
    { terms: { status: [...LISTING_STATUS] } },
  ]
  if (!(opts.listOutOfStock ?? LIST_OUT_OF_STOCK_PRODUCTS))
    must.push({ terms: { 'stock.is_in_stock': [true] } })
  if (opts.categoryIds?.length) must.push({ terms: { category_ids: [...opts.categoryIds] } })
  for (const [attribute, values] of Object.entries(opts.chosen ?? {})) {
    if (!values.length) continue
    if (attribute === PRICE_ATTRIBUTE) {
      const range = parsePriceRangeId(values[0]?.id)
      if (range) must.push(priceRangeClause(range))
    } else {
      must.push(
        catalogFilterClause(
          attribute,
          values.map((v) => v.id),
        ),
      )
    }
  }
  return must
}

/** The aggregations for the filter panel: agg_terms_<attr> and agg_terms_<attr>_options (size 100), price terms and ranges. */
export function listingAggregations(
  filters: readonly string[] = DEFAULT_FILTERS,
  appliedPrice?: PriceRange | null,
  ranges: readonly PriceRange[] = PRICE_RANGES,
): Record<string, DslClause> {
  const aggs: Record<string, DslClause> = {}
  for (const attribute of filters) {
    if (attribute === PRICE_ATTRIBUTE) {
      const all = [...ranges]
      if (appliedPrice && !all.some((r) => r.from === appliedPrice.from && r.to === appliedPrice.to))
        all.push(appliedPrice)
      aggs.agg_terms_price = { terms: { field: PRICE_FILTER_KEY, size: AGGREGATION_SIZE } }
      aggs.agg_range_price = {
        range: {
          field: PRICE_FILTER_KEY,
          ranges: all.map((r) => (r.to === undefined ? { from: r.from } : { from: r.from, to: r.to })),
        },
      }
      continue
    }
    const field = filterField(attribute)
    aggs[`agg_terms_${attribute}`] = { terms: { field, size: AGGREGATION_SIZE } }
    if (field === attribute)
      aggs[`agg_terms_${attribute}_options`] = {
        terms: { field: `${field}_options`, size: AGGREGATION_SIZE },
      }
  }
  return aggs
}

/** The full-text part of a search: fuzzy multi_match with the spec's boosts plus exact sku phrases. */
export function fullTextQuery(text: string): DslClause {
  const fields = Object.entries(SEARCH_BOOSTS).map(([field, boost]) => `${field}^${boost}`)
  return {
    function_score: {
      query: {
        bool: {
          should: [
            { multi_match: { fields, query: text, fuzziness: SEARCH_FUZZINESS, operator: 'or' } },
            {
              bool: {
                should: [
                  { match_phrase: { sku: { query: text } } },
                  { match_phrase: { 'configurable_children.sku': { query: text } } },
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

export interface ListingQueryOptions extends ListingFilterOptions {
  /** Sort id (latest, price-asc, price-desc); default Latest = created_at desc. */
  sort?: string | null
  from?: number
  size?: number
  /** Full-text search text (search panel / results page). */
  searchText?: string | null
  /** Include the filter-panel aggregations (default true). */
  aggregations?: boolean
  filters?: readonly string[]
}

export interface CatalogSearchRequest {
  /** URI params of GET /api/catalog/{index}/product/_search. */
  size: number
  from: number
  /** ES URI sort ('created_at:desc'); omitted for relevance-sorted text search. */
  sort?: string
  /** The DSL body (sent URL-encoded as `?request=`). */
  request: { query: DslClause; aggs?: Record<string, DslClause>; min_score?: number }
}

/** The complete product search request for a category listing or a text search. */
export function buildProductSearch(opts: ListingQueryOptions): CatalogSearchRequest {
  const bool: Record<string, unknown> = { filter: { bool: { must: listingFilterClauses(opts) } } }
  const text = opts.searchText?.trim()
  if (text) bool.must = [fullTextQuery(text)]
  const request: CatalogSearchRequest['request'] = { query: { bool } }
  if (opts.aggregations !== false) {
    const price = opts.chosen?.[PRICE_ATTRIBUTE]?.[0]
    request.aggs = listingAggregations(opts.filters, price ? parsePriceRangeId(price.id) : null)
  }
  if (text) request.min_score = SEARCH_MIN_SCORE
  const size = opts.size && opts.size > 0 ? opts.size : PAGE_SIZE
  const from = opts.from && opts.from > 0 ? opts.from : 0
  const result: CatalogSearchRequest = { size, from, request }
  if (!text || opts.sort) result.sort = sortParam(opts.sort)
  return result
}

/** The query string for GET /api/catalog/vue_storefront_catalog/product/_search (size, from, sort, request). */
export function catalogSearchQueryString(req: CatalogSearchRequest): string {
  const params = new URLSearchParams({ size: String(req.size), from: String(req.from) })
  if (req.sort) params.set('sort', req.sort)
  params.set('request', JSON.stringify(req.request))
  return params.toString()
}
