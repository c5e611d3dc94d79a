/**
 * `request_format=search-query`: reads a serialized storefront-query-builder SearchQuery
 * (`{_availableFilters, _appliedFilters, _appliedSort, _searchText}`) and builds the body with the
 * shop's one query builder (shared/domain/search-query), as vue-storefront-api does server-side.
 * Where the result differs from that library's, docs/catalogue-queries.md says why.
 */
import { AGGREGATION_SIZE, PRICE_FILTER_KEY, PRICE_RANGES, SEARCH_MIN_SCORE } from '@shared/config/catalog'
import {
  catalogRangeClause,
  fullTextQuery,
  optionsFilterClause,
  priceAggregations,
  termsAggregations,
} from '@shared/domain/search-query'
import type { TermValue } from '@shared/domain/terms-query'
import { SearchError } from './dsl'

/** The multi_match settings vue-storefront-api adds to a SearchQuery's text. */
const SEARCH_QUERY_SCORING = { minimum_should_match: '75%', tie_breaker: 1 }

const RANGE_OPS = new Set(['gt', 'gte', 'lt', 'lte', 'from', 'to', 'moreq'])

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function scopeOf(o: Record<string, unknown>, scope: string): boolean {
  return o.scope === scope || (Array.isArray(o.scope) && o.scope.includes(scope))
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v]
}

function rangeBody(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k === 'moreq' ? 'gte' : k] = v
  return out
}

/** The applied price filter's range (a truthy gte/lte), counted as one more price bucket. */
function appliedPriceRange(applied: unknown[]): { from?: number; to?: number } | null {
  const pf = applied.find((f) => isObject(f) && f.attribute === 'price') as
    | Record<string, unknown>
    | undefined
  if (!pf || !isObject(pf.value) || !(pf.value.gte || pf.value.lte)) return null
  return {
    ...(pf.value.gte ? { from: Number(pf.value.gte) } : {}),
    ...(pf.value.lte ? { to: Number(pf.value.lte) } : {}),
  }
}

/** Builds an ES request body from a serialized SearchQuery. */
export function searchQueryToDsl(sq: unknown): Record<string, unknown> {
  if (!isObject(sq)) throw new SearchError('A search-query request must be a JSON object')
  const applied = sq._appliedFilters ?? []
  const available = sq._availableFilters ?? []
  const sorts = sq._appliedSort ?? []
  const text = sq._searchText ?? ''
  if (
    !Array.isArray(applied) ||
    !Array.isArray(available) ||
    !Array.isArray(sorts) ||
    typeof text !== 'string'
  ) {
    throw new SearchError(
      'Malformed search-query: _appliedFilters, _availableFilters and _appliedSort must be arrays, _searchText a string',
    )
  }
  const must: unknown[] = []
  for (const f of applied) {
    if (!isObject(f) || typeof f.attribute !== 'string')
      throw new SearchError('Malformed search-query filter')
    if (!scopeOf(f, 'default') || scopeOf(f, 'catalog')) continue
    const attribute = f.attribute
    const value = isObject(f.value) ? f.value : { in: [f.value] }
    const ops = Object.keys(value)
    if (ops.length === 0) continue
    if (ops.every((o) => RANGE_OPS.has(o))) {
      must.push({ range: { [attribute]: rangeBody(value) } })
      continue
    }
    const op = ops[0] as string
    const v = value[op]
    if (op === 'in' || op === 'eq') {
      must.push(v === null ? { exists: { field: attribute } } : { terms: { [attribute]: asArray(v) } })
    } else if (op === 'nin' || op === 'neq') {
      must.push({
        bool: {
          must_not: [v === null ? { exists: { field: attribute } } : { terms: { [attribute]: asArray(v) } }],
        },
      })
    } else throw new SearchError(`Unsupported search-query filter operator: ${op.slice(0, 30)}`)
  }
  for (const f of applied) {
    if (!isObject(f) || !scopeOf(f, 'catalog') || typeof f.attribute !== 'string') continue
    if (!isObject(f.value) || Object.keys(f.value).length === 0) continue
    const value = f.value
    const ops = Object.keys(value)
    if (ops.some((o) => RANGE_OPS.has(o))) {
      const field = f.attribute === 'price' ? PRICE_FILTER_KEY : f.attribute
      must.push(catalogRangeClause(field, rangeBody(value)))
    } else {
      must.push(optionsFilterClause(f.attribute, asArray(value[ops[0] as string]) as TermValue[]))
    }
  }
  const aggs: Record<string, unknown> = {}
  for (const a of available) {
    if (!isObject(a) || typeof a.field !== 'string' || !scopeOf(a, 'catalog')) continue
    const size = isObject(a.options) && typeof a.options.size === 'number' ? a.options.size : AGGREGATION_SIZE
    if (a.field !== 'price') Object.assign(aggs, termsAggregations(a.field, a.field, size))
    else {
      // The applied range is counted once more even when it is a configured one.
      const extra = appliedPriceRange(applied)
      Object.assign(aggs, priceAggregations('price', extra ? [...PRICE_RANGES, extra] : PRICE_RANGES, size))
    }
  }
  const body: Record<string, unknown> = {}
  const boolQuery: Record<string, unknown> = {}
  if (must.length) boolQuery.filter = { bool: { must } }
  if (text.trim() !== '') {
    boolQuery.must = fullTextQuery(text, SEARCH_QUERY_SCORING)
    body.min_score = SEARCH_MIN_SCORE
  }
  if (Object.keys(boolQuery).length) body.query = { bool: boolQuery }
  if (Object.keys(aggs).length) body.aggs = aggs
  if (sorts.length) {
    body.sort = sorts.map((s) => {
      if (!isObject(s) || typeof s.field !== 'string') throw new SearchError('Malformed search-query sort')
      if (s.field === 'random') throw new SearchError('Unsupported sort: random')
      return { [s.field]: s.options ?? 'asc' }
    })
  }
  return body
}
