/** Parsing of a request's sort (URI form or body form). */
import { MAX_SORT_FIELDS, SearchError, type SortSpec } from '../dsl'
import { checkField, isObject } from './parse-values'

/** Parses a URI sort (`updated_at:desc,position`) or a body sort (`[{price:{order:'asc'}}, 'name']`). */
export function parseSort(sort: unknown): SortSpec[] {
  if (sort === undefined || sort === null || sort === '') return []
  const out: SortSpec[] = []
  const tooMany = () => {
    if (out.length > MAX_SORT_FIELDS)
      throw new SearchError(`Too many sort fields (at most ${MAX_SORT_FIELDS})`)
  }
  const push = (field: unknown, order: unknown) => {
    const o = String(order ?? 'asc').toLowerCase()
    if (o !== 'asc' && o !== 'desc')
      throw new SearchError(`Sort order must be asc or desc, got ${String(order).slice(0, 20)}`)
    const f = checkField(field, 'sort')
    out.push({ field: f, order: o })
    tooMany()
  }
  if (typeof sort === 'string') {
    for (const part of sort.split(',')) {
      const s = part.trim()
      if (!s) continue
      const [field, order, ...rest] = s.split(':')
      if (rest.length > 0) throw new SearchError(`Malformed sort: ${s.slice(0, 60)}`)
      if (field === '_score') {
        out.push({ field: '_score', order: order === 'asc' ? 'asc' : 'desc' })
        tooMany()
      } else push(field, order)
    }
  } else {
    const items = Array.isArray(sort) ? sort : [sort]
    for (const item of items) {
      if (typeof item === 'string') {
        if (item === '_score') out.push({ field: '_score', order: 'desc' })
        else push(item, 'asc')
      } else if (isObject(item)) {
        for (const [field, spec] of Object.entries(item)) {
          if (field === '_score') {
            out.push({
              field: '_score',
              order: isObject(spec) && spec.order === 'asc' ? 'asc' : spec === 'asc' ? 'asc' : 'desc',
            })
          } else if (typeof spec === 'string') push(field, spec)
          else if (isObject(spec)) {
            for (const k of Object.keys(spec)) {
              if (!['order', 'mode', 'unmapped_type', 'missing'].includes(k))
                throw new SearchError(`Unsupported sort option: ${k.slice(0, 40)}`)
            }
            push(field, spec.order)
          } else throw new SearchError(`Malformed sort on ${field.slice(0, 60)}`)
        }
      } else throw new SearchError('Malformed sort')
    }
  }
  tooMany()
  return out
}
