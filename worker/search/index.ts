/**
 * The catalogue search engine: `searchCatalog(db, request)` answers an Elasticsearch-style search
 * over one entity type with the Elasticsearch response shape. Products run as one SQL statement on
 * the D1 search index (results/product-search.ts); the small entity sets (categories, attributes,
 * tax rules, reviews, CMS) are evaluated in memory with the same semantics (memory/).
 * README.md (this folder) is the map of the stages.
 *
 * This file is the engine's one surface for the rest of the worker and the scripts: searching
 * (searchCatalog, toCompactResponse, planSearch, ENTITY_TYPES, SearchError, and compileProductRequest
 * for benchmarks), what the catalogue route reads besides the DSL (queryStringToDsl,
 * searchQueryToDsl, parsePatterns), the writes that keep the index and its builds current
 * (indexProductStatements, bumpIndexVersionStatement, facetPostingsStatements, rebuildMissingPostings,
 * noteIndexVersion), and the typo distance the search page's correction shares (allowedEdits,
 * editDistance).
 */

import { SearchError } from './dsl'
import { indexVersionSeen } from './held/index-version'
import { shownPriceIndexed } from './held/shown-price-fields'
import { isEntityType, loadEntityDocs } from './memory/entities'
import { searchDocsInMemory, toJsDocs } from './memory/search-docs'
import { isObject } from './request/parse-values'
import { planSearch, type SearchCatalogRequest } from './request/plan'
import {
  homeShopper,
  namesShownPrice,
  resolveShownPrice,
  restoreAskedBounds,
  shopperPriceField,
} from './request/shown-price'
import { checkPatternCount, parsePatterns, sourceFilter } from './request/source-filter'
import { bucketBody, type SubAggregations, splitSubAggregations } from './request/sub-aggs'
import { searchProducts } from './results/product-search'
import type { EsSearchResponse } from './results/response'
import type { EngineResult } from './semantics/results'
import type { PriceContext } from './semantics/server-prices'
import { withServerPrices } from './semantics/server-prices'

export { facetPostingsStatements, rebuildMissingPostings } from './builds/catalogue-build'
export { indexProductStatements } from './builds/index-products'
export { SearchError } from './dsl'
export { bumpIndexVersionStatement, noteIndexVersion } from './held/index-version'
export { ENTITY_TYPES } from './memory/entities'
export { planSearch } from './request/plan'
export { queryStringToDsl } from './request/query-string'
export { searchQueryToDsl } from './request/search-query'
export type { ShopperPricing } from './request/shown-price'
export { parsePatterns } from './request/source-filter'
export { compileProductRequest } from './results/product-search'
export { toCompactResponse } from './results/response'
export { allowedEdits, editDistance } from './semantics/text'

/**
 * Searches one entity type; answers in the Elasticsearch response shape. With `prices`, products
 * carry the tax processor's price fields for that country (semantics/server-prices.ts), before the source
 * filter, so `_source` patterns select among them like among stored fields.
 */
export async function searchCatalog(
  db: D1Database,
  req: SearchCatalogRequest,
  pricesFor?: PriceContext | Promise<PriceContext>,
  retried = false,
): Promise<EsSearchResponse> {
  // Awaited once the search has answered, so a caller's read of what it needs runs alongside.
  const pricesPending = pricesFor ? Promise.resolve(pricesFor) : undefined
  pricesPending?.catch(() => {})
  // The shopper's pricing is read alongside too; a request that names no shown price never awaits
  // it, and its failure (the database down) must not become an unhandled rejection.
  if (req.shopper) Promise.resolve(req.shopper).catch(() => {})
  const original = req
  let asked: ReadonlyMap<string, { from?: number; to?: number }> = new Map()
  let shownAt: number | null = null
  if (req.entityType === 'product' && namesShownPrice(req.body)) {
    const shopper = (await req.shopper) ?? homeShopper()
    const field = shopperPriceField(shopper)
    const indexed = await shownPriceIndexed(db, field)
    shownAt = indexed.version
    const resolved = resolveShownPrice(req.body ?? {}, shopper, indexed.indexed ? field : null)
    asked = resolved.asked
    const { shopper: _resolved, ...rest } = req
    req = { ...rest, body: resolved.body }
  }
  const split = splitSubAggregations(req.body?.aggs ?? req.body?.aggregations)
  if (split) {
    const res = await searchWithSubAggregations(db, req, split, pricesPending)
    restoreAskedBounds(res.aggregations, asked)
    return res
  }
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
  if (req.entityType === 'product') {
    result = await searchProducts(db, plan)
    // The shown price was resolved at an index version the statement did not read: once more.
    if (shownAt !== null && shownAt !== indexVersionSeen() && !retried)
      return searchCatalog(db, original, pricesFor, true)
  } else {
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
  // The engine's aggregations are frozen and shared by the pages of a result set: changed on a copy.
  if (asked.size > 0 && response.aggregations) response.aggregations = structuredClone(response.aggregations)
  restoreAskedBounds(response.aggregations, asked)
  return response
}

/** The request with its top-level aggregations, then each parent bucket's sub-aggregations (request/sub-aggs.ts). */
async function searchWithSubAggregations(
  db: D1Database,
  req: SearchCatalogRequest,
  split: SubAggregations,
  prices?: Promise<PriceContext>,
): Promise<EsSearchResponse> {
  const { aggregations: _both, ...rest } = req.body ?? {}
  const res = await searchCatalog(db, { ...req, body: { ...rest, aggs: split.top } }, prices)
  // The buckets get their sub-aggregations: on a copy of the engine's frozen, shared aggregations.
  if (res.aggregations) res.aggregations = structuredClone(res.aggregations)
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
