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

import { hotColumnStatements } from './hot-columns'
import { prebuiltPresent, prebuiltStatements } from './prebuilt'

/** Fields with more distinct values than this are counted in SQL (not kept in memory). */
export const MAX_FACET_VALUES = 5000

/**
 * The field name of the row that says "a build is present" ('' is never a document field): with it,
 * a field missing from search_posting_fields has no values at all (an empty facet), not "unknown".
 */
const BUILT = ''

/** The postings are built in this many statements, each over a share of the fields. */
const POSTINGS_SHARES = 4

/**
 * The statements that (re)build the persisted postings from search_terms, and with them what the
 * first request of the new version would build (prebuilt.ts: category listings, vocabulary;
 * hot-columns.ts: the hot columns' stored parts). Run
 * them after the catalogue's index rows are written, in one batch or one after another: every
 * statement leaves the tables in a state a reader can trust or recognises as unfinished, so a build
 * that stops half-way, or a product write landing between two of its statements, never makes a
 * reader use a partial build.
 *
 * - A write of the index empties the tables (triggers), so every row present was built from the
 *   index as it is now.
 * - The row that says a build is present comes last, and only when the fields listed are every
 *   field of search_terms and the postings hold every value of the fields kept: after a write that
 *   emptied the tables half-way, it is not written and readers group the terms themselves.
 * - Rows are replaced, not added, so two builds running at once write the same rows.
 */
export function facetPostingsStatements(db: D1Database): D1PreparedStatement[] {
  return [
    ...prebuiltStatements(db),
    ...hotColumnStatements(db),
    db.prepare('DELETE FROM search_postings'),
    db.prepare('DELETE FROM search_posting_fields'),
    db.prepare(
      `INSERT OR REPLACE INTO search_posting_fields (field, n_values) SELECT field, COUNT(*) FROM (SELECT DISTINCT field, value FROM search_terms WHERE field <> '${BUILT}') GROUP BY field`,
    ),
    // Each id as its difference from the previous one of its value (a third of the text of the ids
    // at 100,000 products). SQLite does not promise the order in which an aggregate sees its rows, so
    // the count and the sum of the ids are stored too and the reader checks them (readGaps). One
    // statement per share of the fields (by their rank in name order), so no one statement holds
    // the database for the whole catalogue's postings.
    ...Array.from({ length: POSTINGS_SHARES }, (_, share) =>
      db.prepare(
        `INSERT OR REPLACE INTO search_postings (field, value, n, id_sum, gaps) SELECT field, value, COUNT(*), SUM(product_id), json_group_array(gap) FROM (SELECT t.field AS field, t.value AS value, t.product_id AS product_id, t.product_id - COALESCE(LAG(t.product_id) OVER (PARTITION BY t.field, t.value ORDER BY t.product_id), 0) AS gap FROM search_posting_fields pf CROSS JOIN search_terms t ON t.field = pf.field WHERE pf.field <> '${BUILT}' AND pf.n_values <= ${MAX_FACET_VALUES} AND (SELECT COUNT(*) FROM search_posting_fields p2 WHERE p2.field <> '${BUILT}' AND p2.field < pf.field) % ${POSTINGS_SHARES} = ${share} ORDER BY t.field, t.value, t.product_id) GROUP BY field, value`,
      ),
    ),
    db.prepare(
      `INSERT OR REPLACE INTO search_posting_fields (field, n_values) SELECT '${BUILT}', 0 WHERE (SELECT COUNT(*) FROM search_posting_fields WHERE field <> '${BUILT}') = (SELECT COUNT(DISTINCT field) FROM search_terms WHERE field <> '${BUILT}') AND (SELECT COUNT(*) FROM search_postings) = (SELECT COALESCE(SUM(n_values), 0) FROM search_posting_fields WHERE field <> '${BUILT}' AND n_values <= ${MAX_FACET_VALUES})`,
    ),
  ]
}

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
    db.prepare("SELECT value FROM search_meta WHERE key = 'version'"),
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
  const version = Number((meta?.results[0] as { value?: number } | undefined)?.value ?? 0)
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

/**
 * The scheduled rebuild: when a product write outside the catalogue writer (a back-office edit)
 * dropped the postings or the pre-built listings and vocabulary, builds them all again from the
 * index of this moment, so no shopper's request has to. Answers whether it rebuilt.
 */
export async function rebuildMissingPostings(env: Pick<Env, 'DB'>): Promise<'rebuilt' | 'present'> {
  if (await prebuiltPresent(env.DB)) return 'present'
  // One statement at a time: at 100,000 products the whole build takes tens of seconds of D1 time,
  // more than one call should hold; each statement leaves a state readers can trust (see above).
  for (const statement of facetPostingsStatements(env.DB)) await env.DB.batch([statement])
  return 'rebuilt'
}
