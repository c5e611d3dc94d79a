/**
 * What the first request of a new catalogue version would build, pre-built by the catalogue writer
 * in the same write as the facet postings (migration 0130):
 *
 * - **Category listings**: for every active category, the listing the category page asks for first
 *   (the category and its active descendants, no filter, the default sort, the page's
 *   aggregations): its matches in result order (at most the result window), its total and its
 *   aggregations. The first request of a version reads one row and one page instead of running the
 *   statement over every match and reading every facet field's postings.
 * - **Vocabulary**: the distinct tokens per text field, read as a few rows instead of grouping
 *   every token row of the catalogue.
 *
 * Rules:
 * - Valid exactly while the search index is unchanged: triggers empty a table whenever the index
 *   rows it was built from are written, so any other product write (a back-office edit) leaves no
 *   stale row behind; the engine then builds what it needs itself, as before, until the next build.
 * - Read in one batch with the index version, and used only at that version (a result set is kept
 *   stamped with the version read with it).
 * - Checked on read: the ids must add up to the stored count, sum and rank-weighted sum and be
 *   distinct; the vocabulary's parts must hold their stated counts in ascending order. A row that
 *   does not check out is not used.
 * - A listing row is used only for the exact query it was built for: the reader compiles the
 *   default listing of the same categories and compares its cache key with the request's.
 */
import { listingParams } from '@shared/components/catalog/listing-query'
import { EMPTY_LISTING_STATE } from '@shared/components/catalog/listing-state'
import { PAGE_SIZE } from '@shared/config/catalog'
import { buildCatalogQuery } from '@shared/domain/search-query'
import { inRangeBucket } from './compile-aggs'
import { PAGE_FETCH_SQL, sortExpr } from './compile-sql'
import { compile } from './compile-where'
import type { AggNode, QueryNode, SearchPlan } from './dsl'
import { effectiveSort } from './evaluate-js'
import { HOT_COLUMNS, hotColumn } from './facts'
import { MAX_RESULT_WINDOW, planSearch } from './plan'
import { resultKey } from './result-cache'
import { type Compiler, Params, type Vocabulary } from './sql-expr'

/** The field the category filter of a listing is on. */
const CATEGORY_FIELD = 'category_ids'
/** Most tokens in one stored vocabulary part (keeps every row far below D1's value limit). */
const TOKENS_PER_PART = 4000
/** The key of the row that says a listing build is present (never a category id list). */
const BUILT = ''

/** The plan of the category page's first listing request over `categoryIds` (no filter, default sort). */
function listingPlan(categoryIds: number[]): SearchPlan {
  const q = buildCatalogQuery(listingParams(categoryIds, EMPTY_LISTING_STATE, 0, PAGE_SIZE), {
    priceBounds: true,
  })
  return planSearch({
    entityType: 'product',
    body: q.body,
    size: q.size,
    from: q.from,
    sort: q.sort || undefined,
  })
}

let shapeKey: string | null = null
/** What every listing row was built for: the listing's cache key without a category. */
function listingShape(): string {
  shapeKey ??= resultKey(listingPlan([]))
  return shapeKey
}

/** Every terms clause on the category field in a query tree. */
function categoryClauses(node: QueryNode, out: Extract<QueryNode, { kind: 'terms' }>[]): void {
  if (node.kind === 'terms' && node.field === CATEGORY_FIELD) out.push(node)
  for (const v of Object.values(node)) {
    if (Array.isArray(v))
      for (const child of v)
        if (child && typeof child === 'object' && 'kind' in child) categoryClauses(child as QueryNode, out)
        else if (v && typeof v === 'object' && 'kind' in v) categoryClauses(v as QueryNode, out)
  }
}

/**
 * The stored key of the listing `plan` asks for, when it is a category page's default listing
 * (the ascending category ids, JSON), else null.
 */
export function prebuiltListingKey(plan: SearchPlan): string | null {
  if (plan.aggs.length === 0 || plan.minScore !== null) return null
  const clauses: Extract<QueryNode, { kind: 'terms' }>[] = []
  categoryClauses(plan.query, clauses)
  if (clauses.length !== 1) return null
  const ids = (clauses[0] as Extract<QueryNode, { kind: 'terms' }>).values
  if (ids.length === 0 || !ids.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0))
    return null
  const key = resultKey(plan)
  if (resultKey(listingPlan(ids as number[])) !== key) return null
  return JSON.stringify([...new Set(ids as number[])].sort((a, b) => a - b))
}

/**
 * Per matching product, the values an aggregation needs (columns of `g`), and per listing, the
 * aggregation's stored value from them (grouped by category): the same counts the engine's
 * statement makes over its matches.
 */
function aggregationParts(agg: AggNode, i: number, p: Params): { perProduct: string[]; perListing: string } {
  const fld = p.add(agg.field)
  const hot = hotColumn(agg.field)
  const hotNum = hot?.kind === 'number' ? `f.${hot.column}` : null
  if (agg.kind === 'terms')
    return { perProduct: [], perListing: `EXISTS (SELECT 1 FROM search_numbers WHERE field = ${fld})` }
  if (agg.kind === 'range') {
    const perProduct = agg.ranges.map(
      (r, j) => `(CASE WHEN ${inRangeBucket(r, fld, hotNum, p)} THEN 1 ELSE 0 END) AS r${i}_${j}`,
    )
    return { perProduct, perListing: `json_array(${agg.ranges.map((_, j) => `SUM(r${i}_${j})`).join(', ')})` }
  }
  const fn = agg.kind === 'min' ? 'MIN' : 'MAX'
  const eav = `(SELECT ${fn}(n.value) FROM search_numbers n WHERE n.product_id = f.id AND n.field = ${fld})`
  return {
    perProduct: [`${hotNum ? `COALESCE(${hotNum}, ${eav})` : eav} AS v${i}`],
    perListing: `${fn}(v${i})`,
  }
}

/**
 * The statements that (re)build every category's default listing from the search index and the
 * categories (run in the same batch as the postings build), or none when the listing's query is
 * one this builder does not express (then the engine answers it itself, as before).
 */
function listingStatements(db: D1Database): D1PreparedStatement[] {
  const plan = listingPlan([])
  const c: Compiler = { params: new Params(), ctes: [], joins: [], vocab: new Map(), passes: [], shared: 0 }
  const q = compile(plan.query, c)
  if (c.ctes.length > 0 || c.joins.length > 0 || c.passes.length > 0 || plan.minScore !== null) return []
  const p = c.params
  const sort = effectiveSort(plan)
  const parts = plan.aggs.map((a, i) => aggregationParts(a, i, p))
  const termFields = [...new Set(plan.aggs.filter((a) => a.kind === 'terms').map((a) => a.field))]
  const order = [
    ...sort.map((s, i) => `(g.k${i} IS NULL), g.k${i} ${s.order === 'asc' ? 'ASC' : 'DESC'}`),
    'g.id ASC',
  ].join(', ')
  const perProduct = [
    ...sort.map((s, i) => `${sortExpr(s, p)} AS k${i}`),
    ...parts.flatMap((x) => x.perProduct),
  ]
  const sql = `INSERT OR REPLACE INTO search_listings (cats, total, n, id_sum, rank_sum, gaps, min_score, max_score, aggs, aterms)
WITH RECURSIVE
tree(root, id) AS (SELECT id, id FROM categories WHERE is_active = 1 UNION SELECT tree.root, c.id FROM tree CROSS JOIN categories c ON c.parent_id = tree.id AND c.is_active = 1),
sets AS MATERIALIZED (SELECT root, json_group_array(id) AS cats FROM (SELECT root, id FROM tree ORDER BY root, id) GROUP BY root),
f AS MATERIALIZED (SELECT d.product_id AS id, ${q.score.sql} AS score${HOT_COLUMNS.map((h) => `, d.${h.column}`).join('')} FROM search_docs d WHERE ${q.cond.sql}),
g AS MATERIALIZED (SELECT f.id AS id, f.score AS score${perProduct.map((x) => `, ${x}`).join('')} FROM f),
m AS MATERIALIZED (SELECT DISTINCT tree.root AS root, t.product_id AS id FROM tree CROSS JOIN search_terms t ON t.field = ${p.add(CATEGORY_FIELD)} AND t.value = CAST(tree.id AS TEXT)),
r AS MATERIALIZED (SELECT m.root AS root, g.*, row_number() OVER (PARTITION BY m.root ORDER BY ${order}) AS rk FROM m CROSS JOIN g ON g.id = m.id),
o AS (SELECT root, COUNT(*) AS n, SUM(id) AS s, SUM(rk * id) AS rs, json_group_array(gap) AS gaps FROM (SELECT root, rk, id, id - COALESCE(LAG(id) OVER (PARTITION BY root ORDER BY rk), 0) AS gap FROM r WHERE rk <= ${p.add(MAX_RESULT_WINDOW)} ORDER BY root, rk) GROUP BY root),
a AS (SELECT root, COUNT(*) AS total, MIN(score) AS lo, MAX(score) AS hi, json_array(${parts.map((x) => x.perListing).join(', ') || "''"}) AS aggs FROM r GROUP BY root),
tc AS (SELECT root, json_group_array(json_array(field, value, cnt)) AS aterms FROM (SELECT r.root AS root, t.field AS field, t.value AS value, COUNT(*) AS cnt FROM r CROSS JOIN search_terms t ON t.product_id = r.id AND t.field IN (${termFields.map((f) => p.add(f)).join(', ') || 'NULL'}) GROUP BY r.root, t.field, t.value) GROUP BY root)
SELECT s.cats, a.total, o.n, o.s, o.rs, o.gaps, a.lo, a.hi, a.aggs, COALESCE(tc.aterms, '[]') FROM a CROSS JOIN o ON o.root = a.root CROSS JOIN sets s ON s.root = a.root LEFT JOIN tc ON tc.root = a.root`
  return [
    db.prepare(sql).bind(...p.bound()),
    db
      .prepare(
        `INSERT OR REPLACE INTO search_listings (cats, total, n, id_sum, rank_sum, gaps, aggs, aterms) VALUES ('${BUILT}', 0, 0, 0, 0, '[]', ?1, '[]')`,
      )
      .bind(listingShape()),
  ]
}

/** The statements that (re)build the stored vocabulary from search_tokens. */
function vocabularyStatements(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare(
      `INSERT OR REPLACE INTO search_vocabulary (field, part, n, tokens) SELECT field, part, COUNT(*), json_group_array(token) FROM (SELECT field, token, (row_number() OVER (PARTITION BY field ORDER BY token) - 1) / ${TOKENS_PER_PART} AS part FROM (SELECT DISTINCT field, token FROM search_tokens WHERE field <> '${BUILT}') ORDER BY field, token) GROUP BY field, part`,
    ),
    db.prepare(
      `INSERT OR REPLACE INTO search_vocabulary (field, part, n, tokens) SELECT '${BUILT}', 0, COUNT(*), '[]' FROM (SELECT DISTINCT field, token FROM search_tokens WHERE field <> '${BUILT}')`,
    ),
  ]
}

/**
 * Every pre-build statement, run after the catalogue's index rows are written (with the postings
 * build, in one batch or one after another): each listing row is built from the index in one
 * statement, and the vocabulary's closing row holds the count its parts must add up to, so a build
 * cut short, or a write landing between two statements, leaves nothing a reader would use.
 */
export function prebuiltStatements(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM search_listings'),
    db.prepare('DELETE FROM search_vocabulary'),
    ...listingStatements(db),
    ...vocabularyStatements(db),
  ]
}

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
 * read (documents and live stock) over them. Null should the page read take other parameters.
 * Only the differences before the page's end are added up, and the page's ids are listed once
 * (materialized) for both uses: a first page costs a few dozen additions, not one per listed product.
 */
const LISTING_PAGE_SQL =
  /json_each\(\?1\)/.test(PAGE_FETCH_SQL) &&
  /json_each\(\?2\)/.test(PAGE_FETCH_SQL) &&
  !/\?[3-9]/.test(PAGE_FETCH_SQL)
    ? `WITH lp AS MATERIALIZED (SELECT j.key AS k, SUM(j.value) OVER (ORDER BY j.key ROWS UNBOUNDED PRECEDING) AS id FROM search_listings l CROSS JOIN json_each(l.gaps) j WHERE l.cats = ?1 AND j.key < ?3),
lpj AS MATERIALIZED (SELECT json_group_array(id) AS ids FROM (SELECT id FROM lp WHERE k >= ?2 ORDER BY k))
${PAGE_FETCH_SQL.replaceAll('?1', '(SELECT ids FROM lpj)').replaceAll('?2', '(SELECT ids FROM lpj)')}`
    : null

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
  const reads = [
    db.prepare("SELECT value FROM search_meta WHERE key = 'version'"),
    db
      .prepare(
        `SELECT cats, total, n, id_sum AS s, rank_sum AS rs, gaps, min_score AS lo, max_score AS hi, aggs, aterms FROM search_listings WHERE cats IN ('${BUILT}', ?1)`,
      )
      .bind(key),
  ]
  if (LISTING_PAGE_SQL) reads.push(db.prepare(LISTING_PAGE_SQL).bind(key, plan.from, plan.from + plan.size))
  const [meta, rows, pageRows] = await db.batch<Record<string, unknown>>(reads)
  const version = Number((meta?.results[0] as { value?: number } | undefined)?.value ?? 0)
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

/**
 * The stored vocabulary and the index version it was read at (one snapshot), or null when there is
 * no build or a part does not check out (then the caller groups the tokens itself).
 */
export async function readPrebuiltVocabulary(
  db: D1Database,
): Promise<{ version: number; vocab: Vocabulary } | null> {
  const [meta, rows] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT value FROM search_meta WHERE key = 'version'"),
    db.prepare('SELECT field, part, n, tokens FROM search_vocabulary ORDER BY field, part'),
  ])
  const version = Number((meta?.results[0] as { value?: number } | undefined)?.value ?? 0)
  const parts = (rows?.results ?? []) as { field: string; part: number; n: number; tokens: string }[]
  const built = parts.find((r) => r.field === BUILT)
  if (!built) return null
  const vocab: Vocabulary = new Map()
  let count = 0
  for (const r of parts) {
    if (r.field === BUILT) continue
    const tokens = JSON.parse(r.tokens) as unknown
    if (!Array.isArray(tokens) || tokens.length !== r.n) return null
    let list = vocab.get(r.field)
    if (!list) {
      list = []
      vocab.set(r.field, list)
    }
    for (const t of tokens) {
      const last = list[list.length - 1]
      if (typeof t !== 'string' || (last !== undefined && !(last < t))) return null
      list.push(t)
    }
    count += tokens.length
  }
  return count === built.n ? { version, vocab } : null
}

/** Whether a pre-build is present for both the listings and the vocabulary. */
export async function prebuiltPresent(db: D1Database): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM search_posting_fields WHERE field = '${BUILT}') AND EXISTS (SELECT 1 FROM search_listings WHERE cats = '${BUILT}') AND EXISTS (SELECT 1 FROM search_vocabulary WHERE field = '${BUILT}') AS ok`,
    )
    .first<{ ok: number }>()
  return row?.ok === 1
}
