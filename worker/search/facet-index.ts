/**
 * The per-isolate facet index: postings of terms-aggregated fields, so a terms aggregation is
 * counted in one pass over the filtered ids instead of a GROUP BY in the statement. It is valid for
 * one index version.
 */
import { createMemo } from '../platform/memo'
import type { FacetPlan } from './compile-aggs'
import type { SearchPlan } from './dsl'
import { indexVersionSeen } from './index-version'
import { parseJsonColumn, type ResultRow } from './product-results'

/**
 * A terms-aggregated field's postings in compressed rows: the values of the product with dense
 * index i are `vals[offsets[i] .. offsets[i + 1])` (indexes into `values`); products whose dense
 * index is beyond `offsets` have none.
 */
interface FacetField {
  values: string[]
  offsets: Int32Array
  vals: Int32Array
}

/** Fields with more distinct values than this are counted in SQL (not kept in memory). */
const MAX_FACET_VALUES = 5000

/**
 * Per-isolate facet index for terms aggregations, valid for one index version (every statement
 * returns the version it read; a different one drops the index and the statement is re-run).
 * `dense` numbers the product ids once for all fields.
 */
interface FacetIndex {
  version: number
  dense: Map<number, number>
  fields: Map<string, FacetField | 'sql'>
}

/** Bytes the index holds: its typed arrays, value strings (2 bytes a character) and dense numbering. */
function facetIndexBytes(index: FacetIndex): number {
  let n = index.dense.size * 16
  for (const f of index.fields.values()) {
    if (f === 'sql') continue
    n += f.offsets.byteLength + f.vals.byteLength
    for (const v of f.values) n += v.length * 2
  }
  return n
}

/** One entry: the facet index of the index version this isolate last read. */
const facetCache = createMemo<FacetIndex>({
  name: 'search facet index',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 1,
  sizeOf: facetIndexBytes,
  version: indexVersionSeen,
})
const KEY = 'facets'

function currentIndex(): FacetIndex | undefined {
  return facetCache.peek(KEY)
}

/** Which terms fields the engine counts from the facet index (`fresh`: as if it were empty). */
export function facetPlanFor(plan: SearchPlan, fresh: boolean): FacetPlan {
  const fields = [...new Set(plan.aggs.filter((a) => a.kind === 'terms').map((a) => a.field))]
  const cached = fresh ? undefined : currentIndex()?.fields
  const js: string[] = []
  const load: string[] = []
  for (const f of fields) {
    const entry = cached?.get(f)
    if (entry === 'sql') continue
    if (entry) js.push(f)
    else load.push(f)
  }
  return { js, load }
}

/** Builds the fields' postings from a `fac` column and keeps those small enough in the facet index. */
function storeFacets(
  version: number,
  fields: string[],
  fac: [string, string, number[]][],
): Map<string, FacetField> {
  let index = currentIndex()
  if (!index || index.version !== version) index = { version, dense: new Map(), fields: new Map() }
  const dense = index.dense
  const grouped = new Map<string, [string, number[]][]>()
  // A field with no values at all has no postings: it is known (and empty) too.
  for (const f of fields) grouped.set(f, [])
  for (const [field, value, ids] of fac) {
    let list = grouped.get(field)
    if (!list) {
      list = []
      grouped.set(field, list)
    }
    list.push([value, ids])
    for (const id of ids) if (!dense.has(id)) dense.set(id, dense.size)
  }
  const built = new Map<string, FacetField>()
  for (const [field, postings] of grouped) {
    const n = dense.size
    const offsets = new Int32Array(n + 1)
    for (const [, ids] of postings) {
      for (const id of ids) {
        const j = (dense.get(id) as number) + 1
        offsets[j] = (offsets[j] as number) + 1
      }
    }
    for (let i = 0; i < n; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number)
    const vals = new Int32Array(offsets[n] as number)
    const fill = offsets.slice(0, n)
    postings.forEach(([, ids], vi) => {
      for (const id of ids) {
        const d = dense.get(id) as number
        vals[fill[d] as number] = vi
        fill[d] = (fill[d] as number) + 1
      }
    })
    const f: FacetField = { values: postings.map(([v]) => v), offsets, vals }
    built.set(field, f)
    index.fields.set(field, f.values.length > MAX_FACET_VALUES ? 'sql' : f)
  }
  // Stored (again) once built: stamped with the version just read, and its bytes counted anew.
  facetCache.set(KEY, index)
  return built
}

/** [field, value, count] of each field over the filtered ids (same rows as the SQL GROUP BY). */
function countFacets(fields: Map<string, FacetField>, ids: number[], dense: Map<number, number>) {
  const rows = new Int32Array(ids.length)
  ids.forEach((id, i) => {
    rows[i] = dense.get(id) ?? -1
  })
  const out: [string, string, number][] = []
  for (const [field, f] of fields) {
    const counts = new Uint32Array(f.values.length)
    const { offsets, vals } = f
    const limit = offsets.length - 1
    for (const d of rows) {
      if (d < 0 || d >= limit) continue
      const end = offsets[d + 1] as number
      for (let k = offsets[d] as number; k < end; k++) {
        const vi = vals[k] as number
        counts[vi] = (counts[vi] as number) + 1
      }
    }
    counts.forEach((n, vi) => {
      if (n > 0) out.push([field, f.values[vi] as string, n])
    })
  }
  return out
}

/** The version the facet index was built at (undefined when there is none). */
export function facetIndexVersion(): number | undefined {
  return currentIndex()?.version
}

/** Forgets the facet index unless it was built at `version`. */
export function dropFacetIndexUnless(version: number): void {
  if (currentIndex()?.version !== version) facetCache.delete(KEY)
}

/**
 * The [field, value, count] rows of the terms fields the engine counts itself, over the
 * statement's filtered ids: the fields it loaded (indexed from the statement's postings first)
 * and those already in the facet index.
 */
export function countFacetsInJs(
  version: number,
  facets: FacetPlan,
  row: ResultRow,
): [string, string, number][] {
  // Fields loaded by this statement are counted from its postings (a field with no values has none).
  const loaded =
    facets.load.length > 0
      ? storeFacets(version, facets.load, parseJsonColumn<[string, string, number[]][]>(row.fac, []))
      : new Map<string, FacetField>()
  const index = currentIndex()
  for (const f of facets.js) {
    const e = index?.fields.get(f)
    if (e && e !== 'sql') loaded.set(f, e)
  }
  return loaded.size > 0 && index
    ? countFacets(loaded, parseJsonColumn<number[]>(row.ids, []), index.dense)
    : []
}
