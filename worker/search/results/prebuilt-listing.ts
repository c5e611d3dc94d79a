/**
 * Reading a pre-built category listing (builds/listings.ts) with the page it is asked for, in one
 * batch with the index version; used only at that version. A row is checked on read: its ids must
 * add up to the stored count, sum and rank-weighted sum and be distinct, else it is not used (the
 * statement answers).
 */
import type { SearchPlan } from '../dsl'
import { versionOf, versionRead } from '../held/index-version'
import { BUILT } from '../held/stored-builds'
import { pageFetchSql } from '../sql/page'
import { listingShape } from './listing'

/** A listing's ids in result order, or null when they do not add up to the stored checks. */
function readListingIds(gaps: string, n: number, idSum: number, rankSum: number): number[] | null {
  const ids = JSON.parse(gaps) as unknown
  if (!Array.isArray(ids) || ids.length !== n) return null
  const seen = new Set<number>()
  let id = 0
  let sum = 0
  let ranked = 0
  for (let i = 0; i < ids.length; i++) {
    const gap = ids[i]
    if (typeof gap !== 'number' || !Number.isSafeInteger(gap)) return null
    id += gap
    if (id <= 0 || seen.has(id)) return null
    seen.add(id)
    ids[i] = id
    sum += id
    ranked += (i + 1) * id
  }
  return sum === idSum && ranked === rankSum ? (ids as number[]) : null
}

/**
 * The page of a stored listing in the same batch as the listing itself (one round trip): the ids at
 * positions [?2, ?3) of the row under ?1, added up from its differences, then the engine's own page
 * read (documents and live stock, always: no clock is held for a page not yet listed) over them.
 * Only the differences before the page's end are added up, and the page's ids are listed once
 * (materialized) for both uses: a first page costs a few dozen additions, not one per listed product.
 */
const LISTING_PAGE_SQL = `WITH lp AS MATERIALIZED (SELECT j.key AS k, SUM(j.value) OVER (ORDER BY j.key ROWS UNBOUNDED PRECEDING) AS id FROM search_listings l CROSS JOIN json_each(l.gaps) j WHERE l.cats = ?1 AND j.key < ?3),
lpj AS MATERIALIZED (SELECT json_group_array(id) AS ids FROM (SELECT id FROM lp WHERE k >= ?2 ORDER BY k))
${pageFetchSql('(SELECT ids FROM lpj)', '(SELECT ids FROM lpj)', 'NULL')}`

/** A pre-built listing as the engine's result set, with the statement-shaped aggregation columns. */
interface PrebuiltListing {
  version: number
  ids: Int32Array
  scores: Float64Array
  total: number
  maxScore: number | null
  /** `a0..aN` and `aterms`, as the engine's statement returns them. */
  row: Record<string, string | number | null>
  /** The requested page's documents and live stock, read with the row (the engine's page read). */
  page: Record<string, string | number | null> | null
}

/**
 * The pre-built listing stored under `key` and the index version it was read at (one snapshot), or
 * null when there is no build, the build is for another listing shape, or the row does not check out.
 */
export async function readPrebuiltListing(
  db: D1Database,
  key: string,
  plan: SearchPlan,
): Promise<PrebuiltListing | null> {
  const [meta, rows, pageRows] = await db.batch<Record<string, unknown>>([
    versionRead(db),
    db
      .prepare(
        `SELECT cats, total, n, id_sum AS s, rank_sum AS rs, gaps, min_score AS lo, max_score AS hi, aggs, aterms FROM search_listings WHERE cats IN ('${BUILT}', ?1)`,
      )
      .bind(key),
    db.prepare(LISTING_PAGE_SQL).bind(key, plan.from, plan.from + plan.size),
  ])
  const version = versionOf(meta)
  const found = (rows?.results ?? []) as {
    cats: string
    total: number
    n: number
    s: number
    rs: number
    gaps: string
    lo: number | null
    hi: number | null
    aggs: string
    aterms: string
  }[]
  const built = found.find((r) => r.cats === BUILT)
  const row = found.find((r) => r.cats === key)
  if (!built || built.aggs !== listingShape() || !row) return null
  // Every match has the same score in a listing without text; anything else is not this listing.
  if (row.lo !== row.hi || row.total < row.n) return null
  const ids = readListingIds(row.gaps, row.n, row.s, row.rs)
  const aggs = JSON.parse(row.aggs) as unknown
  if (!ids || !Array.isArray(aggs) || aggs.length !== plan.aggs.length) return null
  const cols: Record<string, string | number | null> = { aterms: row.aterms }
  aggs.forEach((v, i) => {
    cols[`a${i}`] = Array.isArray(v) ? JSON.stringify(v) : (v as number | null)
  })
  return {
    version,
    ids: Int32Array.from(ids),
    scores: new Float64Array(ids.length).fill(row.lo ?? 0),
    total: row.total,
    maxScore: row.hi,
    row: cols,
    page: (pageRows?.results[0] as Record<string, string | number | null> | undefined) ?? null,
  }
}
