/**
 * The SQL backend: compiles a SearchPlan over products into ONE parameterised SQLite statement on
 * the search index (migration 0002) that returns the page of hits (joined to `products.doc`), the
 * total, and every aggregation over the full filtered set. Field names and values are always bound
 * parameters (field names are additionally whitelisted by the parser); nothing user-supplied is
 * concatenated into the SQL text.
 */
import { type AggNode, type QueryNode, rangeBounds, SearchError, type SearchPlan, type SortSpec } from './dsl'
import { effectiveSort } from './evaluate-js'
import { fieldTokens, HOT_COLUMNS, hotColumn, queryValueForms, TEXT_FIELDS } from './facts'
import { EXACT_TOKEN_WEIGHT, MAX_QUERY_TOKENS, planTextMatch } from './text'

/** D1 accepts at most 100 bound parameters per statement. */
export const MAX_SQL_PARAMS = 100
/** Most words in one full-text query (each becomes a column of the scoring pivot). */
const MAX_TEXT_TOKENS = MAX_QUERY_TOKENS
/** Longest match_phrase accepted (tokens). */
const MAX_PHRASE_TOKENS = 10

/** Text-field vocabulary: field → its distinct tokens. */
export type Vocabulary = Map<string, string[]>

class Params {
  readonly values: unknown[] = []
  private readonly seen = new Map<string, number>()
  add(v: string | number | null): string {
    const key = `${typeof v}:${String(v)}`
    let i = this.seen.get(key)
    if (i === undefined) {
      this.values.push(v)
      i = this.values.length
      this.seen.set(key, i)
    }
    return `?${i}`
  }
}

interface Compiled {
  cond: string
  score: string
}

interface Compiler {
  params: Params
  ctes: string[]
  /** LEFT JOINs of text-match CTEs onto search_docs d (one row per product at most). */
  joins: string[]
  vocab: Vocabulary
}

function compile(node: QueryNode, c: Compiler): Compiled {
  const p = c.params
  switch (node.kind) {
    case 'match_all':
      return { cond: '1', score: p.add(node.boost) }
    case 'match_none':
      return { cond: '0', score: '0' }
    case 'terms': {
      const forms = [...new Set(node.values.flatMap((v) => queryValueForms(v)))]
      if (forms.length === 0) return { cond: '0', score: '0' }
      const list =
        forms.length === 1
          ? ` = ${p.add(forms[0] as string)}`
          : ` IN (SELECT value FROM json_each(${p.add(JSON.stringify(forms))}))`
      const eav = `d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${p.add(node.field)} AND value${list})`
      const hot = hotColumn(node.field)
      return {
        cond: hot?.kind === 'term' ? `(d.${hot.column}${list} OR (d.${hot.column} IS NULL AND ${eav}))` : eav,
        score: p.add(node.boost),
      }
    }
    case 'range': {
      const b = rangeBounds(node)
      const ops = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const
      const bounds = (col: string) =>
        (['gt', 'gte', 'lt', 'lte'] as const)
          .filter((k) => b[k] !== undefined)
          .map((k) => `${col} ${ops[k]} ${p.add(b[k] as number | string)}`)
      const table = b.mode === 'number' ? 'search_numbers' : 'search_terms'
      const eav = `d.product_id IN (SELECT product_id FROM ${table} WHERE field = ${p.add(node.field)}${bounds(
        'value',
      )
        .map((x) => ` AND ${x}`)
        .join('')})`
      const hot = hotColumn(node.field)
      const useHot =
        hot &&
        ((hot.kind === 'number' && b.mode === 'number') || (hot.kind === 'text' && b.mode === 'string'))
      const hotCond = useHot ? `d.${hot.column}` : ''
      const cond = useHot
        ? `((${hotCond} IS NOT NULL${bounds(hotCond)
            .map((x) => ` AND ${x}`)
            .join('')}) OR (${hotCond} IS NULL AND ${eav}))`
        : eav
      return { cond, score: p.add(node.boost) }
    }
    case 'exists': {
      const f = p.add(node.field)
      return {
        cond: `(d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${f} OR (field > ${p.add(`${node.field}.`)} AND field < ${p.add(`${node.field}/`)})) OR d.product_id IN (SELECT product_id FROM search_tokens WHERE field = ${f}))`,
        score: p.add(node.boost),
      }
    }
    case 'match':
      return compileMatch(node, c)
    case 'phrase': {
      if (!TEXT_FIELDS.has(node.field)) {
        return compile(
          { kind: 'terms', field: node.field, values: [node.query], boost: node.boost * EXACT_TOKEN_WEIGHT },
          c,
        )
      }
      const q = fieldTokens(node.field, node.query)
      if (q.length === 0) return { cond: '0', score: '0' }
      if (q.length > MAX_PHRASE_TOKENS)
        throw new SearchError(`match_phrase accepts at most ${MAX_PHRASE_TOKENS} words`)
      const f = p.add(node.field)
      const joins = q
        .slice(1)
        .map(
          (t, i) =>
            ` JOIN search_tokens t${i + 1} ON t${i + 1}.token = ${p.add(t)} AND t${i + 1}.field = ${f} AND t${i + 1}.product_id = t0.product_id AND t${i + 1}.pos = t0.pos + ${i + 1}`,
        )
        .join('')
      return {
        cond: `d.product_id IN (SELECT t0.product_id FROM search_tokens t0${joins} WHERE t0.token = ${p.add(q[0] as string)} AND t0.field = ${f})`,
        score: p.add(node.boost * EXACT_TOKEN_WEIGHT),
      }
    }
    case 'bool': {
      const conds: string[] = []
      const scores: string[] = []
      for (const ch of node.must) {
        const x = compile(ch, c)
        conds.push(x.cond)
        scores.push(x.score)
      }
      for (const ch of node.filter) conds.push(compile(ch, c).cond)
      for (const ch of node.mustNot) conds.push(`NOT (${compile(ch, c).cond})`)
      const should = node.should.map((ch) => compile(ch, c))
      for (const s of should) scores.push(`(CASE WHEN ${s.cond} THEN ${s.score} ELSE 0 END)`)
      if (node.minimumShouldMatch > 0) {
        if (node.minimumShouldMatch === 1) conds.push(`(${should.map((s) => s.cond).join(' OR ')})`)
        else {
          conds.push(
            `((${should.map((s) => `(CASE WHEN ${s.cond} THEN 1 ELSE 0 END)`).join(' + ')}) >= ${p.add(node.minimumShouldMatch)})`,
          )
        }
      }
      const sum = scores.length ? scores.join(' + ') : '0'
      return {
        cond: conds.length ? conds.map((x) => `(${x})`).join(' AND ') : '1',
        score: `(${p.add(node.boost)} * (${sum}))`,
      }
    }
    case 'function_score': {
      const q = compile(node.query, c)
      const fns = node.functions.map((fn) => {
        const w = p.add(fn.weight)
        return fn.filter ? `(CASE WHEN ${compile(fn.filter, c).cond} THEN ${w} END)` : w
      })
      let f: string
      if (fns.length === 0) f = '1'
      else {
        const anyMatched = `(${fns.map((x) => `${x} IS NOT NULL`).join(' OR ')})`
        switch (node.scoreMode) {
          case 'multiply':
            f = fns.map((x) => `COALESCE(${x}, 1)`).join(' * ')
            break
          case 'sum':
            f = `(CASE WHEN ${anyMatched} THEN ${fns.map((x) => `COALESCE(${x}, 0)`).join(' + ')} ELSE 1 END)`
            break
          case 'avg':
            f = `(CASE WHEN ${anyMatched} THEN (${fns.map((x) => `COALESCE(${x}, 0)`).join(' + ')}) * 1.0 / (${fns.map((x) => `(${x} IS NOT NULL)`).join(' + ')}) ELSE 1 END)`
            break
          case 'first':
            f = `COALESCE(${fns.join(', ')}, 1)`
            break
          case 'max':
            f = `(CASE WHEN ${anyMatched} THEN MAX(${fns.map((x) => `COALESCE(${x}, -1e308)`).join(', ')}, -1e308) ELSE 1 END)`
            break
          case 'min':
            f = `(CASE WHEN ${anyMatched} THEN MIN(${fns.map((x) => `COALESCE(${x}, 1e308)`).join(', ')}, 1e308) ELSE 1 END)`
            break
        }
      }
      if (node.maxBoost < Number.MAX_VALUE) f = `MIN(${f}, ${p.add(node.maxBoost)})`
      const qs = q.score
      let s: string
      switch (node.boostMode) {
        case 'multiply':
          s = `(${qs}) * (${f})`
          break
        case 'replace':
          s = `(${f})`
          break
        case 'sum':
          s = `(${qs}) + (${f})`
          break
        case 'avg':
          s = `((${qs}) + (${f})) / 2.0`
          break
        case 'max':
          s = `MAX(${qs}, ${f})`
          break
        case 'min':
          s = `MIN(${qs}, ${f})`
          break
      }
      const score = `(${p.add(node.boost)} * ${s})`
      const cond = node.minScore === null ? q.cond : `(${q.cond}) AND ${score} >= ${p.add(node.minScore)}`
      return { cond, score }
    }
  }
}

function compileMatch(node: Extract<QueryNode, { kind: 'match' }>, c: Compiler): Compiled {
  const p = c.params
  const only = node.fields.length === 1 ? node.fields[0] : undefined
  if (only && !TEXT_FIELDS.has(only.field)) {
    // A keyword match is an exact-value test: same answer and score as the CTE form, much cheaper.
    return compile(
      {
        kind: 'terms',
        field: only.field,
        values: [node.query],
        boost: node.boost * EXACT_TOKEN_WEIGHT * only.boost,
      },
      c,
    )
  }
  const plans = planTextMatch(node.fields, node.query, node.options, (f) => c.vocab.get(f) ?? [])
  const rows: [string, string, number, number, number][] = []
  const keywordBranches: string[] = []
  for (const plan of plans) {
    if (!plan.text) {
      const forms = queryValueForms(node.query)
      keywordBranches.push(
        `SELECT product_id, field, ${p.add(EXACT_TOKEN_WEIGHT * plan.boost)} AS fs FROM search_terms WHERE field = ${p.add(plan.field)} AND value IN (SELECT value FROM json_each(${p.add(JSON.stringify(forms))}))`,
      )
      continue
    }
    plan.tokens.forEach((qt, qi) => {
      for (const e of qt.expansions)
        rows.push([e.token, plan.field, qi, e.weight * plan.boost, plan.required])
    })
  }
  const branches = [...keywordBranches]
  if (rows.length > 0) {
    // Expansions as a real table (no JSON work per joined row), then one row per (product, field)
    // with the best weight per query token pivoted into columns w0..wN.
    const qn = Math.max(...rows.map((r) => r[2])) + 1
    if (qn > MAX_TEXT_TOKENS)
      throw new SearchError(`A full-text query may have at most ${MAX_TEXT_TOKENS} words`)
    const ex = `x${c.ctes.length}`
    c.ctes.push(
      `${ex} AS MATERIALIZED (SELECT json_extract(value, '$[0]') AS token, json_extract(value, '$[1]') AS field, json_extract(value, '$[2]') AS qi, json_extract(value, '$[3]') AS w, json_extract(value, '$[4]') AS req FROM json_each(${p.add(JSON.stringify(rows))}))`,
    )
    const ws = Array.from({ length: qn }, (_, i) => `w${i}`)
    branches.unshift(
      `SELECT product_id, field, ${ws.map((w) => `COALESCE(${w}, 0)`).join(' + ')} AS fs FROM (
        SELECT t.product_id AS product_id, t.field AS field, ${ws.map((w, i) => `MAX(CASE WHEN ${ex}.qi = ${i} THEN ${ex}.w END) AS ${w}`).join(', ')}, MAX(${ex}.req) AS req
        FROM ${ex} JOIN search_tokens t ON t.token = ${ex}.token AND t.field = ${ex}.field
        GROUP BY t.product_id, t.field
      ) WHERE ${ws.map((w) => `(${w} IS NOT NULL)`).join(' + ')} >= req`,
    )
  }
  if (branches.length === 0) return { cond: '0', score: '0' }
  const name = `m${c.ctes.length}`
  const tb = node.options.tieBreaker
  const combined = tb === 0 ? 'MAX(fs)' : `(MAX(fs) + ${c.params.add(tb)} * (SUM(fs) - MAX(fs)))`
  c.ctes.push(
    `${name} AS MATERIALIZED (SELECT product_id, ${p.add(node.boost)} * ${combined} AS score FROM (${branches.join(' UNION ALL ')}) GROUP BY product_id)`,
  )
  c.joins.push(`LEFT JOIN ${name} ON ${name}.product_id = d.product_id`)
  return { cond: `${name}.product_id IS NOT NULL`, score: `COALESCE(${name}.score, 0)` }
}

/** Every text clause's fields (to know which vocabularies a plan needs). */
export function needsVocabulary(node: QueryNode): boolean {
  switch (node.kind) {
    case 'match':
      return node.fields.some((f) => TEXT_FIELDS.has(f.field))
    case 'bool':
      return [...node.must, ...node.should, ...node.mustNot, ...node.filter].some(needsVocabulary)
    case 'function_score':
      return (
        needsVocabulary(node.query) ||
        node.functions.some((f) => f.filter !== null && needsVocabulary(f.filter))
      )
    default:
      return false
  }
}

function sortExpr(s: SortSpec, p: Params): string {
  if (s.field === '_score') return 'score'
  const agg = s.order === 'asc' ? 'MIN' : 'MAX'
  const f = p.add(s.field)
  const eav = `COALESCE((SELECT ${agg}(value) FROM search_numbers WHERE product_id = f.id AND field = ${f}), (SELECT ${agg}(value) FROM search_terms WHERE product_id = f.id AND field = ${f}))`
  const hot = hotColumn(s.field)
  // Term columns hold text, which would sort numbers as strings: only number/text columns sort.
  return hot && hot.kind !== 'term' ? `COALESCE(f.${hot.column}, ${eav})` : eav
}

const INVENTORY_JSON =
  "json_object('sku', i.sku, 'product_id', i.product_id, 'parent_sku', i.parent_sku, 'qty', i.qty, 'is_in_stock', i.is_in_stock)"

export interface CompiledSearch {
  sql: string
  params: unknown[]
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

/**
 * One statement answering a product search, returning one row: `hits` (JSON [[rank, id, score,
 * doc]], the doc embedded as JSON rather than an escaped string), `total` ([count, max score]),
 * `inv` (inventory rows of the page), `a0..aN` (terms: whether the field holds numbers; range:
 * [count per range]; min/max: number), `ver` (the index version read), and, per the facet plan,
 * `aterms` ([[field, value, count]] of the SQL-counted terms fields over the filtered set), `ids`
 * (the filtered product ids) and `fac` (postings of the fields the engine is loading).
 */
export function compileProductSearch(
  plan: SearchPlan,
  vocab: Vocabulary,
  facets: FacetPlan = { js: [], load: [] },
  opts: { fullOrder?: number } = {},
): CompiledSearch {
  const c: Compiler = { params: new Params(), ctes: [], joins: [], vocab }
  const p = c.params
  const q = compile(plan.query, c)
  const minScore = plan.minScore === null ? '' : ` WHERE score >= ${p.add(plan.minScore)}`
  const ctes = [
    ...c.ctes,
    `f AS MATERIALIZED (SELECT * FROM (SELECT d.product_id AS id, ${q.score} AS score${HOT_COLUMNS.map((h) => `, d.${h.column}`).join('')} FROM search_docs d${c.joins.map((j) => ` ${j}`).join('')} WHERE ${q.cond})${minScore})`,
  ]
  const sort = effectiveSort(plan)
  const keys = sort.map((s, i) => `${sortExpr(s, p)} AS k${i}`)
  const orderBy = (prefix: string, id: string) =>
    [
      ...sort.map((s, i) => `(${prefix}k${i} IS NULL), ${prefix}k${i} ${s.order === 'asc' ? 'ASC' : 'DESC'}`),
      `${id} ASC`,
    ].join(', ')
  const order = orderBy('', 'id')
  ctes.push(
    `pg AS MATERIALIZED (SELECT * FROM (SELECT id, score${keys.map((k) => `, ${k}`).join('')} FROM f) ORDER BY ${order} LIMIT ${p.add(plan.size)} OFFSET ${p.add(plan.from)})`,
  )
  // D1 caps compound SELECTs at a few terms, so the answer is ONE row whose columns are JSON:
  // hits, total, live inventory, then one column per aggregation.
  const cols = [
    `(SELECT json_group_array(json_array(h.rk, h.id, h.score, json(h.doc))) FROM (SELECT row_number() OVER (ORDER BY ${orderBy('pg.', 'pg.id')}) AS rk, pg.id AS id, pg.score AS score, p.doc AS doc FROM pg CROSS JOIN products p ON p.id = pg.id) h) AS hits`,
    `(SELECT json_array(COUNT(*), MAX(score)) FROM f) AS total`,
    // Live stock of the page's products and their configurable children (merged into the docs).
    // CROSS JOIN keeps the page (at most `size` rows) as the outer loop: without it SQLite may
    // scan every product row and probe the page (10 ms+ at 10,000 products).
    `(SELECT json_group_array(${INVENTORY_JSON}) FROM (SELECT sd.sku AS s FROM pg CROSS JOIN search_docs sd ON sd.product_id = pg.id) x CROSS JOIN inventory i ON i.sku = x.s OR i.parent_sku = x.s) AS inv`,
  ]
  plan.aggs.forEach((agg: AggNode, i) => {
    const fld = p.add(agg.field)
    const hot = hotColumn(agg.field)
    const hotNum = hot?.kind === 'number' ? `f.${hot.column}` : null
    if (agg.kind === 'terms') {
      // Counted in one shared pass below.
      cols.push(`EXISTS (SELECT 1 FROM search_numbers WHERE field = ${fld}) AS a${i}`)
    } else if (agg.kind === 'range') {
      // One pass over f: a product counts in a range when any of its values lies in [from, to).
      const counts = agg.ranges.map((r) => {
        const test = (col: string) =>
          [
            r.from !== undefined ? `${col} >= ${p.add(r.from)}` : '',
            r.to !== undefined ? `${col} < ${p.add(r.to)}` : '',
          ]
            .filter(Boolean)
            .join(' AND ') || '1'
        const eav = `EXISTS (SELECT 1 FROM search_numbers n WHERE n.product_id = f.id AND n.field = ${fld} AND ${test('n.value')})`
        const cond = hotNum
          ? `((${hotNum} IS NOT NULL AND ${test(hotNum)}) OR (${hotNum} IS NULL AND ${eav}))`
          : eav
        return `COUNT(CASE WHEN ${cond} THEN 1 END)`
      })
      cols.push(`(SELECT json_array(${counts.join(', ')}) FROM f) AS a${i}`)
    } else {
      const fn = agg.kind === 'min' ? 'MIN' : 'MAX'
      const eav = `(SELECT ${fn}(n.value) FROM search_numbers n WHERE n.product_id = f.id AND n.field = ${fld})`
      cols.push(`(SELECT ${fn}(${hotNum ? `COALESCE(${hotNum}, ${eav})` : eav}) FROM f) AS a${i}`)
    }
  })
  const inJs = new Set([...facets.js, ...facets.load])
  const allTermFields = [...new Set(plan.aggs.filter((a) => a.kind === 'terms').map((a) => a.field))]
  const termFields = allTermFields.filter((f) => !inJs.has(f))
  if (allTermFields.some((f) => inJs.has(f))) {
    // The filtered set's ids: the engine counts these fields from its facet index (one pass in JS
    // instead of a GROUP BY over every (product, value) row of the set).
    cols.push('(SELECT json_group_array(id) FROM f) AS ids')
  }
  const load = facets.load.filter((f) => allTermFields.includes(f))
  if (load.length > 0) {
    // Postings of the fields the engine has not indexed yet (read in primary-key order, no sort).
    cols.push(
      `(SELECT json_group_array(json_array(field, value, json(ids))) FROM (SELECT field, value, json_group_array(product_id) AS ids FROM search_terms WHERE field IN (${load.map((f) => p.add(f)).join(', ')}) GROUP BY field, value)) AS fac`,
    )
  }
  if (opts.fullOrder) {
    // The first `fullOrder` matches in result order ([[rank, id, score]]; no page can start past
    // the result window): the engine's result-set cache serves the following pages of this query
    // from it while the index version is unchanged.
    const allKeys = sort.map((s, i) => `${sortExpr(s, p)} AS k${i}`)
    cols.push(
      `(SELECT json_group_array(json_array(o.rk, o.id, o.score)) FROM (SELECT row_number() OVER (ORDER BY ${order}) AS rk, id, score FROM (SELECT id, score${allKeys.map((k) => `, ${k}`).join('')} FROM f)) o WHERE o.rk <= ${p.add(opts.fullOrder)}) AS ord`,
    )
  }
  // The index version the answer was read at (per-isolate caches check it).
  cols.push("(SELECT value FROM search_meta WHERE key = 'version') AS ver")
  if (termFields.length > 0) {
    // Every terms aggregation in ONE pass: f stays the outer loop (CROSS JOIN) and each matching
    // product's values of all the aggregated fields are read with one index range per field; the
    // top-N per aggregation is taken when the answer is assembled.
    cols.push(
      `(SELECT json_group_array(json_array(b.field, b.value, b.cnt)) FROM (SELECT t.field AS field, t.value AS value, COUNT(*) AS cnt FROM f CROSS JOIN search_terms t ON t.product_id = f.id AND t.field IN (${termFields.map((f) => p.add(f)).join(', ')}) GROUP BY t.field, t.value) b) AS aterms`,
    )
  }
  const sql = `WITH ${ctes.join(',\n')}\nSELECT ${cols.join(',\n')}`
  if (p.values.length > MAX_SQL_PARAMS) {
    throw new SearchError(`Query is too complex (it needs more than ${MAX_SQL_PARAMS} distinct values)`)
  }
  return { sql, params: p.values }
}

/**
 * One page of a cached result set: the documents of the ids in ?1 (JSON array; the engine already
 * holds the others) as `hits` ([[position, id, null, doc]]), the live inventory of every page id
 * in ?2 (`inv`) and the index version (`ver`).
 */
export const PAGE_FETCH_SQL = `SELECT (SELECT json_group_array(json_array(j.key, p.id, NULL, json(p.doc))) FROM json_each(?1) j CROSS JOIN products p ON p.id = j.value) AS hits,
(SELECT json_group_array(${INVENTORY_JSON}) FROM json_each(?2) j CROSS JOIN search_docs sd ON sd.product_id = j.value CROSS JOIN inventory i ON i.sku = sd.sku OR i.parent_sku = sd.sku) AS inv,
(SELECT value FROM search_meta WHERE key = 'version') AS ver`
