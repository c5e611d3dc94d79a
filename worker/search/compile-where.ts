/**
 * Compiles a query's clause tree into SQL: for each clause, a test of whether a product matches
 * and an expression of its score, over the search index (search_docs d and the facts tables).
 */
import type { QueryNode } from './dsl'
import { rangeBounds, SearchError } from './dsl'
import { fieldTokens, hotColumn, queryValueForms, TEXT_FIELDS } from './facts'
import {
  balanced,
  bin,
  bound,
  type Compiled,
  type Compiler,
  caseWhen,
  fnCall,
  type IdSource,
  leaf,
  ONE,
  over,
  param,
  share,
  valueList,
  type X,
  ZERO,
} from './sql-expr'
import { EXACT_TOKEN_WEIGHT, MAX_QUERY_TOKENS, planTextMatch } from './text'

/** Most words in one full-text query (each becomes a column of the scoring pivot). */
const MAX_TEXT_TOKENS = MAX_QUERY_TOKENS
/** Longest match_phrase accepted (tokens). */
const MAX_PHRASE_TOKENS = 10

/** The in-stock field: filtered on live stock, never on the stock stored in the document. */
const IN_STOCK_FIELD = 'stock.is_in_stock'

/**
 * The in-stock test on live inventory, mirroring the one sellable rule (shared/domain/availability)
 * and how stock is merged into returned documents: a product with inventory rows (its own, or its
 * configurable children's) is in stock when one of them is sellable — and, for a configurable,
 * its stored flag is not switched off; a product without rows (bundle, grouped) keeps its stored
 * flag. `true` asks for in stock, `false` for out of stock; asking for both leaves the generic
 * test in charge.
 */
function liveInStock(forms: readonly string[], c: Compiler): string | null {
  const wantIn = forms.includes('true')
  const wantOut = forms.includes('false')
  if (wantIn === wantOut) return null
  const field = c.params.add(IN_STOCK_FIELD)
  const sellable = '(i.manage_stock = 0 OR (i.is_in_stock = 1 AND (i.qty > 0 OR i.backorders > 0)))'
  const rows = (extra: string) =>
    `(EXISTS (SELECT 1 FROM inventory i WHERE i.sku = d.sku${extra}) OR EXISTS (SELECT 1 FROM inventory i WHERE i.parent_sku = d.sku${extra}))`
  const stored = (v: string) =>
    `d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${field} AND value = '${v}')`
  const live = `(CASE WHEN ${rows('')} THEN (${rows(` AND ${sellable}`)} AND NOT (d.type_id = 'configurable' AND ${stored('false')})) ELSE ${stored('true')} END)`
  return wantIn ? live : `(NOT ${live} AND (${stored('true')} OR ${stored('false')}))`
}

/** A clause compiled, kept within the height and size the enclosing clauses can build on. */
export function compile(node: QueryNode, c: Compiler): Compiled {
  const out = bound(c, compileNode(node, c))
  return c.byBits?.nodes.has(node) ? perBits(out, c.byBits.cols) : out
}

/** Any reference to a row's column other than its resolved bits (`d.cm`), or to a joined table. */
const ROW_READ = /\bd\.(?!cm\b)|\b[a-z]+\d+\./

/**
 * A clause whose test and score read only the product's resolved bits, computed once per distinct
 * bits value (the statement's `kb` table) and read from there.
 */
function perBits(out: Compiled, cols: string[]): Compiled {
  if (ROW_READ.test(out.cond.sql) || ROW_READ.test(out.score.sql)) return out
  const cond = `kb${cols.length}`
  const score = `kb${cols.length + 1}`
  cols.push(`${out.cond.sql} AS ${cond}`, `${out.score.sql} AS ${score}`)
  return { cond: leaf(`d.${cond}`, 2), score: leaf(`d.${score}`, 2) }
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
      // Resolved before the statement: the visited product's bit says whether it holds a value.
      const bit = c.bits?.get(node)
      if (bit !== undefined) return { cond: leaf(`((d.cm >> ${bit}) & 1)`, 3), score: param(c, node.boost) }
      const stock = node.field === IN_STOCK_FIELD ? liveInStock(forms, c) : null
      if (stock) return { cond: leaf(stock, 9), score: param(c, node.boost) }
      const list = valueList(c, forms)
      const ids = `SELECT product_id FROM search_terms WHERE field = ${p.add(node.field)} AND value${list.sql}`
      const eav = `d.product_id IN (${ids})`
      const hot = hotColumn(node.field)
      if (!hot) c.sources?.set(node, [{ sql: ids, text: false }])
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
      // Resolved before the statement (a hot column the isolate holds): the visited product's bit.
      const bit = c.bits?.get(node)
      if (bit !== undefined) return { cond: leaf(`((d.cm >> ${bit}) & 1)`, 3), score: param(c, node.boost) }
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
          `(d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${f} OR (field > ${p.add(`${node.field}.`)} AND field < ${p.add(`${node.field}/`)})) OR EXISTS (SELECT 1 FROM search_tokens st WHERE st.product_id = d.product_id AND st.field = ${f}))`,
          8,
        ),
        score: param(c, node.boost),
      }
    }
    case 'prefix': {
      // Keyword values in [prefix, prefix + the last code point): an index range, no LIKE patterns.
      const range = (col: string, pre: string) =>
        `${col} >= ${p.add(pre)} AND ${col} < ${p.add(`${pre}\u{10FFFF}`)}`
      let cond = `d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${p.add(node.field)} AND ${range('value', node.prefix)})`
      const hot = hotColumn(node.field)
      if (hot && hot.kind !== 'number')
        cond = `(CASE WHEN d.${hot.column} IS NULL THEN ${cond} ELSE (${range(`d.${hot.column}`, node.prefix)}) END)`
      if (TEXT_FIELDS.has(node.field)) {
        const lower = node.prefix.toLowerCase()
        cond = `(${cond} OR d.product_id IN (SELECT product_id FROM search_tokens WHERE field = ${p.add(node.field)} AND ${range('token', lower)}))`
      }
      return { cond: leaf(cond, 9), score: param(c, node.boost) }
    }
    case 'match':
      return compileMatch(node, c)
    case 'phrase': {
      const bit = c.bits?.get(node)
      if (bit !== undefined)
        return { cond: leaf(`((d.cm >> ${bit}) & 1)`, 3), score: param(c, node.boost * EXACT_TOKEN_WEIGHT) }
      if (!TEXT_FIELDS.has(node.field)) {
        return asTerms(
          node,
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
      const ids = `SELECT t0.product_id FROM search_tokens t0${joins} WHERE t0.token = ${p.add(q[0] as string)} AND t0.field = ${f}`
      c.sources?.set(node, [{ sql: ids, text: true }])
      return {
        cond: leaf(`d.product_id IN (${ids})`, 7),
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

/** A clause compiled as the terms clause it amounts to (its id query is the terms clause's). */
function asTerms(node: QueryNode, terms: Extract<QueryNode, { kind: 'terms' }>, c: Compiler): Compiled {
  const out = compileNode(terms, c)
  const source = c.sources?.get(terms)
  if (source) c.sources?.set(node, source)
  return out
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
  const bit = c.bits?.get(node)
  // A keyword match resolved before the statement: the exact-value test's bit, and its score.
  if (bit !== undefined && only)
    return {
      cond: leaf(`((d.cm >> ${bit}) & 1)`, 3),
      score: param(c, node.boost * EXACT_TOKEN_WEIGHT * only.boost),
    }
  const slot = c.slots?.get(node)
  if (slot) {
    // Resolved before the statement: the visited product carries its score's number (0: no match).
    if (slot.scores.length === 0) return { cond: ZERO, score: ZERO }
    const n = `((d.cm >> ${slot.shift}) & ${2 ** slot.width - 1})`
    return {
      cond: leaf(`(${n} > 0)`, 4),
      score: leaf(
        `(CASE ${n}${slot.scores.map((s, i) => ` WHEN ${i + 1} THEN ${p.add(s)}`).join('')} ELSE 0 END)`,
        4,
      ),
    }
  }
  if (only && !TEXT_FIELDS.has(only.field)) {
    // A keyword match is an exact-value test: same answer and score as the CTE form, much cheaper.
    return asTerms(
      node,
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
  // [token, field, word, weight, words required, which listed field]: a field listed twice (e.g.
  // `name` and `name^4`) scores twice, as two fields.
  const rows: [string, string, number, number, number, number][] = []
  const keywordFields: [string, number][] = []
  for (const [pi, plan] of plans.entries()) {
    if (!plan.text) {
      keywordFields.push([plan.field, EXACT_TOKEN_WEIGHT * plan.boost])
      continue
    }
    plan.tokens.forEach((qt, qi) => {
      for (const e of qt.expansions)
        rows.push([e.token, plan.field, qi, e.weight * plan.boost, plan.required, pi])
    })
  }
  // At most two branches (D1 caps compound SELECTs at a few terms): every keyword field in one
  // exact-value lookup, every text field in one token join.
  const branches: string[] = []
  if (rows.length > 0) {
    // Expansions as a real table (no JSON work per joined row), then one row per (product, listed field)
    // with the best weight per query token pivoted into columns w0..wN.
    const qn = Math.max(...rows.map((r) => r[2])) + 1
    if (qn > MAX_TEXT_TOKENS)
      throw new SearchError(`A full-text query may have at most ${MAX_TEXT_TOKENS} words`)
    const ex = `x${c.ctes.length}`
    c.ctes.push(
      `${ex} AS MATERIALIZED (SELECT json_extract(value, '$[0]') AS token, json_extract(value, '$[1]') AS field, json_extract(value, '$[2]') AS qi, json_extract(value, '$[3]') AS w, json_extract(value, '$[4]') AS req, json_extract(value, '$[5]') AS fi FROM json_each(${p.add(JSON.stringify(rows))}))`,
    )
    const ws = Array.from({ length: qn }, (_, i) => `w${i}`)
    branches.push(
      `SELECT product_id, field, ${ws.map((w) => `COALESCE(${w}, 0)`).join(' + ')} AS fs FROM (
        SELECT t.product_id AS product_id, ${ex}.fi AS field, ${ws.map((w, i) => `MAX(CASE WHEN ${ex}.qi = ${i} THEN ${ex}.w END) AS ${w}`).join(', ')}, MAX(${ex}.req) AS req
        FROM ${ex} JOIN search_tokens t ON t.token = ${ex}.token AND t.field = ${ex}.field
        GROUP BY t.product_id, ${ex}.fi
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
  c.sources?.set(node, [{ sql: `SELECT product_id FROM ${name}`, text: true, match: name }])
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

/** Most id queries united for a disjunction (each is written into the statement again). */
const MAX_UNION_PARTS = 8

/** The union of id queries, two at a time (D1 accepts only a few terms in one compound SELECT). */
export function unionIds(parts: string[]): string {
  if (parts.length === 1) return parts[0] as string
  const mid = parts.length >> 1
  return `SELECT product_id FROM (${unionIds(parts.slice(0, mid))}) UNION SELECT product_id FROM (${unionIds(parts.slice(mid))})`
}

/**
 * The id queries whose union holds every product `node` can match (a superset), or null when the
 * clause may match any product. Built from the id queries the compiler recorded for its leaves
 * (`sources`): a conjunction is bounded by a part holding a full-text match when it has one (the
 * other parts stay tests), a disjunction by the union of all its parts.
 */
export function candidateSource(node: QueryNode, c: Compiler): IdSource[] | null {
  switch (node.kind) {
    case 'terms':
    case 'phrase':
    case 'match':
      return c.sources?.get(node) ?? null
    case 'function_score':
      return candidateSource(node.query, c)
    case 'bool': {
      const textual = (x: IdSource[] | null) => x?.some((p) => p.text) === true
      const required = [...node.must, ...node.filter].map((ch) => candidateSource(ch, c))
      let any: IdSource[] | null = null
      if (node.minimumShouldMatch > 0 && node.should.length > 0) {
        const parts = node.should.map((ch) => candidateSource(ch, c))
        const all = parts.every((x) => x !== null) ? (parts as IdSource[][]).flat() : []
        if (all.length > 0 && all.length <= MAX_UNION_PARTS) any = all
      }
      // Only a full-text part is known to be narrow; a terms list may hold most of the catalogue.
      return required.find(textual) ?? (textual(any) ? any : null)
    }
    default:
      return null
  }
}
