/** Parsing of a request's aggregations (terms, range, min, max; searchCatalog takes terms sub-aggregations off first: sub-aggs.ts). */
import {
  type AggNode,
  MAX_AGGREGATIONS,
  MAX_RANGE_BUCKETS,
  MAX_TERMS_AGG_SIZE,
  MAX_VALUE_LENGTH,
  SearchError,
} from '../dsl'
import { checkField, isObject, num } from './parse-values'

/** A range bucket's key as Elasticsearch names it when the request gives none ("10.0-20.0", "*-5.0"). */
export function rangeKey(from?: number, to?: number): string {
  const f = (n?: number) => (n === undefined ? '*' : Number.isInteger(n) ? n.toFixed(1) : String(n))
  return `${f(from)}-${f(to)}`
}

/** Parses `aggs`/`aggregations` (terms, range, min, max; no sub-aggregations). */
export function parseAggs(a: unknown, maxTermsSize = MAX_TERMS_AGG_SIZE): AggNode[] {
  if (a === undefined || a === null) return []
  if (!isObject(a)) throw new SearchError('aggregations must be an object')
  const out: AggNode[] = []
  let rangeBuckets = 0
  for (const [name, spec] of Object.entries(a)) {
    if (out.length >= MAX_AGGREGATIONS)
      throw new SearchError(`Too many aggregations (at most ${MAX_AGGREGATIONS})`)
    if (!/^[A-Za-z0-9_.\-#]{1,100}$/.test(name))
      throw new SearchError(`Invalid aggregation name: ${name.slice(0, 40)}`)
    if (!isObject(spec)) throw new SearchError(`Malformed aggregation ${name}`)
    const types = Object.keys(spec).filter((k) => k !== 'meta')
    if (types.length !== 1) {
      throw new SearchError(
        `Aggregation ${name} must have exactly one type (sub-aggregations are not supported)`,
      )
    }
    const type = types[0] as string
    const body = spec[type]
    if (!isObject(body)) throw new SearchError(`Malformed aggregation ${name}`)
    const field = checkField(body.field, `aggregation ${name}`)
    if (type === 'terms') {
      for (const k of Object.keys(body)) {
        if (!['field', 'size', 'order', 'min_doc_count', 'shard_size'].includes(k))
          throw new SearchError(`Unsupported terms aggregation option: ${k.slice(0, 40)}`)
      }
      const size = Math.trunc(num(body.size, 'aggregation size', 10))
      if (size < 1 || size > maxTermsSize)
        throw new SearchError(`Aggregation size must be between 1 and ${maxTermsSize}`)
      out.push({ name, kind: 'terms', field, size })
    } else if (type === 'range') {
      if (!Array.isArray(body.ranges)) throw new SearchError(`range aggregation ${name} needs ranges`)
      rangeBuckets += body.ranges.length
      if (rangeBuckets > MAX_RANGE_BUCKETS)
        throw new SearchError(
          `Too many range buckets (at most ${MAX_RANGE_BUCKETS} ranges over all range aggregations)`,
        )
      for (const k of Object.keys(body)) {
        if (!['field', 'ranges', 'keyed'].includes(k))
          throw new SearchError(`Unsupported range aggregation option: ${k.slice(0, 40)}`)
      }
      const ranges = body.ranges.map((r) => {
        if (!isObject(r)) throw new SearchError(`Malformed range in aggregation ${name}`)
        const from = r.from === undefined || r.from === null ? undefined : num(r.from, 'range from', 0)
        const to = r.to === undefined || r.to === null ? undefined : num(r.to, 'range to', 0)
        if (typeof r.key === 'string' && r.key.length > MAX_VALUE_LENGTH)
          throw new SearchError(
            `A range key in aggregation ${name} is longer than ${MAX_VALUE_LENGTH} characters`,
          )
        return { key: typeof r.key === 'string' ? r.key : rangeKey(from, to), from, to }
      })
      out.push({ name, kind: 'range', field, ranges })
    } else if (type === 'min' || type === 'max') {
      out.push({ name, kind: type, field })
    } else throw new SearchError(`Unsupported aggregation type: ${type.slice(0, 40)}`)
  }
  return out
}
