/**
 * `request_format=search-query`: reads a serialized storefront-query-builder SearchQuery
 * (`{_availableFilters, _appliedFilters, _appliedSort, _searchText}`) and builds the Elasticsearch
 * body vue-storefront-api builds for it, clause for clause, with that API's default settings
 * (SEARCH_QUERY_CONFIG): a storefront that queries this format gets the same products, facets and
 * order here as from a vue-storefront-api in front of Elasticsearch. The only departures are listed
 * in docs/catalogue-queries.md (a text search without filters still searches; a random sort and
 * malformed input answer 400).
 *
 * Rules, in the order the body is built:
 * - default-scope filters: the first operator of the value decides — a value of range operators
 *   (gt, gte, lt, lte, from, to, moreq) is a `range`; or-prefixed range operators (orGte …) a range
 *   in the filter's `should`; `or` terms in the `should` (null: the field is missing); `nor` not
 *   those terms, in the `should` (null: the field exists); `nin`/`neq` a `must_not`; `in`/`eq` and
 *   any other operator `terms` on the first operator's values (null: the field exists);
 * - catalog-scope filters: each one a `bool` whose `should` is the product's own field OR
 *   (`<field>_options` AND a configurable); a range on `price` narrows the price filter key; when
 *   there are catalog filters the filter's `should` needs at least one match when it has two or more;
 * - facets of catalog-scope available filters: `agg_terms_<field>` and `agg_terms_<field>_options`
 *   (size: the filter's own, else the per-field setting, else 10); for price `agg_terms_price` and
 *   `agg_range_price` on `price` over the configured ranges plus the applied range;
 * - text: a multi_match over the searchable fields with the scoring settings, OR the text as a
 *   child sku or sku phrase; wrapped in the scoring functions' function_score when scoring
 *   attributes are configured;
 * - sort: `[{field: {order}}]` in the order given.
 * A filter, like in the builder, lands in an empty clause list unwrapped: one filter alone is the
 * filter itself, one must beside should clauses is an object, not a one-element list.
 */
import { PRICE_FILTER_KEY, PRICE_RANGES, SEARCH_BOOSTS, SEARCH_FUZZINESS } from '@shared/config/catalog'
import { SearchError } from '../dsl'
import { isObject } from './parse-values'

type Clause = Record<string, unknown>

/** vue-storefront-api's query settings, with this shop's boosts and price ranges. */
const SEARCH_QUERY_CONFIG = {
  searchableAttributes: SEARCH_BOOSTS as Readonly<Record<string, number>>,
  searchScoring: {
    /** Scoring functions: documents whose attribute has the value get the weight. */
    attributes: { attribute_code: { scoreValues: { attribute_value: { weight: 1 } } } } as Readonly<
      Record<string, { scoreValues: Readonly<Record<string, { weight: number }>> }>
    >,
    fuzziness: SEARCH_FUZZINESS,
    cutoff_frequency: 0.01,
    max_expansions: 3,
    minimum_should_match: '75%',
    prefix_length: 2,
    tie_breaker: '1',
    operator: 'or',
    boost_mode: 'multiply',
    score_mode: 'multiply',
    max_boost: 100,
    function_min_score: 1,
  },
  filterFieldMapping: { 'category.name': 'category.name.keyword' } as Readonly<Record<string, string>>,
  filterAggregationSize: { default: 10, size: 10, color: 10 } as Readonly<Record<string, number>>,
  priceFilterKey: PRICE_FILTER_KEY,
  priceRanges: PRICE_RANGES,
} as const

const RANGE_OPS = ['gt', 'lt', 'gte', 'lte', 'moreq', 'from', 'to']
const OR_RANGE_OPS = RANGE_OPS.map((o) => `or${o.charAt(0).toUpperCase()}${o.slice(1)}`)

/** One bool under construction: must (and), should (or), must_not (not). */
interface BoolParts {
  and: Clause[]
  or: Clause[]
  not: Clause[]
  minimumShouldMatch?: number
}

const newBool = (): BoolParts => ({ and: [], or: [], not: [] })

/** A list with one element is that element (the builder's unwrapping). */
function unwrap(list: Clause[]): Clause | Clause[] | undefined {
  return list.length > 1 ? list : list[list.length - 1]
}

/** The clause of collected parts: a lone must is itself; else a bool of the non-empty lists. */
function toBool(parts: BoolParts): Clause {
  if (parts.and.length === 1 && parts.or.length === 0 && parts.not.length === 0) return parts.and[0] as Clause
  const bool: Clause = {}
  if (parts.and.length) bool.must = unwrap(parts.and)
  if (parts.or.length) bool.should = parts.or
  if (parts.not.length) bool.must_not = parts.not
  if (parts.minimumShouldMatch && parts.or.length > 1) bool.minimum_should_match = parts.minimumShouldMatch
  return { bool }
}

/**
 * A nested bool filter: its parts spread into the `bool` clause when they make a bool; a lone
 * clause becomes the bool's `filter`.
 */
function nestedBool(build: (parts: BoolParts) => void): Clause {
  const parts = newBool()
  build(parts)
  if (!(parts.and.length || parts.or.length || parts.not.length)) return { bool: {} }
  const inner = toBool(parts)
  return { bool: isObject(inner.bool) ? inner.bool : { filter: inner } }
}

function hasScope(o: Record<string, unknown>, scope: string): boolean {
  return o.scope === scope || (Array.isArray(o.scope) && o.scope.includes(scope))
}

function mapping(attribute: string): string {
  return Object.hasOwn(SEARCH_QUERY_CONFIG.filterFieldMapping, attribute)
    ? (SEARCH_QUERY_CONFIG.filterFieldMapping[attribute] as string)
    : attribute
}

/** The values of a value's first operator, as a list (null stays null). */
function firstValues(value: Record<string, unknown>): unknown[] | null {
  const v = value[Object.keys(value)[0] as string]
  if (v === null) return null
  return Array.isArray(v) ? v : [v]
}

/** A default-scope filter into the top-level parts. */
function applyBaseFilter(parts: BoolParts, attribute: string, raw: unknown): void {
  const value: Record<string, unknown> = isObject(raw) ? { ...raw } : { in: [raw] }
  const keys = Object.keys(value)
  if (keys.length === 0) return
  const field = mapping(attribute)
  const operator = keys[0] as string
  if (keys.every((k) => RANGE_OPS.includes(k))) {
    parts.and.push({ range: { [field]: value } })
    return
  }
  if (keys.every((k) => OR_RANGE_OPS.includes(k))) {
    const bounds: Record<string, unknown> = {}
    for (const k of keys) bounds[k.slice(2).toLowerCase()] = value[k]
    parts.or.push({ range: { [field]: bounds } })
    return
  }
  const values = firstValues(value)
  if (operator === 'or') {
    parts.or.push(
      values === null ? { bool: { must_not: [{ exists: { field } }] } } : { terms: { [field]: values } },
    )
  } else if (operator === 'nor') {
    parts.or.push(
      values === null ? { exists: { field } } : { bool: { must_not: [{ terms: { [field]: values } }] } },
    )
  } else if (operator === 'nin' || operator === 'neq') {
    parts.not.push(values === null ? { exists: { field } } : { terms: { [field]: values } })
  } else {
    parts.and.push(values === null ? { exists: { field } } : { terms: { [field]: values } })
  }
}

/** The clause of a catalog filter on `suffix`-ed fields ('' = the product's own, '_options' = its options). */
function catalogClause(attribute: string, value: Record<string, unknown>, suffix: string): Clause | null {
  const keys = Object.keys(value)
  if (keys.length === 0) return null
  if (keys.some((k) => RANGE_OPS.includes(k))) {
    const field = attribute === 'price' ? SEARCH_QUERY_CONFIG.priceFilterKey : attribute
    return { range: { [field]: value } }
  }
  const values = firstValues(value) ?? [null]
  return { terms: { [suffix === '' ? mapping(attribute) : attribute + suffix]: values } }
}

/** A catalog filter: the product's own field OR (its `_options` and it is configurable). */
function applyCatalogFilter(parts: BoolParts, attribute: string, value: unknown): void {
  const raw = isObject(value) ? value : {}
  parts.and.push(
    nestedBool((inner) => {
      const own = catalogClause(attribute, raw, '')
      if (own) inner.or.push(own)
      inner.or.push(
        nestedBool((configurable) => {
          const options = catalogClause(attribute, raw, '_options')
          if (options) configurable.and.push(options)
          configurable.and.push({ match: { type_id: 'configurable' } })
        }),
      )
    }),
  )
}

/** The facets of the catalog-scope available filters. */
function aggregations(available: unknown[], applied: Record<string, unknown>[]): Clause {
  const aggs: Clause = {}
  for (const a of available) {
    if (!isObject(a) || typeof a.field !== 'string' || !hasScope(a, 'catalog')) continue
    const options = isObject(a.options) ? a.options : {}
    const sizes = SEARCH_QUERY_CONFIG.filterAggregationSize
    if (a.field !== 'price') {
      const size = options.size || sizes[a.field] || sizes.default
      const field = mapping(a.field)
      aggs[`agg_terms_${field}`] = { terms: { field, size } }
      aggs[`agg_terms_${a.field}_options`] = { terms: { field: `${a.field}_options`, size } }
      continue
    }
    const price = applied.find((f) => f.attribute === 'price')
    const extra: Clause[] = []
    if (price && isObject(price.value) && (price.value.gte || price.value.lte)) {
      extra.push({
        ...(price.value.gte ? { from: price.value.gte } : {}),
        ...(price.value.lte ? { to: price.value.lte } : {}),
      })
    }
    aggs.agg_terms_price = { terms: { field: 'price' } }
    aggs.agg_range_price = {
      range: {
        field: 'price',
        ranges: [...SEARCH_QUERY_CONFIG.priceRanges.map((r) => ({ ...r })), ...extra],
      },
    }
  }
  return aggs
}

/** The text clauses: a scored multi_match OR the text as (child) sku. */
function textQuery(text: string): Clause {
  const s = SEARCH_QUERY_CONFIG.searchScoring
  const fields = Object.entries(SEARCH_QUERY_CONFIG.searchableAttributes).map(([f, b]) => `${f}^${b}`)
  const should = [
    {
      multi_match: {
        fields,
        query: text,
        operator: s.operator,
        fuzziness: s.fuzziness,
        cutoff_frequency: s.cutoff_frequency,
        max_expansions: s.max_expansions,
        prefix_length: s.prefix_length,
        minimum_should_match: s.minimum_should_match,
        tie_breaker: s.tie_breaker,
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
  ]
  const functions = Object.entries(s.attributes).flatMap(([attribute, a]) =>
    Object.entries(a.scoreValues).map(([v, { weight }]) => ({
      filter: { match: { [attribute]: v } },
      weight,
    })),
  )
  if (functions.length === 0) return { bool: { should } }
  return {
    function_score: {
      functions,
      score_mode: s.score_mode,
      boost_mode: s.boost_mode,
      max_boost: s.max_boost,
      min_score: s.function_min_score,
      query: { bool: { should } },
    },
  }
}

/** Builds an ES request body from a serialized SearchQuery (what vue-storefront-api builds for it). */
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
  const filters: Record<string, unknown>[] = []
  for (const f of applied) {
    if (!isObject(f) || typeof f.attribute !== 'string' || f.attribute === '')
      throw new SearchError('Malformed search-query filter: each needs an attribute name')
    filters.push(f)
  }
  const parts = newBool()
  for (const f of filters) if (hasScope(f, 'default')) applyBaseFilter(parts, f.attribute as string, f.value)
  const catalog = filters.filter((f) => hasScope(f, 'catalog'))
  if (catalog.length) {
    parts.minimumShouldMatch = 1
    for (const f of catalog) applyCatalogFilter(parts, f.attribute as string, f.value)
  }
  const body: Record<string, unknown> = {}
  const hasFilter = parts.and.length > 0 || parts.or.length > 0 || parts.not.length > 0
  const query = text !== '' ? textQuery(text) : null
  if (hasFilter) {
    const bool: Clause = { filter: toBool(parts) }
    if (query) {
      if ('bool' in query) Object.assign(bool, query.bool as Clause)
      else bool.must = query
    }
    body.query = { bool }
  } else if (query) body.query = query
  const aggs = aggregations(available, filters)
  if (Object.keys(aggs).length) body.aggs = aggs
  if (sorts.length) {
    body.sort = sorts.map((s) => {
      if (!isObject(s) || typeof s.field !== 'string') throw new SearchError('Malformed search-query sort')
      if (s.field === 'random') throw new SearchError('Unsupported sort: random')
      return { [s.field]: isObject(s.options) ? { ...s.options } : { order: s.options ?? 'asc' } }
    })
  }
  return body
}
