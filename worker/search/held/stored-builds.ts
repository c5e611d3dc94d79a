/**
 * Reading what the catalogue build stores in D1 for the isolates (builds/catalogue-build.ts): the
 * facet postings, per field on demand, in one batch with the index version so the postings and the
 * version come from one snapshot, each row checked before it is used. BUILT names the row that says
 * a build is present, in every stored table.
 */
import { versionOf, versionRead } from './index-version'
/** Fields with more distinct values than this are counted in SQL (not kept in memory). */
export const MAX_FACET_VALUES = 5000

/**
 * The field name of the row that says "a build is present" ('' is never a document field): with it,
 * a field missing from search_posting_fields has no values at all (an empty facet), not "unknown".
 */
export const BUILT = ''

/**
 * The ascending ids of a stored row (`gaps`: JSON differences), or null when they do not add up to
 * the stored count and sum, or are not ascending (the row is then not used).
 */
export function readGaps(gaps: string, n: number, idSum: number): number[] | null {
  const ids = JSON.parse(gaps) as number[]
  if (!Array.isArray(ids) || ids.length !== n) return null
  let id = 0
  let sum = 0
  for (let i = 0; i < ids.length; i++) {
    const gap = ids[i] as number
    if (!Number.isSafeInteger(gap) || (i > 0 && gap <= 0)) return null
    id += gap
    ids[i] = id
    sum += id
  }
  return sum === idSum ? ids : null
}

/** A field's persisted postings: `sql` when it has too many values, else [value, ascending ids]. */
export type PersistedField = { sql: true } | { sql: false; postings: [string, number[]][] }

/**
 * The persisted postings of `fields` and the index version they were read at (one snapshot). When
 * no build is present (never built, or a later terms write dropped it) every field is absent; when
 * one is, a field without values is present with no postings.
 */
export async function readFacetPostings(
  db: D1Database,
  fields: string[],
): Promise<{ version: number; fields: Map<string, PersistedField> }> {
  const list = JSON.stringify([BUILT, ...fields])
  const [meta, built, rows] = await db.batch<Record<string, unknown>>([
    versionRead(db),
    db
      .prepare(
        'SELECT pf.field AS field, pf.n_values AS n FROM json_each(?1) j CROSS JOIN search_posting_fields pf ON pf.field = j.value',
      )
      .bind(list),
    db
      .prepare(
        `SELECT p.field AS field, p.value AS value, p.n AS n, p.id_sum AS s, p.gaps AS gaps FROM json_each(?1) j CROSS JOIN search_posting_fields pf ON pf.field = j.value AND pf.n_values <= ${MAX_FACET_VALUES} CROSS JOIN search_postings p ON p.field = pf.field`,
      )
      .bind(list),
  ])
  const version = versionOf(meta)
  const out = new Map<string, PersistedField>()
  const listed = (built?.results ?? []) as { field: string; n: number }[]
  if (!listed.some((r) => r.field === BUILT)) return { version, fields: out }
  for (const f of fields) out.set(f, { sql: false, postings: [] })
  for (const r of listed)
    if (r.field !== BUILT)
      out.set(r.field, r.n > MAX_FACET_VALUES ? { sql: true } : { sql: false, postings: [] })
  const broken = new Set<string>()
  for (const r of (rows?.results ?? []) as {
    field: string
    value: string
    n: number
    s: number
    gaps: string
  }[]) {
    const f = out.get(r.field)
    if (!f || f.sql) continue
    const ids = readGaps(r.gaps, r.n, r.s)
    if (ids) f.postings.push([r.value, ids])
    else broken.add(r.field)
  }
  // A field with a row that does not check out is read from search_terms instead.
  for (const f of broken) out.delete(f)
  return { version, fields: out }
}
