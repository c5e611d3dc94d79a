/**
 * Terms aggregations counted in the isolate: one pass over each field's postings (held/facet-index.ts)
 * against the statement's matching ids, instead of a GROUP BY in the statement.
 */
import { type FacetField, type HeldFacets, storeFacets } from '../held/facet-index'
import { parseJsonColumn, type ResultRow } from './product-results'

/** [field, value, count] of each field over the filtered ids (same rows as the SQL GROUP BY). */
function countFacets(fields: Map<string, FacetField>, ids: number[]): [string, string, number][] {
  let max = 0
  for (const id of ids) if (id > max) max = id
  // The filtered ids as a bit set (a Set when ids are too large for one).
  const small = max < 1 << 24 && ids.every((id) => id >= 0)
  const bits = small ? new Uint32Array((max >>> 5) + 1) : null
  const set = small ? null : new Set(ids)
  if (bits) for (const id of ids) bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31))
  const out: [string, string, number][] = []
  for (const [field, f] of fields) {
    if (f.sql) continue
    const { starts, ids: all, values } = f
    for (let v = 0; v < values.length; v++) {
      let n = 0
      const end = starts[v + 1] as number
      for (let k = starts[v] as number; k < end; k++) {
        const id = all[k] as number
        if (bits ? id <= max && ((bits[id >>> 5] as number) & (1 << (id & 31))) !== 0 : set?.has(id)) n++
      }
      if (n > 0) out.push([field, values[v] as string, n])
    }
  }
  return out
}

/**
 * The [field, value, count] rows of the terms fields the engine counts itself, over the filtered
 * ids (the statement's, unless the engine listed them from the groups it matched): the fields it loaded (indexed from the statement's postings first)
 * and those already in the facet index.
 */
export function countFacetsInJs(
  version: number,
  facets: HeldFacets,
  row: ResultRow,
  ids: number[] = parseJsonColumn<number[]>(row.ids, []),
): [string, string, number][] {
  // Fields loaded by this statement are counted from its postings (a field with no values has none).
  const fields =
    facets.load.length > 0
      ? storeFacets(version, facets.load, parseJsonColumn<[string, string, number[]][]>(row.fac, []))
      : new Map<string, FacetField>()
  for (const f of facets.js) {
    const e = facets.held.get(f)
    if (e) fields.set(f, e)
  }
  return fields.size > 0 ? countFacets(fields, ids) : []
}
