/**
 * The catalogue search engine: `searchCatalog(db, request)` answers an Elasticsearch-style search
 * over one entity type with the Elasticsearch response shape. Products run as one SQL statement
 * on the D1 search index (product-search.ts, compile-sql.ts); the small entity sets (categories,
 * attributes, tax rules, reviews, CMS) are evaluated in memory with the same semantics
 * (entities.ts, evaluate-js.ts).
 *
 * This file is the engine's surface for other areas: searchCatalog (the Commerce port calls it
 * in-process), toCompactResponse, ENTITY_TYPES, planSearch, SearchError,
 * and compileProductRequest (benchmarks).
 */

import { SearchError } from './dsl'
import { isEntityType, loadEntityDocs } from './entities'
import { type AggResult, type EngineResult, searchDocsInMemory, toJsDocs } from './evaluate-js'
import { isObject } from './parse-values'
import { planSearch, type SearchCatalogRequest } from './plan'
import { searchProducts } from './product-search'
import { type PriceContext, withServerPrices } from './server-prices'
import { checkPatternCount, parsePatterns, sourceFilter } from './source-filter'
import { bucketBody, type SubAggregations, splitSubAggregations } from './sub-aggs'

export { SearchError } from './dsl'
export { ENTITY_TYPES } from './entities'
export { planSearch } from './plan'
export { compileProductRequest } from './product-search'

interface EsHit {
  _index: string
  _type: string
  _id: string
  _score: number | null
  _source: Record<string, unknown>
}

interface EsSearchResponse {
  took: number
  timed_out: boolean
  _shards: { total: number; successful: number; skipped: number; failed: number }
  hits: { total: number; max_score: number | null; hits: EsHit[] }
  aggregations?: Record<string, AggResult>
}

/**
 * Searches one entity type; answers in the Elasticsearch response shape. With `prices`, products
 * carry the tax processor's price fields for that country (server-prices.ts), before the source
 * filter, so `_source` patterns select among them like among stored fields.
 */
export async function searchCatalog(
  db: D1Database,
  req: SearchCatalogRequest,
  pricesFor?: PriceContext | Promise<PriceContext>,
): Promise<EsSearchResponse> {
  // Awaited once the search has answered, so a caller's read of what it needs runs alongside.
  const pricesPending = pricesFor ? Promise.resolve(pricesFor) : undefined
  pricesPending?.catch(() => {})
  const split = splitSubAggregations(req.body?.aggs ?? req.body?.aggregations)
  if (split) return searchWithSubAggregations(db, req, split, pricesPending)
  const started = Date.now()
  if (!isEntityType(req.entityType))
    throw new SearchError(`No entity type registered for ${String(req.entityType).slice(0, 40)}`)
  const plan = planSearch(req)
  const includes = [...(req.includes ?? [])]
  const excludes = [...(req.excludes ?? [])]
  const body = req.body ?? {}
  const src = body._source
  const toError = (m: string) => new SearchError(m)
  if (Array.isArray(src) || typeof src === 'string') includes.push(...parsePatterns(src, '_source', toError))
  else if (isObject(src)) {
    includes.push(...parsePatterns(src.includes ?? src.include, '_source.includes', toError))
    excludes.push(...parsePatterns(src.excludes ?? src.exclude, '_source.excludes', toError))
  } else if (src !== undefined && typeof src !== 'boolean') throw new SearchError('Malformed _source')
  checkPatternCount(includes, '_source includes', toError)
  checkPatternCount(excludes, '_source excludes', toError)
  const filter = sourceFilter(includes, excludes)
  let result: EngineResult
  if (req.entityType === 'product') result = await searchProducts(db, plan)
  else {
    const docs = await loadEntityDocs(db, req.entityType, plan)
    result = searchDocsInMemory(toJsDocs(docs, 'generic'), plan)
  }
  const prices = req.entityType === 'product' ? await pricesPending : undefined
  const index = req.index ?? 'vue_storefront_catalog'
  const response: EsSearchResponse = {
    took: Date.now() - started,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      total: result.total,
      max_score: result.maxScore,
      hits: result.hits.map((h) => ({
        _index: index,
        _type: req.entityType,
        _id: String(h.id),
        _score: h.score,
        _source: filter(
          prices && req.entityType === 'product' ? withServerPrices(h.source, prices) : h.source,
        ),
      })),
    },
  }
  if (plan.aggs.length > 0) response.aggregations = result.aggregations
  return response
}

/** The request with its top-level aggregations, then each parent bucket's sub-aggregations (sub-aggs.ts). */
async function searchWithSubAggregations(
  db: D1Database,
  req: SearchCatalogRequest,
  split: SubAggregations,
  prices?: Promise<PriceContext>,
): Promise<EsSearchResponse> {
  const { aggregations: _both, ...rest } = req.body ?? {}
  const res = await searchCatalog(db, { ...req, body: { ...rest, aggs: split.top } }, prices)
  const counts: Promise<void>[] = []
  for (const [name, { field, aggs }] of split.subs) {
    const buckets = (res.aggregations?.[name] as { buckets?: Record<string, unknown>[] } | undefined)?.buckets
    for (const bucket of buckets ?? []) {
      const body = bucketBody(req.body ?? {}, field, bucket.key, aggs)
      counts.push(
        searchCatalog(db, { entityType: req.entityType, index: req.index, body, size: 1 }).then((sub) => {
          Object.assign(bucket, sub.aggregations)
        }),
      )
    }
  }
  await Promise.all(counts)
  return res
}

/**
 * Product fields renamed by response_format=compact: vue-storefront-api's `products.fieldsToCompact`
 * map (the storefront's must be the same to read them back).
 */
const FIELDS_TO_COMPACT: Readonly<Record<string, string>> = {
  minimal_price: 'mp',
  has_options: 'ho',
  url_key: 'u',
  status: 's',
  required_options: 'ro',
  name: 'nm',
  tax_class_id: 'tci',
  description: 'desc',
  minimal_regular_price: 'mrp',
  final_price: 'fp',
  price: 'p',
  special_price: 'sp',
  original_final_price: 'ofp',
  original_price: 'op',
  original_special_price: 'osp',
  final_price_incl_tax: 'fpit',
  original_price_incl_tax: 'opit',
  price_incl_tax: 'pit',
  special_price_incl_tax: 'spit',
  final_price_tax: 'fpt',
  price_tax: 'pt',
  special_price_tax: 'spt',
  original_price_tax: 'opt',
  image: 'i',
  small_image: 'si',
  thumbnail: 't',
}

/**
 * Variant fields left out of a compact answer when equal to the product's own (vue-storefront-api's
 * `products.fieldsToCompress`): the storefront reads the product's value for them.
 */
const FIELDS_TO_COMPRESS: readonly string[] = [
  'max_regular_price',
  'max_price',
  'minimal_regular_price',
  'final_price',
  'price',
  'special_price',
  'original_final_price',
  'original_price',
  'original_special_price',
  'final_price_incl_tax',
  'price_incl_tax',
  'special_price_incl_tax',
  'final_price_tax',
  'price_tax',
  'special_price_tax',
  'image',
  'small_image',
  'thumbnail',
]

function compactFields(item: Record<string, unknown>): Record<string, unknown> {
  for (const [from, to] of Object.entries(FIELDS_TO_COMPACT)) {
    if (item[from] !== undefined) {
      item[to] = item[from]
      delete item[from]
    }
  }
  return item
}

/** A product in compact form: its variants without the fields equal to its own, then every field renamed. */
function compactProduct(source: Record<string, unknown>): Record<string, unknown> {
  const item: Record<string, unknown> = { ...source }
  if (Array.isArray(item.configurable_children)) {
    item.configurable_children = item.configurable_children.map((child) => {
      if (!isObject(child)) return child
      const variant: Record<string, unknown> = { ...child }
      for (const field of FIELDS_TO_COMPRESS) if (source[field] === variant[field]) delete variant[field]
      return compactFields(variant)
    })
  }
  return compactFields(item)
}

/** The compact response: `{hits: [_source + _score], total, aggregations}`, product fields renamed. */
export function toCompactResponse(res: EsSearchResponse, entityType: string) {
  return {
    hits: res.hits.hits.map((h) =>
      entityType === 'product'
        ? { ...compactProduct(h._source), _score: h._score }
        : { ...h._source, _score: h._score },
    ),
    total: res.hits.total,
    aggregations: res.aggregations ?? {},
  }
}
