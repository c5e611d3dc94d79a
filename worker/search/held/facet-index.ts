/**
 * The per-isolate facet index: postings of terms-aggregated fields, so a terms aggregation is
 * counted in one pass over the field's postings instead of a GROUP BY in the statement. Each field
 * is its own memo entry, valid for the index version it was read at, and read on demand: from the
 * persisted postings (stored-builds.ts) when the catalogue writer built them, else from the
 * statement's own grouping of search_terms (the `fac` column).
 */
import { createMemo } from '../../platform/memo'
import type { SearchPlan } from '../dsl'
import { indexVersionSeen, noteIndexVersion } from './index-version'
import { MAX_FACET_VALUES, type PersistedField, readFacetPostings } from './stored-builds'

/**
 * A terms field's postings: the ids of the products holding value i are
 * `ids[starts[i] .. starts[i + 1])`, ascending. `sql`: the field has too many values to keep and is
 * counted in SQL.
 */
export type FacetField = FieldPostings | { version: number; sql: true }

/** A kept field's postings (see FacetField). */
export type FieldPostings = {
  version: number
  sql: false
  values: string[]
  starts: Int32Array
  ids: Int32Array
}

/** Most bytes of postings one isolate keeps (least recently used fields go first). */
export const FACET_INDEX_MAX_BYTES = 10 * 1024 * 1024
/** Most fields kept. */
const FACET_INDEX_MAX_FIELDS = 256

/** Heap bytes of a field: its typed arrays, and each value string with its array slot. */
function facetFieldBytes(f: FacetField): number {
  if (f.sql) return 64
  let n = 64 + f.starts.byteLength + f.ids.byteLength + 16
  for (const v of f.values) n += 8 + 16 + 2 * v.length
  return n
}

const facetCache = createMemo<FacetField>({
  name: 'search facet index',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: FACET_INDEX_MAX_FIELDS,
  maxBytes: FACET_INDEX_MAX_BYTES,
  sizeOf: facetFieldBytes,
  version: indexVersionSeen,
})

/** A field's postings from [value, ids] lists (ids ascending; sorted here when they are not). */
function buildField(version: number, postings: [string, number[]][]): FacetField {
  if (postings.length > MAX_FACET_VALUES) return { version, sql: true }
  const starts = new Int32Array(postings.length + 1)
  let total = 0
  postings.forEach(([, ids], i) => {
    starts[i] = total
    total += ids.length
  })
  starts[postings.length] = total
  const ids = new Int32Array(total)
  postings.forEach(([, list], i) => {
    const from = starts[i] as number
    ids.set(list, from)
    let sorted = true
    for (let k = 1; k < list.length; k++) if ((list[k] as number) <= (list[k - 1] as number)) sorted = false
    if (!sorted) ids.subarray(from, from + list.length).sort()
  })
  return { version, sql: false, values: postings.map(([v]) => v), starts, ids }
}

/**
 * A facet plan with the postings of its `js` fields held for the request: counting never depends on
 * the memo still having them (another field kept meanwhile may have evicted one).
 */
export interface HeldFacets extends FacetPlan {
  held: Map<string, FacetField>
}

/** Which terms fields the engine counts from the facet index (`fresh`: as if it were empty). */
export function facetPlanFor(plan: SearchPlan, fresh: boolean): HeldFacets {
  const fields = [...new Set(plan.aggs.filter((a) => a.kind === 'terms').map((a) => a.field))]
  const held = new Map<string, FacetField>()
  const js: string[] = []
  const load: string[] = []
  for (const f of fields) {
    const entry = fresh ? undefined : facetCache.peek(f)
    if (entry?.sql) continue
    if (entry) {
      js.push(f)
      held.set(f, entry)
    } else load.push(f)
  }
  return { js, load, held }
}

/**
 * Takes the fields to load from the persisted postings where the catalogue writer built them: the
 * plan that remains (fields found move to `js`, or out of both when counted in SQL; the others are
 * still loaded by the statement). The postings are kept at the version read with them.
 */
export async function loadPersistedFacets(db: D1Database, facets: HeldFacets): Promise<HeldFacets> {
  if (facets.load.length === 0) return facets
  const read = await readFacetPostings(db, facets.load)
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(read.version)
  const held = new Map(facets.held)
  const js = [...facets.js]
  const load: string[] = []
  for (const f of facets.load) {
    const persisted: PersistedField | undefined = read.fields.get(f)
    if (!persisted) {
      load.push(f)
      continue
    }
    const field = persisted.sql
      ? ({ version: read.version, sql: true } as const)
      : buildField(read.version, persisted.postings)
    facetCache.set(f, field)
    if (!field.sql) {
      js.push(f)
      held.set(f, field)
    }
  }
  return { js, load, held }
}

/** Whether every field the plan counts from memory was read at `version` (else the answer is stale). */
export function facetFieldsAt(facets: HeldFacets, version: number): boolean {
  return facets.js.every((f) => facets.held.get(f)?.version === version)
}

/** Builds the fields' postings from a `fac` column and keeps them (those small enough) in the index. */
export function storeFacets(version: number, fields: string[], fac: [string, string, number[]][]) {
  const grouped = new Map<string, [string, number[]][]>()
  // A field with no values at all has no postings: it is known (and empty) too.
  for (const f of fields) grouped.set(f, [])
  for (const [field, value, ids] of fac) grouped.get(field)?.push([value, ids])
  const built = new Map<string, FacetField>()
  for (const [field, postings] of grouped) {
    const f = buildField(version, postings)
    facetCache.set(field, f)
    built.set(field, f)
  }
  return built
}

/**
 * Whether the persisted postings list `field` as having too many values to keep (names, SKUs):
 * its values are looked up one by one instead (word-postings.ts). False when not known.
 */
export function manyValued(field: string): boolean {
  return facetCache.peek(field)?.sql === true
}

/**
 * The postings of `fields` for narrowing a statement (narrow/): from the facet index, else
 * from the persisted build (then kept in the index like an aggregated field). A field without a
 * usable build (never built, dropped by a terms write, or counted in SQL) is absent: the statement
 * then tests it itself.
 */
export async function postingsFor(db: D1Database, fields: string[]): Promise<Map<string, FieldPostings>> {
  const out = new Map<string, FieldPostings>()
  const missing: string[] = []
  for (const f of new Set(fields)) {
    const entry = facetCache.peek(f)
    if (entry && !entry.sql) out.set(f, entry)
    else if (!entry) missing.push(f)
  }
  if (missing.length === 0) return out
  const read = await readFacetPostings(db, missing)
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(read.version)
  for (const f of missing) {
    const persisted = read.fields.get(f)
    if (!persisted) continue
    const field = persisted.sql
      ? ({ version: read.version, sql: true } as const)
      : buildField(read.version, persisted.postings)
    facetCache.set(f, field)
    if (!field.sql) out.set(f, field)
  }
  return out
}

/**
 * How the terms aggregations are counted. `sql`: counted in the statement (column `aterms`).
 * `js`: the engine counts them from its per-isolate facet index over the filtered product ids
 * (column `ids`). `load`: like `js`, and the statement also returns those fields' postings (column
 * `fac`: [[field, value, [product ids]]]) to build that index. Fields in none are counted in SQL.
 */
export interface FacetPlan {
  js: string[]
  load: string[]
}
