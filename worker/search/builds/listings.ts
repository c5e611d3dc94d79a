/**
 * The build of the pre-built category listings (migration 0130): for every active category, the
 * listing the category page asks for first (the category and its active descendants, no filter,
 * the default sort, the page's aggregations), with its matches in result order (at most the result
 * window), its total and its aggregations, computed from the index in one statement. The reader is
 * results/prebuilt-listing.ts; results/listing.ts says which requests such a row answers.
 */
import type { AggNode } from '../dsl'
import { BUILT } from '../held/stored-builds'
import { MAX_RESULT_WINDOW } from '../request/plan'
import { CATEGORY_FIELD, listingPlan, listingShape } from '../results/listing'
import { HOT_COLUMNS, hotColumn } from '../semantics/facts'
import { effectiveSort } from '../semantics/results'
import { inRangeBucket } from '../sql/compile-aggs'
import { compile } from '../sql/compile-where'
import { sortExpr } from '../sql/page'
import type { Compiler } from '../sql/sql-expr'
import { Params } from '../sql/sql-expr'

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
export function listingStatements(db: D1Database): D1PreparedStatement[] {
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
