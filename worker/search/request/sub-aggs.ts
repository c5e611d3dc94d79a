/**
 * Sub-aggregations of terms aggregations, one level deep:
 *   aggs: { agg_terms_color: { terms: { field: 'color' }, aggs: { sizes: { terms: { field: 'size' } } } } }
 * Each bucket of the parent gets the sub-aggregations counted over the documents of that bucket
 * (the request's query AND the bucket's value), as Elasticsearch answers them.
 *
 * The engine counts the parent aggregations in the request's own statement, then each bucket's
 * sub-aggregations with one more search of the same query filtered to the bucket's value. Limits
 * (each a 400 naming it): only terms aggregations have sub-aggregations; no sub-aggregation has
 * its own; the parents and their sub-aggregations count towards the MAX_AGGREGATIONS of a request;
 * and the buckets given sub-aggregations (the sizes of those parents, 10 when unset) are at most
 * MAX_SUB_AGGREGATION_BUCKETS in all.
 */
import { MAX_AGGREGATIONS, SearchError } from '../dsl'
import { isObject } from './parse-values'

/** Most buckets, over all parents, whose sub-aggregations are counted (one search each). */
const MAX_SUB_AGGREGATION_BUCKETS = 50

export interface SubAggregations {
  /** The aggregations with the sub-aggregations taken out (what the request's statement counts). */
  top: Record<string, unknown>
  /** Parent name → its field and sub-aggregations. */
  subs: Map<string, { field: string; aggs: Record<string, unknown> }>
}

/** Splits a request's aggregations into the top level and the sub-aggregations of its terms parents. */
export function splitSubAggregations(aggs: unknown): SubAggregations | null {
  if (!isObject(aggs)) return null
  const nested = (spec: Record<string, unknown>) => spec.aggs ?? spec.aggregations
  if (!Object.values(aggs).some((spec) => isObject(spec) && nested(spec) !== undefined)) return null
  const top: Record<string, unknown> = {}
  const subs: SubAggregations['subs'] = new Map()
  let count = 0
  let buckets = 0
  for (const [name, spec] of Object.entries(aggs)) {
    count++
    if (!isObject(spec) || nested(spec) === undefined) {
      top[name] = spec
      continue
    }
    const { aggs: a, aggregations: b, ...own } = spec
    const inner = a ?? b
    if (a !== undefined && b !== undefined)
      throw new SearchError(`Aggregation ${name}: use either aggs or aggregations`)
    const terms = own.terms
    if (!isObject(terms) || Object.keys(own).filter((k) => k !== 'meta').length !== 1)
      throw new SearchError(`Aggregation ${name}: only terms aggregations can have sub-aggregations`)
    if (typeof terms.field !== 'string') throw new SearchError(`Aggregation ${name}: terms needs a field`)
    if (!isObject(inner) || Object.keys(inner).length === 0)
      throw new SearchError(`Aggregation ${name}: sub-aggregations must be a non-empty object`)
    for (const [subName, sub] of Object.entries(inner)) {
      if (isObject(sub) && (sub.aggs !== undefined || sub.aggregations !== undefined))
        throw new SearchError(`Aggregation ${name}.${subName}: sub-aggregations are one level deep`)
    }
    count += Object.keys(inner).length
    const size = terms.size === undefined ? 10 : Number(terms.size)
    buckets += Number.isFinite(size) ? Math.max(0, Math.trunc(size)) : 0
    top[name] = own
    subs.set(name, { field: terms.field, aggs: inner })
  }
  if (count > MAX_AGGREGATIONS)
    throw new SearchError(`Too many aggregations (at most ${MAX_AGGREGATIONS}, sub-aggregations included)`)
  if (buckets > MAX_SUB_AGGREGATION_BUCKETS)
    throw new SearchError(
      `Sub-aggregations are counted for at most ${MAX_SUB_AGGREGATION_BUCKETS} buckets in all (the sizes of their terms aggregations)`,
    )
  return { top, subs }
}

/** The body that counts one bucket's sub-aggregations: the request's query AND the bucket's value. */
export function bucketBody(
  body: Record<string, unknown>,
  field: string,
  key: unknown,
  aggs: Record<string, unknown>,
): Record<string, unknown> {
  const query = body.query ?? { match_all: {} }
  const out: Record<string, unknown> = {
    query: { bool: { must: [query], filter: [{ term: { [field]: key } }] } },
    aggs,
  }
  if (body.min_score !== undefined) out.min_score = body.min_score
  return out
}
