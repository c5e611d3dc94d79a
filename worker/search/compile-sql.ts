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

/** D1 binds at most 100 parameters to a statement (the values past 99 share the last one). */
export const MAX_SQL_PARAMS = 100
/**
 * Longest statement compiled. D1 accepts 100,000 bytes, but statements of that size built from
 * many small subqueries exhausted the database's per-statement memory in our tests (from about
 * 80 KB on); 64 KB keeps a margin, and fits every query the other limits allow but the widest.
 */
export const MAX_SQL_BYTES = 64 * 1024
/** D1 accepts at most 32 arguments per SQL function call. */
const MAX_FUNCTION_ARGS = 32
/** D1 accepts result sets of at most 100 columns (search_docs has 10, the rest are shared values). */
export const MAX_SHARED_VALUES = 64
/** Most words in one full-text query (each becomes a column of the scoring pivot). */
const MAX_TEXT_TOKENS = MAX_QUERY_TOKENS
/** Longest match_phrase accepted (tokens). */
const MAX_PHRASE_TOKENS = 10
/**
 * SQLite (as D1 builds it) rejects expressions nested more than 100 levels. Every expression
 * carries an upper bound of its height; one that grows past this is computed once as a column of a
 * materialized pass over the index and referred to by name (height 2), leaving room for the
 * levels a clause adds on top (at most ~20 with balanced sums, ANDs and ORs).
 */
const MAX_INLINE_HEIGHT = 60
/**
 * A sub-expression a clause needs more than once is written once and referred to by name when it
 * is longer than this (shorter ones are cheaper inline): the statement stays linear in the query.
 */
const MAX_REPEATED_LENGTH = 1200

/** Text-field vocabulary: field → its distinct tokens. */
export type Vocabulary = Map<string, string[]>

/**
 * The statement's values, each bound once as ?1, ?2, … . D1 binds at most MAX_SQL_PARAMS: the
 * values past the first MAX_SQL_PARAMS - 1 go together as one JSON array in the last parameter,
 * each read back with json_extract(?100, '$[i]') (a constant expression, computed once per
 * statement). Either way the SQL text holds no value.
 */
class Params {
  readonly values: (string | number | null)[] = []
  private readonly seen = new Map<string, string>()
  add(v: string | number | null): string {
    const key = `${typeof v}:${String(v)}`
    let ref = this.seen.get(key)
    if (ref === undefined) {
      const i = this.values.length
      this.values.push(v)
      ref =
        i < MAX_SQL_PARAMS - 1
          ? `?${i + 1}`
          : `json_extract(?${MAX_SQL_PARAMS}, '$[${i - (MAX_SQL_PARAMS - 1)}]')`
      this.seen.set(key, ref)
    }
    return ref
  }
  bound(): unknown[] {
    if (this.values.length < MAX_SQL_PARAMS) return this.values
    return [
      ...this.values.slice(0, MAX_SQL_PARAMS - 1),
      JSON.stringify(this.values.slice(MAX_SQL_PARAMS - 1)),
    ]
  }
}

/**
 * A SQL expression, an upper bound of its SQLite expression-tree height, and the highest pass of
 * shared values it reads (0: none; it then reads only search_docs and the text-match joins).
 */
interface X {
  sql: string
  h: number
  pass: number
}

/** A clause compiled: whether a product matches, and its score when it does. */
interface Compiled {
  cond: X
  score: X
}

interface Compiler {
  params: Params
  ctes: string[]
  /** LEFT JOINs of text-match CTEs onto search_docs d (one row per product at most). */
  joins: { name: string; sql: string }[]
  vocab: Vocabulary
  /** Shared values per pass: passes[i] holds the columns of pass i + 1 (`<expr> AS vN`). */
  passes: string[][]
  shared: number
}

const ONE: X = { sql: '1', h: 1, pass: 0 }
const ZERO: X = { sql: '0', h: 1, pass: 0 }

function leaf(sql: string, h: number): X {
  return { sql, h, pass: 0 }
}

/** A bound value (height 2: json_extract when the values are packed). */
function param(c: Compiler, v: string | number): X {
  return leaf(c.params.add(v), 2)
}

/** An expression over parts: `h` levels above the highest part. */
function over(sql: string, parts: X[], h = 1): X {
  let mh = 0
  let pass = 0
  for (const x of parts) {
    if (x.h > mh) mh = x.h
    if (x.pass > pass) pass = x.pass
  }
  return { sql, h: mh + h, pass }
}

function bin(a: X, op: string, b: X): X {
  return over(`(${a.sql} ${op} ${b.sql})`, [a, b])
}

/** `a op b op c ...` as a balanced tree (height grows with log2 of the count, not the count). */
function balanced(items: X[], op: string, empty: X): X {
  if (items.length === 0) return empty
  if (items.length === 1) return items[0] as X
  const mid = items.length >> 1
  return bin(balanced(items.slice(0, mid), op, empty), op, balanced(items.slice(mid), op, empty))
}

/**
 * An associative multi-argument function (COALESCE, scalar MAX/MIN) over any number of
 * arguments: groups of at most MAX_FUNCTION_ARGS nest (a group of one is the argument itself, as
 * one-argument MAX/MIN would be the aggregate).
 */
function fnCall(name: string, args: X[]): X {
  if (args.length === 1) return args[0] as X
  if (args.length <= MAX_FUNCTION_ARGS) return over(`${name}(${args.map((a) => a.sql).join(', ')})`, args)
  const groups: X[] = []
  for (let i = 0; i < args.length; i += MAX_FUNCTION_ARGS)
    groups.push(fnCall(name, args.slice(i, i + MAX_FUNCTION_ARGS)))
  return fnCall(name, groups)
}

function caseWhen(cond: X, then: X, otherwise?: X): X {
  const parts = otherwise ? [cond, then, otherwise] : [cond, then]
  return over(
    `(CASE WHEN ${cond.sql} THEN ${then.sql}${otherwise ? ` ELSE ${otherwise.sql}` : ''} END)`,
    parts,
  )
}

/** Computes `x` once, as a column of a pass over the index, and refers to it by name. */
function hoist(c: Compiler, x: X): X {
  const pass = x.pass + 1
  if (c.shared >= MAX_SHARED_VALUES) {
    throw new SearchError(
      `Query is too complex (it needs more than ${MAX_SHARED_VALUES} intermediate results); use fewer nested clauses`,
    )
  }
  const name = `v${c.shared++}`
  let cols = c.passes[pass - 1]
  if (!cols) {
    cols = []
    c.passes[pass - 1] = cols
  }
  cols.push(`${x.sql} AS ${name}`)
  return { sql: `d.${name}`, h: 2, pass }
}

/** An expression that will be written more than once: hoisted when long or tall. */
function share(c: Compiler, x: X): X {
  return x.sql.length > MAX_REPEATED_LENGTH || x.h > MAX_INLINE_HEIGHT ? hoist(c, x) : x
}

/** Keeps a clause's parts within the height the enclosing clauses can build on. */
function bound(c: Compiler, r: Compiled): Compiled {
  const out = {
    cond: r.cond.h > MAX_INLINE_HEIGHT ? hoist(c, r.cond) : r.cond,
    score: r.score.h > MAX_INLINE_HEIGHT ? hoist(c, r.score) : r.score,
  }
  if (out.cond.sql.length + out.score.sql.length > MAX_SQL_BYTES) throw tooLarge()
  return out
}

function tooLarge(): SearchError {
  return new SearchError(
    `Query is too complex (it compiles to more than ${MAX_SQL_BYTES} bytes of SQL, the most the engine sends to the database)`,
  )
}

/** The values a NULL-able expression compares equal to, as ` = ?n` or ` IN (...)`. */
function valueList(c: Compiler, forms: string[]): { sql: string } {
  return forms.length === 1
    ? { sql: ` = ${c.params.add(forms[0] as string)}` }
    : { sql: ` IN (SELECT value FROM json_each(${c.params.add(JSON.stringify(forms))}))` }
}

function compile(node: QueryNode, c: Compiler): Compiled {
  return bound(c, compileNode(node, c))
}

function compileNode(node: QueryNode, c: Compiler): Compiled {
  const p = c.params
  switch (node.kind) {
    case 'match_all':
      return { cond: ONE, score: param(c, node.boost) }
    case 'match_none':
      return { cond: ZERO, score: ZERO }
    case 'terms': {
      const forms = [...new Set(node.values.flatMap((v) => queryValueForms(v)))]
      if (forms.length === 0) return { cond: ZERO, score: ZERO }
      const list = valueList(c, forms)
      const eav = `d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${p.add(node.field)} AND value${list.sql})`
      const hot = hotColumn(node.field)
      // A NULL hot column means the value is not one scalar: the facts table decides. The CASE keeps
      // the test two-valued (never NULL), so NOT (...) in must_not is exact.
      return {
        cond:
          hot?.kind === 'term'
            ? leaf(`(CASE WHEN d.${hot.column} IS NULL THEN ${eav} ELSE d.${hot.column}${list.sql} END)`, 7)
            : leaf(eav, 6),
        score: param(c, node.boost),
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
      return { cond: leaf(cond, 11), score: param(c, node.boost) }
    }
    case 'exists': {
      const f = p.add(node.field)
      return {
        cond: leaf(
          `(d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${f} OR (field > ${p.add(`${node.field}.`)} AND field < ${p.add(`${node.field}/`)})) OR d.product_id IN (SELECT product_id FROM search_tokens WHERE field = ${f}))`,
          8,
        ),
        score: param(c, node.boost),
      }
    }
    case 'match':
      return compileMatch(node, c)
    case 'phrase': {
      if (!TEXT_FIELDS.has(node.field)) {
        return compileNode(
          { kind: 'terms', field: node.field, values: [node.query], boost: node.boost * EXACT_TOKEN_WEIGHT },
          c,
        )
      }
      const q = fieldTokens(node.field, node.query)
      if (q.length === 0) return { cond: ZERO, score: ZERO }
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
        cond: leaf(
          `d.product_id IN (SELECT t0.product_id FROM search_tokens t0${joins} WHERE t0.token = ${p.add(q[0] as string)} AND t0.field = ${f})`,
          7,
        ),
        score: param(c, node.boost * EXACT_TOKEN_WEIGHT),
      }
    }
    case 'bool': {
      const conds: X[] = []
      const scores: X[] = []
      for (const ch of node.must) {
        const x = compile(ch, c)
        conds.push(x.cond)
        scores.push(x.score)
      }
      for (const ch of node.filter) conds.push(compile(ch, c).cond)
      for (const ch of node.mustNot) {
        const x = compile(ch, c).cond
        conds.push(over(`NOT (${x.sql})`, [x]))
      }
      const msm = node.minimumShouldMatch
      for (const ch of node.should) {
        const x = compile(ch, c)
        // With a minimum_should_match the clause's test is read twice (score and count).
        const cond = msm > 0 ? share(c, x.cond) : x.cond
        scores.push(caseWhen(cond, x.score, ZERO))
        if (msm > 0) conds.push(cond)
      }
      // The should tests were pushed last: fold them into one OR / count test.
      if (msm > 0) {
        const tests = conds.splice(conds.length - node.should.length)
        conds.push(
          msm === 1
            ? balanced(tests, 'OR', ZERO)
            : bin(
                balanced(
                  tests.map((t) => caseWhen(t, ONE, ZERO)),
                  '+',
                  ZERO,
                ),
                '>=',
                param(c, msm),
              ),
        )
      }
      return {
        cond: balanced(conds, 'AND', ONE),
        score: bin(param(c, node.boost), '*', balanced(scores, '+', ZERO)),
      }
    }
    case 'function_score':
      return compileFunctionScore(node, c)
  }
}

function compileFunctionScore(node: Extract<QueryNode, { kind: 'function_score' }>, c: Compiler): Compiled {
  const q = compile(node.query, c)
  // Modes other than multiply and first read each function's value more than once.
  const repeated = node.scoreMode !== 'multiply' && node.scoreMode !== 'first'
  const fns = node.functions.map((fn) => {
    const w = param(c, fn.weight)
    if (!fn.filter) return w
    const x = caseWhen(compile(fn.filter, c).cond, w)
    return repeated ? share(c, x) : x
  })
  let f: X
  if (fns.length === 0) f = ONE
  else {
    const anyMatched = () =>
      balanced(
        fns.map((x) => over(`${x.sql} IS NOT NULL`, [x])),
        'OR',
        ZERO,
      )
    const coalesced = (fallback: string) => fns.map((x) => over(`COALESCE(${x.sql}, ${fallback})`, [x]))
    const ifAny = (then: X) => caseWhen(anyMatched(), then, ONE)
    switch (node.scoreMode) {
      case 'multiply':
        f = balanced(coalesced('1'), '*', ONE)
        break
      case 'sum':
        f = ifAny(balanced(coalesced('0'), '+', ZERO))
        break
      case 'avg':
        f = ifAny(
          bin(
            bin(balanced(coalesced('0'), '+', ZERO), '*', leaf('1.0', 1)),
            '/',
            balanced(
              fns.map((x) => over(`(${x.sql} IS NOT NULL)`, [x])),
              '+',
              ZERO,
            ),
          ),
        )
        break
      case 'first':
        f = fnCall('COALESCE', [...fns, ONE])
        break
      case 'max':
        f = ifAny(fnCall('MAX', [...coalesced('-1e308'), leaf('-1e308', 1)]))
        break
      case 'min':
        f = ifAny(fnCall('MIN', [...coalesced('1e308'), leaf('1e308', 1)]))
        break
    }
  }
  if (node.maxBoost < Number.MAX_VALUE) f = fnCall('MIN', [f, param(c, node.maxBoost)])
  const qs = q.score
  let s: X
  switch (node.boostMode) {
    case 'multiply':
      s = bin(qs, '*', f)
      break
    case 'replace':
      s = f
      break
    case 'sum':
      s = bin(qs, '+', f)
      break
    case 'avg':
      s = bin(bin(qs, '+', f), '/', leaf('2.0', 1))
      break
    case 'max':
      s = fnCall('MAX', [qs, f])
      break
    case 'min':
      s = fnCall('MIN', [qs, f])
      break
  }
  let score = bin(param(c, node.boost), '*', s)
  if (node.minScore === null) return { cond: q.cond, score }
  // The score is read twice (the test and the value). A score that is not a number (NULL in SQL,
  // NaN in the in-memory backend) passes a min_score in both.
  score = share(c, score)
  const below = bin(score, '<', param(c, node.minScore))
  return { cond: bin(q.cond, 'AND', over(`NOT COALESCE(${below.sql}, 0)`, [below], 2)), score }
}

function compileMatch(node: Extract<QueryNode, { kind: 'match' }>, c: Compiler): Compiled {
  const p = c.params
  const only = node.fields.length === 1 ? node.fields[0] : undefined
  if (only && !TEXT_FIELDS.has(only.field)) {
    // A keyword match is an exact-value test: same answer and score as the CTE form, much cheaper.
    return compileNode(
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
  const keywordFields: [string, number][] = []
  for (const plan of plans) {
    if (!plan.text) {
      keywordFields.push([plan.field, EXACT_TOKEN_WEIGHT * plan.boost])
      continue
    }
    plan.tokens.forEach((qt, qi) => {
      for (const e of qt.expansions)
        rows.push([e.token, plan.field, qi, e.weight * plan.boost, plan.required])
    })
  }
  // At most two branches (D1 caps compound SELECTs at a few terms): every keyword field in one
  // exact-value lookup, every text field in one token join.
  const branches: string[] = []
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
    branches.push(
      `SELECT product_id, field, ${ws.map((w) => `COALESCE(${w}, 0)`).join(' + ')} AS fs FROM (
        SELECT t.product_id AS product_id, t.field AS field, ${ws.map((w, i) => `MAX(CASE WHEN ${ex}.qi = ${i} THEN ${ex}.w END) AS ${w}`).join(', ')}, MAX(${ex}.req) AS req
        FROM ${ex} JOIN search_tokens t ON t.token = ${ex}.token AND t.field = ${ex}.field
        GROUP BY t.product_id, t.field
      ) WHERE ${ws.map((w) => `(${w} IS NOT NULL)`).join(' + ')} >= req`,
    )
  }
  if (keywordFields.length === 1) {
    const [field, weight] = keywordFields[0] as [string, number]
    branches.push(
      `SELECT product_id, field, ${p.add(weight)} AS fs FROM search_terms WHERE field = ${p.add(field)} AND value IN (SELECT value FROM json_each(${p.add(JSON.stringify(queryValueForms(node.query)))}))`,
    )
  } else if (keywordFields.length > 1) {
    branches.push(
      `SELECT t.product_id AS product_id, t.field AS field, json_extract(k.value, '$[1]') AS fs FROM json_each(${p.add(JSON.stringify(keywordFields))}) k JOIN search_terms t ON t.field = json_extract(k.value, '$[0]') AND t.value IN (SELECT value FROM json_each(${p.add(JSON.stringify(queryValueForms(node.query)))}))`,
    )
  }
  if (branches.length === 0) return { cond: ZERO, score: ZERO }
  const name = `m${c.ctes.length}`
  const tb = node.options.tieBreaker
  const combined = tb === 0 ? 'MAX(fs)' : `(MAX(fs) + ${c.params.add(tb)} * (SUM(fs) - MAX(fs)))`
  c.ctes.push(
    `${name} AS MATERIALIZED (SELECT product_id, ${p.add(node.boost)} * ${combined} AS score FROM (${branches.join(' UNION ALL ')}) GROUP BY product_id)`,
  )
  c.joins.push({ name, sql: ` LEFT JOIN ${name} ON ${name}.product_id = d.product_id` })
  return { cond: leaf(`${name}.product_id IS NOT NULL`, 3), score: leaf(`COALESCE(${name}.score, 0)`, 3) }
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

/**
 * A JSON array of many values within the function-argument limit: up to MAX_FUNCTION_ARGS values
 * as one array, more as an array of such arrays (the reader flattens one level).
 */
function jsonArray(values: string[]): string {
  if (values.length <= MAX_FUNCTION_ARGS) return `json_array(${values.join(', ')})`
  const groups: string[] = []
  for (let i = 0; i < values.length; i += MAX_FUNCTION_ARGS)
    groups.push(`json_array(${values.slice(i, i + MAX_FUNCTION_ARGS).join(', ')})`)
  return jsonArray(groups)
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
  const c: Compiler = { params: new Params(), ctes: [], joins: [], vocab, passes: [], shared: 0 }
  const p = c.params
  const q = compile(plan.query, c)
  // A score that is not a number (NULL) passes min_score, as NaN does in the in-memory backend.
  const minScore = plan.minScore === null ? '' : ` WHERE NOT COALESCE(score < ${p.add(plan.minScore)}, 0)`
  const joins = c.joins.map((j) => j.sql).join('')
  // Shared values: pass i reads search_docs (or pass i - 1) and adds its columns; the hits are
  // selected from the last pass. Each pass is materialized so every value is computed once, and
  // joins only the text matches its columns read.
  const passes = c.passes.map((cols, i) => {
    const used = c.joins.filter((j) => cols.some((col) => col.includes(`${j.name}.`)))
    return `s${i + 1} AS MATERIALIZED (SELECT d.*, ${cols.join(', ')} FROM ${i === 0 ? 'search_docs' : `s${i}`} d${used.map((j) => j.sql).join('')})`
  })
  const base = passes.length === 0 ? 'search_docs' : `s${passes.length}`
  const ctes = [
    ...c.ctes,
    ...passes,
    `f AS MATERIALIZED (SELECT * FROM (SELECT d.product_id AS id, ${q.score.sql} AS score${HOT_COLUMNS.map((h) => `, d.${h.column}`).join('')} FROM ${base} d${joins} WHERE ${q.cond.sql})${minScore})`,
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
      cols.push(`(SELECT ${jsonArray(counts)} FROM f) AS a${i}`)
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
  const bytes = new TextEncoder().encode(sql).length
  if (bytes > MAX_SQL_BYTES) throw tooLarge()
  return { sql, params: p.bound() }
}

/**
 * One page of a cached result set: the documents of the ids in ?1 (JSON array; the engine already
 * holds the others) as `hits` ([[position, id, null, doc]]), the live inventory of every page id
 * in ?2 (`inv`) and the index version (`ver`).
 */
export const PAGE_FETCH_SQL = `SELECT (SELECT json_group_array(json_array(j.key, p.id, NULL, json(p.doc))) FROM json_each(?1) j CROSS JOIN products p ON p.id = j.value) AS hits,
(SELECT json_group_array(${INVENTORY_JSON}) FROM json_each(?2) j CROSS JOIN search_docs sd ON sd.product_id = j.value CROSS JOIN inventory i ON i.sku = sd.sku OR i.parent_sku = sd.sku) AS inv,
(SELECT value FROM search_meta WHERE key = 'version') AS ver`
