/**
 * The catalogue build: everything the catalogue writer derives from the search index after it
 * writes products, so that no shopper's request has to build it (the readers are in held/ and
 * results/prebuilt-listing.ts):
 *
 * - facet postings (migration 0110): per terms field its number of distinct values, and for the
 *   fields of at most MAX_FACET_VALUES values one row per value with its product ids ascending;
 * - pre-built category listings and the vocabulary (migration 0130: listings.ts, vocabulary.ts);
 * - the hot columns' stored parts (migration 0170: hot-columns.ts).
 *
 * `facetPostingsStatements` is the whole build: the seed and the importer run it after their
 * catalogue writes, next to the version bump; `rebuildMissingPostings` runs it from the scheduled
 * handler when a write outside the catalogue writer (a back-office edit) dropped it. Each table is
 * valid exactly while the index rows it was built from are unchanged (triggers empty it on a
 * write), and each has a row that says a build is present (BUILT), written last.
 */
import { BUILT, MAX_FACET_VALUES } from '../held/stored-builds'
import { hotColumnStatements } from './hot-columns'
import { listingStatements } from './listings'
import { fillShownPrices } from './shown-prices'
import { vocabularyStatements } from './vocabulary'

/** The postings are built in this many statements, each over a share of the fields. */
const POSTINGS_SHARES = 4

/**
 * The statements that (re)build the persisted postings from search_terms, and with them what the
 * first request of the new version would build (listings.ts: category listings; vocabulary.ts;
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
 * The scheduled rebuild: the shown prices a product write without the tax rules left out
 * (./shown-prices.ts), then, when a product write outside the catalogue writer (a back-office
 * edit) dropped the postings or the pre-built listings and vocabulary, all of them again from the
 * index of this moment, so no shopper's request has to. Answers whether it rebuilt.
 */
export async function rebuildMissingPostings(env: Pick<Env, 'DB'>): Promise<'rebuilt' | 'present'> {
  // The shown prices first: their writes drop the pre-builds, which are then built once.
  await fillShownPrices(env.DB)
  if (await prebuiltPresent(env.DB)) return 'present'
  // One statement at a time: at 100,000 products the whole build takes tens of seconds of D1 time,
  // more than one call should hold; each statement leaves a state readers can trust (see above).
  for (const statement of facetPostingsStatements(env.DB)) await env.DB.batch([statement])
  return 'rebuilt'
}

/**
 * Every pre-build statement, run after the catalogue's index rows are written (with the postings
 * build, in one batch or one after another): each listing row is built from the index in one
 * statement, and the vocabulary's closing row holds the count its parts must add up to, so a build
 * cut short, or a write landing between two statements, leaves nothing a reader would use.
 */
function prebuiltStatements(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM search_listings'),
    db.prepare('DELETE FROM search_vocabulary'),
    ...listingStatements(db),
    ...vocabularyStatements(db),
  ]
}

/** Whether a pre-build is present for both the listings and the vocabulary. */
async function prebuiltPresent(db: D1Database): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM search_posting_fields WHERE field = '${BUILT}') AND EXISTS (SELECT 1 FROM search_listings WHERE cats = '${BUILT}') AND EXISTS (SELECT 1 FROM search_vocabulary WHERE field = '${BUILT}') AS ok`,
    )
    .first<{ ok: number }>()
  return row?.ok === 1
}
