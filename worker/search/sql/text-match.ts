/**
 * The SQL of a full-text clause (match, multi_match): its expansions as a table, joined to the
 * words of each product, pivoted into one score per product (a keyword field is an exact-value
 * test), or the score number its products carry when it was resolved in the isolate.
 */
import { type QueryNode, SearchError } from '../dsl'
import { queryValueForms, TEXT_FIELDS } from '../semantics/facts'
import { EXACT_TOKEN_WEIGHT, MAX_QUERY_TOKENS, planTextMatch } from '../semantics/text'
import { asTerms } from './leaf-clauses'
import { type Compiled, type Compiler, leaf, param, ZERO } from './sql-expr'

/** Most words in one full-text query (each becomes a column of the scoring pivot). */
const MAX_TEXT_TOKENS = MAX_QUERY_TOKENS

export function compileMatch(node: Extract<QueryNode, { kind: 'match' }>, c: Compiler): Compiled {
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
