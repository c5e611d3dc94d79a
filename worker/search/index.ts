/**
 * The catalogue search engine: `searchCatalog(db, request)` answers an Elasticsearch-style search
 * over one entity type with the Elasticsearch response shape. Products run as one SQL statement
 * on the D1 search index (product-search.ts, compile-sql.ts); the small entity sets (categories,
 * attributes, tax rules, reviews, CMS) are evaluated in memory with the same semantics
 * (entities.ts, evaluate-js.ts).
 *
 * This file is the engine's surface for other areas: searchCatalog (the Commerce port calls it
 * in-process), toCompactResponse, ENTITY_TYPES, planSearch, SearchError, indexVersionSeen,
 * indexProductStatements, and compileProductRequest (benchmarks).
 */

import { SearchError } from './dsl'
import { isEntityType, loadEntityDocs } from './entities'
import { type AggResult, type EngineResult, searchDocsInMemory, toJsDocs } from './evaluate-js'
import { isObject } from './parse-values'
import { planSearch, type SearchCatalogRequest } from './plan'
import { searchProducts } from './product-search'
import { checkPatternCount, parsePatterns, sourceFilter } from './source-filter'

export { SearchError } from './dsl'
export { ENTITY_TYPES } from './entities'
export { indexVersionSeen } from './index-version'
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

/** Searches one entity type; answers in the Elasticsearch response shape. */
export async function searchCatalog(db: D1Database, req: SearchCatalogRequest): Promise<EsSearchResponse> {
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
        _source: filter(h.source),
      })),
    },
  }
  if (plan.aggs.length > 0) response.aggregations = result.aggregations
  return response
}

/** Product fields renamed by response_format=compact (the storefront's `products.fieldsToCompact` map; both sides must agree). */
const FIELDS_TO_COMPACT: Readonly<Record<string, string>> = {
  name: 'nm',
  url_key: 'u',
  price: 'p',
  final_price: 'fp',
  special_price: 'sp',
  price_incl_tax: 'pit',
  image: 'i',
  thumbnail: 't',
  small_image: 'si',
  status: 's',
  description: 'desc',
}

/** The compact response: `{hits: [_source + _score], total, aggregations}`, product fields renamed. */
export function toCompactResponse(res: EsSearchResponse, entityType: string) {
  return {
    hits: res.hits.hits.map((h) => {
      const item: Record<string, unknown> = { ...h._source, _score: h._score }
      if (entityType === 'product') {
        for (const [from, to] of Object.entries(FIELDS_TO_COMPACT)) {
          if (item[from] !== undefined) {
            item[to] = item[from]
            delete item[from]
          }
        }
      }
      return item
    }),
    total: res.hits.total,
    aggregations: res.aggregations ?? {},
  }
}
