/**
 * Builds the Elasticsearch DSL bodies the VSF 1.12 client sends (storefront-query-builder shape:
 * query.bool.filter.bool.must [...], catalog-scope filters as should(attr, attr_options +
 * configurable), function_score multi_match for text, agg_terms_/agg_range_ aggregations). Both
 * adapters use it: the upstream one sends it over HTTP, the embedded one hands it to the search engine.
 */
import {
  LISTING_STATUS,
  LISTING_VISIBILITY,
  PRICE_FILTER_KEY,
  SEARCH_BOOSTS,
  SEARCH_DEFAULT_SIZE,
  SEARCH_FUZZINESS,
  SEARCH_MIN_SCORE,
} from '../../shared/config'
import { PRICE_ATTRIBUTE } from '../../shared/domain/filters'
import { listingAggregations } from '../../shared/domain/search-query'
import type { ProductListingParams } from './types'

export type Dsl = Record<string, unknown>

export interface BuiltQuery {
  body: Dsl
  size: number
  from: number
  /** ES URI sort, e.g. 'created_at:desc'; empty for relevance order. */
  sort: string
  sourceInclude?: string[]
  sourceExclude?: string[]
}

/** Builds the product listing/search DSL for a ProductListingParams. */
export function buildProductQuery(params: ProductListingParams): BuiltQuery {
  const must: Dsl[] = [
    { terms: { visibility: [...LISTING_VISIBILITY] } },
    { terms: { status: [...LISTING_STATUS] } },
  ]
  if (params.inStockOnly) must.push({ terms: { 'stock.is_in_stock': [true] } })
  if (params.categoryIds?.length) must.push({ terms: { category_ids: params.categoryIds } })
  for (const [field, values] of Object.entries(params.terms ?? {})) {
    if (values.length) must.push({ terms: { [field]: values } })
  }
  if (params.idRange) must.push({ range: { id: { gte: params.idRange.from, lte: params.idRange.to } } })
  for (const [attr, values] of Object.entries(params.filters ?? {})) {
    if (!values.length) continue
    must.push({
      bool: {
        should: [
          { terms: { [attr]: values } },
          {
            bool: {
              must: [{ terms: { [`${attr}_options`]: values } }, { match: { type_id: 'configurable' } }],
            },
          },
        ],
      },
    })
  }
  if (params.price && (params.price.from !== undefined || params.price.to !== undefined)) {
    const range: Record<string, number> = {}
    if (params.price.from !== undefined) range.gte = params.price.from
    if (params.price.to !== undefined) range.lte = params.price.to
    must.push({ range: { [PRICE_FILTER_KEY]: range } })
  }

  const query: Dsl = { bool: { filter: { bool: { must } } } }
  const body: Dsl = { query }
  const text = params.text?.trim()
  if (text) {
    ;(query.bool as Dsl).must = {
      function_score: {
        query: {
          bool: {
            should: [
              {
                multi_match: {
                  fields: Object.entries(SEARCH_BOOSTS).map(([f, b]) => `${f}^${b}`),
                  query: text,
                  fuzziness: SEARCH_FUZZINESS,
                  operator: 'or',
                },
              },
              {
                bool: {
                  should: [
                    { terms: { 'configurable_children.sku': [text] } },
                    { match_phrase: { sku: { query: text } } },
                    { match_phrase: { 'configurable_children.sku': { query: text } } },
                  ],
                },
              },
            ],
          },
        },
        score_mode: 'multiply',
        boost_mode: 'multiply',
        max_boost: 100,
        min_score: SEARCH_MIN_SCORE,
      },
    }
    body.min_score = SEARCH_MIN_SCORE
  }

  if (params.aggregations?.length) {
    // The same aggregations as the browser's refetch (shared/domain/search-query): price counted on
    // final_price — the field the price filter narrows on — with the applied range added.
    const applied =
      params.price && (params.price.from !== undefined || params.price.to !== undefined)
        ? { from: params.price.from ?? 0, ...(params.price.to !== undefined ? { to: params.price.to } : {}) }
        : null
    const aggs: Dsl = listingAggregations(params.aggregations, applied)
    if (params.aggregations.includes(PRICE_ATTRIBUTE)) {
      // Final price min and max (catalogue spec §7: catalogue entity query answers).
      aggs.agg_min_final_price = { min: { field: PRICE_FILTER_KEY } }
      aggs.agg_max_final_price = { max: { field: PRICE_FILTER_KEY } }
    }
    body.aggs = aggs
  }

  const size = params.size !== undefined && params.size > 0 ? Math.floor(params.size) : SEARCH_DEFAULT_SIZE
  const from = params.from !== undefined && params.from > 0 ? Math.floor(params.from) : 0
  const sort = params.sort ? `${params.sort.field}:${params.sort.order}` : text ? '' : 'created_at:desc'
  return { body, size, from, sort, sourceInclude: params.includeFields, sourceExclude: params.excludeFields }
}

/** A query matching documents whose `field` is one of `values` (entity lookups by sku/slug/...). */
export function termsQuery(field: string, values: Array<string | number | boolean>, extra: Dsl[] = []): Dsl {
  return { query: { bool: { filter: { bool: { must: [{ terms: { [field]: values } }, ...extra] } } } } }
}
