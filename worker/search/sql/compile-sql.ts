/**
 * The SQL backend: compiles a SearchPlan over products into ONE parameterised SQLite statement on
 * the search index (migration 0002) that returns the page of hits (joined to `products.doc`), the
 * total, and every aggregation over the full filtered set. Field names and values are always bound
 * parameters (field names are additionally whitelisted by the parser); nothing user-supplied is
 * concatenated into the SQL text.
 */
import type { SearchPlan } from '../dsl'
import type { FacetPlan } from '../held/facet-index'
import { VERSION_COLUMN } from '../held/index-version'
import type { Vocabulary } from '../held/vocabulary'
import type { Narrowing } from '../narrow/narrow-query'
import { bitGroups } from '../narrow/visit-list'
import { HOT_COLUMNS } from '../semantics/facts'
import { effectiveSort } from '../semantics/results'
import { candidateSource, unionIds } from './candidate-source'
import { aggregationColumns, facetColumns, termCountsColumn } from './compile-aggs'
import { compile } from './compile-where'
import { BEYOND_BITS, bitsOnlyClauses, GROUPS_TOTAL, groupMatches, groupRows } from './groups'
import { INVENTORY_JSON, STOCK_CLOCK, sortExpr } from './page'
import { type Compiler, type IdSource, MAX_SQL_BYTES, Params, tooLarge } from './sql-expr'

/** A read of a visited product's index row other than its id, bits, place and per-bits values. */
const ROW_COLUMN = /\bd\.(?!product_id\b|cm\b|pos\b|kb\d+\b)/

/**
 * The rows the filtered set is selected from: every product of `base` (d) with the text-match joins,
 * or, driven by id queries, only the products they name. When one of them is a text match (mN:
 * product_id, score), it carries the drive itself: the other ids are added to its rows with no
 * score and a NULL product_id, so `mN.product_id IS NOT NULL` and `mN.score` read exactly as through
 * the LEFT JOIN, without building an index on mN for it.
 */
function visitedRows(
  drive: IdSource[] | null,
  base: string,
  joins: Compiler['joins'],
): { from: string; test: string } {
  const all = joins.map((j) => j.sql).join('')
  if (!drive) return { from: `${base} d${all}`, test: '' }
  // Only the index has a key to look products up by; a pass over it (a CTE) is tested in place.
  const carrier = base === 'search_docs' ? drive.find((x) => x.match)?.match : undefined
  if (!carrier)
    return { from: `${base} d${all}`, test: `d.product_id IN (${unionIds(drive.map((x) => x.sql))}) AND ` }
  const rest = drive.filter((x) => x.match !== carrier).map((x) => x.sql)
  const others = joins
    .filter((j) => j.name !== carrier)
    .map((j) => j.sql)
    .join('')
  if (rest.length === 0)
    return {
      from: `${carrier} CROSS JOIN ${base} d ON d.product_id = ${carrier}.product_id${others}`,
      test: '',
    }
  const rows = `(SELECT pid, CASE WHEN MAX(hit) THEN pid END AS product_id, MAX(score) AS score FROM (SELECT product_id AS pid, 1 AS hit, score FROM ${carrier} UNION ALL SELECT product_id, 0, NULL FROM (${unionIds(rest)})) GROUP BY pid)`
  return {
    from: `${rows} ${carrier} CROSS JOIN ${base} d ON d.product_id = ${carrier}.pid${others}`,
    test: '',
  }
}

interface CompiledSearch {
  sql: string
  params: unknown[]
}

/**
 * One statement answering a product search, returning one row: `hits` (JSON [[rank, id, score,
 * doc]], the doc embedded as JSON rather than an escaped string, or null for an id in `held`),
 * `total` ([count, max score]), `inv` (inventory rows of the page), `clk` (the stock clock they
 * were read at), `a0..aN` (terms: whether the field holds numbers; range: [count per range];
 * min/max: number), `ver` (the index version read),
 * `ord` (with `fullOrder`), and, per the facet plan, `aterms` ([[field, value, count]] of the
 * SQL-counted terms fields over the filtered set), `ids` (the filtered product ids; `idbits`, the
 * bits of the matching groups, when the narrowed products are grouped) and `fac` (postings of the
 * fields the engine is loading).
 */
export function compileProductSearch(
  plan: SearchPlan,
  vocab: Vocabulary,
  facets: FacetPlan = { js: [], load: [] },
  opts: { fullOrder?: number; narrow?: Narrowing | null; held?: number[] } = {},
): CompiledSearch {
  const narrow = opts.narrow ?? null
  const c: Compiler = {
    params: new Params(),
    ctes: [],
    joins: [],
    vocab,
    passes: [],
    shared: 0,
    bits: narrow?.bits,
    slots: narrow?.slots,
    sources: new Map(),
  }
  const p = c.params
  // The narrowed products first, so their (large) list is always a parameter of its own (written
  // last, once the statement knows whether it lists them one by one or by their bits).
  const list = narrow ? p.reserve() : null
  if (narrow) c.byBits = { nodes: bitsOnlyClauses(plan.query, c), cols: [] }
  const q = compile(plan.query, c)
  const mask = narrow ? 2 ** narrow.width - 1 : 0
  const perBits = c.byBits?.cols ?? []
  // The narrowed products (cd): each one's bits (cm), its place in the list (pos) and its index
  // row, unless nothing reads the row (then the list alone is visited, see below).
  const kbJoin = perBits.length > 0 ? ` CROSS JOIN kb k ON k.cm = (j.value & ${mask})` : ''
  const visitedFrom = (withRow: boolean) =>
    narrow && list
      ? `cd AS NOT MATERIALIZED (SELECT ${withRow ? 'd.*' : `(j.value >> ${narrow.width}) AS product_id`}, (j.value & ${mask}) AS cm, j.key AS pos${perBits.map((_, i) => `, k.kb${i}`).join('')} FROM json_each(${list.ref}) j${withRow ? ` CROSS JOIN search_docs d ON d.product_id = (j.value >> ${narrow.width})` : ''}${kbJoin})`
      : ''
  const visited =
    narrow && list
      ? [
          ...(perBits.length > 0
            ? [
                `kb AS MATERIALIZED (SELECT b.cm AS cm, ${perBits.map((col) => col.replaceAll('d.cm', 'b.cm')).join(', ')} FROM (SELECT DISTINCT (value & ${mask}) AS cm FROM json_each(${list.ref})) b)`,
              ]
            : []),
          visitedFrom(true),
        ]
      : []
  const docs = narrow ? 'cd' : 'search_docs'
  // A query with a full-text part visits the products its id queries name, not the whole index
  // (the narrowed statement already visits few products).
  const source = narrow ? null : candidateSource(plan.query, c)
  const driven = source?.some((x) => x.text) ? source : null
  // A score that is not a number (NULL) passes min_score, as NaN does in the in-memory backend.
  const minScore = plan.minScore === null ? '' : ` WHERE NOT COALESCE(score < ${p.add(plan.minScore)}, 0)`
  // Shared values: pass i reads search_docs (or pass i - 1) and adds its columns; the hits are
  // selected from the last pass. Each pass is materialized so every value is computed once, and
  // joins only the text matches its columns read.
  const passes = c.passes.map((cols, i) => {
    const used = c.joins.filter((j) => cols.some((col) => col.includes(`${j.name}.`)))
    return `s${i + 1} AS MATERIALIZED (SELECT d.*, ${cols.join(', ')} FROM ${i === 0 ? docs : `s${i}`} d${used.map((j) => j.sql).join('')})`
  })
  const base = passes.length === 0 ? docs : `s${passes.length}`
  // f carries the hot columns the rest of the statement reads (sort keys, number aggregations):
  // each one carried costs a copy per match. Written last, once the rest is known.
  let carried: string[] = []
  // Narrowed products listed in the search's own order carry it as their place in the list, and
  // range aggregations counted from bits read each product's bits.
  const aggBits = narrow?.aggBits ?? new Map()
  const alsoCarried = [...(narrow?.sorted ? ['pos'] : []), ...(aggBits.size > 0 ? ['cm'] : [])]
  const filtered = (drive: IdSource[] | null) => {
    const rows = visitedRows(drive, base, c.joins)
    return `f AS MATERIALIZED (SELECT * FROM (SELECT d.product_id AS id, ${q.score.sql} AS score${[...carried, ...alsoCarried].map((col) => `, d.${col}`).join('')} FROM ${rows.from} WHERE ${rows.test}${q.cond.sql})${minScore})`
  }
  const sortKeys = effectiveSort(plan)
  const sort: { expr: string; order: 'asc' | 'desc' }[] = narrow?.sorted
    ? [{ expr: 'pos', order: 'asc' }]
    : sortKeys.map((s) => ({ expr: sortExpr(s, p), order: s.order }))
  const keys = sort.map((s, i) => `${s.expr} AS k${i}`)
  const orderBy = (prefix: string, id: string) =>
    [
      ...sort.map((s, i) => `(${prefix}k${i} IS NULL), ${prefix}k${i} ${s.order === 'asc' ? 'ASC' : 'DESC'}`),
      `${id} ASC`,
    ].join(', ')
  const order = orderBy('', 'id')
  const ranking: string[] = []
  if (opts.fullOrder) {
    // The first `fullOrder` matches ranked once (a bounded sort, not one of every match): the page
    // and the kept order (below) are both read from them, so each sort key is computed once per
    // match (keys read from the facts tables cost two lookups each).
    ranking.push(
      `o AS MATERIALIZED (SELECT row_number() OVER (ORDER BY ${order}) AS rk, * FROM (SELECT id, score${keys.map((k) => `, ${k}`).join('')} FROM f ORDER BY ${order} LIMIT ${p.add(opts.fullOrder)}))`,
      `pg AS MATERIALIZED (SELECT * FROM o WHERE rk > ${p.add(plan.from)} AND rk <= ${p.add(plan.from + plan.size)})`,
    )
  } else {
    ranking.push(
      `pg AS MATERIALIZED (SELECT * FROM (SELECT id, score${keys.map((k) => `, ${k}`).join('')} FROM f) ORDER BY ${order} LIMIT ${p.add(plan.size)} OFFSET ${p.add(plan.from)})`,
    )
  }
  // A page's documents the isolate holds are not returned (null in their place).
  const doc = opts.held?.length
    ? `CASE WHEN pg.id IN (SELECT value FROM json_each(${p.add(JSON.stringify(opts.held))})) THEN NULL ELSE p.doc END`
    : 'p.doc'
  // D1 caps compound SELECTs at a few terms, so the answer is ONE row whose columns are JSON:
  // hits, total, live inventory, then one column per aggregation, the facet-index columns, the
  // kept order and the version.
  const hits = `(SELECT json_group_array(json_array(h.rk, h.id, h.score, json(h.doc))) FROM (SELECT row_number() OVER (ORDER BY ${orderBy('pg.', 'pg.id')}) AS rk, pg.id AS id, pg.score AS score, ${doc} AS doc FROM pg CROSS JOIN products p ON p.id = pg.id) h) AS hits`
  // Live stock of the page's products and their configurable children (merged into the docs), and
  // the stock clock it was read at (a later read of the page asks for it only if the clock moved).
  // CROSS JOIN keeps the page (at most `size` rows) as the outer loop: without it SQLite may
  // scan every product row and probe the page (10 ms+ at 10,000 products).
  const inv = `(SELECT json_group_array(${INVENTORY_JSON}) FROM (SELECT sd.sku AS s FROM pg CROSS JOIN search_docs sd ON sd.product_id = pg.id) x CROSS JOIN inventory i ON i.sku = x.s OR i.parent_sku = x.s) AS inv`
  const clk = `${STOCK_CLOCK} AS clk`
  // The first `fullOrder` matches in result order ([[rank, id, score]]): the engine's result-set
  // cache serves the pages of this query within them while the index version is unchanged.
  const ord = opts.fullOrder
    ? [
        `(SELECT json_group_array(json_array(o.rk, o.id, o.score)) FROM o WHERE o.rk <= ${p.add(opts.fullOrder)}) AS ord`,
      ]
    : []
  // The columns end with the index version the answer was read at (per-isolate caches check it).
  const answerColumns = (fromGroups: boolean) => {
    const { cols: facetCols, termFields } = facetColumns(plan, facets, p, fromGroups)
    const aterms = termCountsColumn(termFields, p)
    return {
      cols: [
        hits,
        fromGroups ? GROUPS_TOTAL : '(SELECT json_array(COUNT(*), MAX(score)) FROM f) AS total',
        inv,
        clk,
        ...aggregationColumns(plan, p, aggBits, fromGroups),
        ...facetCols,
        ...ord,
        VERSION_COLUMN,
        ...(aterms ? [aterms] : []),
      ],
      termFields,
    }
  }
  const { cols, termFields } = answerColumns(false)
  carried = HOT_COLUMNS.map((h) => h.column).filter((col) =>
    new RegExp(`\\bf\\.${col}\\b`).test([...c.ctes, ...passes, ...ranking, ...cols].join('\n')),
  )
  // Visiting the list alone, without each product's index row, when every listed product has its
  // row and nothing the statement computes per product reads a column of it.
  const rowless =
    narrow?.indexed === true &&
    carried.length === 0 &&
    c.passes.length === 0 &&
    c.joins.length === 0 &&
    !ROW_COLUMN.test(`${q.cond.sql} ${q.score.sql}`)
  // Ranked by bits alone: when the test and score read nothing but the bits, the order is the
  // score's or the list's, and every aggregation is counted from bits or by the engine, the
  // statement tests and scores each group of products sharing their bits once.
  const keep = Math.max(opts.fullOrder ?? 0, plan.from + plan.size)
  const listOrder = narrow?.sorted === true
  const groups =
    narrow &&
    rowless &&
    (listOrder || sortKeys.every((s) => s.field === '_score')) &&
    termFields.length === 0 &&
    plan.aggs.every((a) => a.kind === 'terms' || (a.kind === 'range' && aggBits.has(a))) &&
    !BEYOND_BITS.test(`${q.cond.sql} ${q.score.sql}`)
      ? bitGroups(narrow, keep, listOrder)
      : null
  list?.set(groups ?? JSON.stringify(narrow?.list ?? []))
  const head =
    !narrow || !list
      ? []
      : groups
        ? [groupRows(list.ref, perBits)]
        : rowless
          ? [...visited.slice(0, -1), visitedFrom(false)]
          : visited
  const answer = groups ? answerColumns(true).cols : cols
  const statement = (drive: IdSource[] | null) => {
    const matches = groups
      ? groupMatches(q, minScore, listOrder ? undefined : sortKeys[0]?.order, p.add(keep), listOrder)
      : [filtered(drive)]
    return `WITH ${[...head, ...c.ctes, ...passes, ...matches, ...ranking].join(',\n')}\nSELECT ${answer.join(',\n')}`
  }
  let sql = statement(driven)
  let bytes = new TextEncoder().encode(sql).length
  if (bytes > MAX_SQL_BYTES && driven) {
    // The id queries repeat parts of the statement: without them it may still fit (and answers the same).
    sql = statement(null)
    bytes = new TextEncoder().encode(sql).length
  }
  if (bytes > MAX_SQL_BYTES) throw tooLarge()
  return { sql, params: p.bound() }
}
