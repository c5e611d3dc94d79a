/**
 * Facet postings persisted in D1 (migration 0110): what the engine's facet index needs per terms
 * field, built once by the catalogue writer instead of by every isolate after every import.
 *
 * - Built by `facetPostingsStatements`, which the seed and the importer run after their catalogue
 *   writes, next to the version bump: every field of search_terms is listed with its number of
 *   distinct values, and the fields with at most MAX_FACET_VALUES values get one row per value
 *   (the product ids in ascending order).
 * - Valid exactly while search_terms is unchanged: triggers empty both tables whenever a terms row
 *   is written, so a product indexed by any other path (a back-office edit) leaves no stale
 *   postings behind; the engine then groups the terms itself, as before.
 * - Read per field on demand (`readFacetPostings`), in one batch with the index version so the
 *   postings and the version come from one snapshot.
 */

/** Fields with more distinct values than this are counted in SQL (not kept in memory). */
export const MAX_FACET_VALUES = 5000

/**
 * The field name of the row that says "a build is present" ('' is never a document field): with it,
 * a field missing from search_posting_fields has no values at all (an empty facet), not "unknown".
 */
const BUILT = ''

/** The statements that (re)build the persisted postings from search_terms (run them in one batch). */
export function facetPostingsStatements(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM search_postings'),
    db.prepare('DELETE FROM search_posting_fields'),
    db.prepare(
      `INSERT INTO search_posting_fields (field, n_values) SELECT field, COUNT(*) FROM (SELECT DISTINCT field, value FROM search_terms WHERE field <> '${BUILT}') GROUP BY field`,
    ),
    db.prepare(`INSERT INTO search_posting_fields (field, n_values) VALUES ('${BUILT}', 0)`),
    // Grouped in primary-key order (field, value, product_id): each list comes out ascending; the
    // reader checks that and sorts a list that is not.
    db.prepare(
      `INSERT INTO search_postings (field, value, ids) SELECT t.field, t.value, json_group_array(t.product_id) FROM search_posting_fields pf CROSS JOIN search_terms t ON t.field = pf.field WHERE pf.n_values <= ${MAX_FACET_VALUES} GROUP BY t.field, t.value`,
    ),
  ]
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
    db.prepare("SELECT value FROM search_meta WHERE key = 'version'"),
    db
      .prepare(
        'SELECT pf.field AS field, pf.n_values AS n FROM json_each(?1) j CROSS JOIN search_posting_fields pf ON pf.field = j.value',
      )
      .bind(list),
    db
      .prepare(
        `SELECT p.field AS field, p.value AS value, p.ids AS ids FROM json_each(?1) j CROSS JOIN search_posting_fields pf ON pf.field = j.value AND pf.n_values <= ${MAX_FACET_VALUES} CROSS JOIN search_postings p ON p.field = pf.field`,
      )
      .bind(list),
  ])
  const version = Number((meta?.results[0] as { value?: number } | undefined)?.value ?? 0)
  const out = new Map<string, PersistedField>()
  const listed = (built?.results ?? []) as { field: string; n: number }[]
  if (!listed.some((r) => r.field === BUILT)) return { version, fields: out }
  for (const f of fields) out.set(f, { sql: false, postings: [] })
  for (const r of listed)
    if (r.field !== BUILT)
      out.set(r.field, r.n > MAX_FACET_VALUES ? { sql: true } : { sql: false, postings: [] })
  for (const r of (rows?.results ?? []) as { field: string; value: string; ids: string }[]) {
    const f = out.get(r.field)
    if (f && !f.sql) f.postings.push([r.value, JSON.parse(r.ids) as number[]])
  }
  return { version, fields: out }
}
