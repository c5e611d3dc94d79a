/**
 * `request_format=search-query`: turns a serialized storefront-query-builder SearchQuery
 * (`{_availableFilters, _appliedFilters, _appliedSort, _searchText}`) into the same DSL the
 * browser-side builder would send (vue-storefront-api does this server-side).
 */
import {
  AGGREGATION_SIZE,
  PRICE_FILTER_KEY,
  PRICE_RANGES,
  SEARCH_BOOSTS,
  SEARCH_FUZZINESS,
  SEARCH_MIN_SCORE,
} from '../../shared/config/catalog'
import { SearchError } from './dsl'

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
      const range = { range: { [field]: rangeBody(value) } }
      must.push({
        bool: { should: [range, { bool: { must: [range, { match: { type_id: 'configurable' } }] } }] },
      })
    } else {
      const v = asArray(value[ops[0] as string])
      must.push({
        bool: {
          should: [
            { terms: { [f.attribute]: v } },
            {
              bool: {
                must: [{ terms: { [`${f.attribute}_options`]: v } }, { match: { type_id: 'configurable' } }],
              },
            },
          ],
        },
      })
    }
  }
  const aggs: Record<string, unknown> = {}
  for (const a of available) {
    if (!isObject(a) || typeof a.field !== 'string' || !scopeOf(a, 'catalog')) continue
    const size = isObject(a.options) && typeof a.options.size === 'number' ? a.options.size : AGGREGATION_SIZE
    if (a.field !== 'price') {
      aggs[`agg_terms_${a.field}`] = { terms: { field: a.field, size } }
      aggs[`agg_terms_${a.field}_options`] = { terms: { field: `${a.field}_options`, size } }
    } else {
      const ranges: { from?: number; to?: number }[] = PRICE_RANGES.map((r) => ({ ...r }))
      const pf = applied.find((f) => isObject(f) && f.attribute === 'price') as
        | Record<string, unknown>
        | undefined
      if (pf && isObject(pf.value) && (pf.value.gte || pf.value.lte)) {
        ranges.push({
          ...(pf.value.gte ? { from: Number(pf.value.gte) } : {}),
          ...(pf.value.lte ? { to: Number(pf.value.lte) } : {}),
        })
      }
      aggs.agg_terms_price = { terms: { field: 'price', size } }
      aggs.agg_range_price = { range: { field: 'price', ranges } }
    }
  }
  const body: Record<string, unknown> = {}
  const boolQuery: Record<string, unknown> = {}
  if (must.length) boolQuery.filter = { bool: { must } }
  if (text.trim() !== '') {
    boolQuery.must = {
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
                  minimum_should_match: '75%',
                  tie_breaker: 1,
                },
              },
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
      },
    }
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
