/**
 * A catalogue search request turned into an executable plan: the body's options checked, the
 * page bounds validated, and the query, aggregations and sort parsed by the DSL parser.
 */
import { SearchError, type SearchPlan } from '../dsl'
import { parseAggs } from './parse-aggs'
import { parseQuery } from './parse-query'
import { parseSort } from './parse-sort'
import { isObject } from './parse-values'
import type { ShopperPricing } from './shown-price'

/** Largest page (the storefront fetches the category tree with size=4000). */
const MAX_SEARCH_SIZE = 4000
/** Largest from + size (Elasticsearch's default max_result_window). */
export const MAX_RESULT_WINDOW = 10000
/**
 * Matches a statement ranks and the result-set cache keeps (41 pages of 24): ranking every match
 * cost a full sort and a JSON list of up to 10,000 entries (the result window) on every new query;
 * a page past them runs the statement again, ranking down to that page.
 */
export const RANKED_MATCHES = 1000

export interface SearchCatalogRequest {
  entityType: string
  /** The DSL body (query, aggs, sort, size, from, min_score, _source). */
  body?: Record<string, unknown>
  /** URL parameters override the body's (as vue-storefront-api passes them to Elasticsearch). */
  size?: number | string
  from?: number | string
  sort?: unknown
  includes?: string[]
  excludes?: string[]
  /** Reported back in hits as `_index`. */
  index?: string
  /** Whom `shown_price` means the shown price of (request/shown-price.ts); default: home, base currency. */
  shopper?: ShopperPricing | Promise<ShopperPricing>
}

const BODY_KEYS = new Set([
  'query',
  'aggs',
  'aggregations',
  'sort',
  'from',
  'size',
  'min_score',
  '_source',
  'groupId',
  'groupToken',
  'track_scores',
  'track_total_hits',
])

/** Validates a size: the default 24 when not above 0, at most MAX_SEARCH_SIZE. */
export function normalizeSize(v: unknown, fallback = 24): number {
  if (v === undefined || v === null || v === '') return fallback
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new SearchError(`size must be a whole number, got ${JSON.stringify(v)?.slice(0, 40)}`)
  if (n <= 0) return fallback
  if (n > MAX_SEARCH_SIZE) throw new SearchError(`size must be at most ${MAX_SEARCH_SIZE}, got ${n}`)
  return n
}

/** Validates a start offset: 0 when negative. */
export function normalizeFrom(v: unknown): number {
  if (v === undefined || v === null || v === '') return 0
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new SearchError(`from must be a whole number, got ${JSON.stringify(v)?.slice(0, 40)}`)
  return Math.max(0, n)
}

/** Turns a request into an executable plan (throws SearchError on anything unsupported). */
export function planSearch(req: SearchCatalogRequest): SearchPlan {
  const body = req.body ?? {}
  if (!isObject(body)) throw new SearchError('The search request must be a JSON object')
  for (const k of Object.keys(body)) {
    if (!BODY_KEYS.has(k)) throw new SearchError(`Unsupported search request option: ${k.slice(0, 40)}`)
  }
  if (body.aggs !== undefined && body.aggregations !== undefined)
    throw new SearchError('Use either aggs or aggregations, not both')
  const size = normalizeSize(req.size ?? body.size)
  const from = normalizeFrom(req.from ?? body.from)
  if (from + size > MAX_RESULT_WINDOW)
    throw new SearchError(`from + size must not exceed ${MAX_RESULT_WINDOW}`)
  let minScore: number | null = null
  if (body.min_score !== undefined && body.min_score !== null) {
    if (typeof body.min_score !== 'number' || !Number.isFinite(body.min_score))
      throw new SearchError('min_score must be a number')
    minScore = body.min_score
  }
  const sort = parseSort(req.sort !== undefined && req.sort !== '' ? req.sort : body.sort)
  return {
    query: parseQuery(body.query),
    aggs: parseAggs(body.aggs ?? body.aggregations),
    sort,
    from,
    size,
    minScore,
  }
}
