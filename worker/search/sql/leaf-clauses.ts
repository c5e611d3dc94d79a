/** The SQL of the leaf clauses (terms, range, exists, prefix, match_phrase): a test and a score each. */
import { type QueryNode, rangeBounds, SearchError } from '../dsl'
import { fieldTokens, hotColumn, IN_STOCK_FIELD, queryValueForms, TEXT_FIELDS } from '../semantics/facts'
import { EXACT_TOKEN_WEIGHT } from '../semantics/text'
import { type Compiled, type Compiler, leaf, param, valueList, ZERO } from './sql-expr'
/**
 * A terms clause: one of the values (in any of their stored forms) on the field: its hot column when
 * the product has one value there, else the facts table; live stock for the in-stock field; the
 * bit of a clause resolved before the statement.
 */
export function compileTerms(node: Extract<QueryNode, { kind: 'terms' }>, c: Compiler): Compiled {
  const p = c.params
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

/** A range clause: numeric or text bounds on the field's hot column or facts, or its resolved bit. */
export function compileRange(node: Extract<QueryNode, { kind: 'range' }>, c: Compiler): Compiled {
  const p = c.params
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
    hot && ((hot.kind === 'number' && b.mode === 'number') || (hot.kind === 'text' && b.mode === 'string'))
  const hotCond = useHot ? `d.${hot.column}` : ''
  const cond = useHot
    ? `((${hotCond} IS NOT NULL${bounds(hotCond)
        .map((x) => ` AND ${x}`)
        .join('')}) OR (${hotCond} IS NULL AND ${eav}))`
    : eav
  return { cond: leaf(cond, 11), score: param(c, node.boost) }
}

/** An exists clause: any value of the field or of a field under it, or any word of a text field. */
export function compileExists(node: Extract<QueryNode, { kind: 'exists' }>, c: Compiler): Compiled {
  const p = c.params
  const f = p.add(node.field)
  return {
    cond: leaf(
      `(d.product_id IN (SELECT product_id FROM search_terms WHERE field = ${f} OR (field > ${p.add(`${node.field}.`)} AND field < ${p.add(`${node.field}/`)})) OR EXISTS (SELECT 1 FROM search_tokens st WHERE st.product_id = d.product_id AND st.field = ${f}))`,
      8,
    ),
    score: param(c, node.boost),
  }
}

/** A prefix clause: keyword values (and, on a text field, lower-cased words) starting with it. */
export function compilePrefix(node: Extract<QueryNode, { kind: 'prefix' }>, c: Compiler): Compiled {
  const p = c.params
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

/**
 * A match_phrase: on a text field its words at consecutive positions, on a keyword field the exact
 * value; or its resolved bit.
 */
export function compilePhrase(node: Extract<QueryNode, { kind: 'phrase' }>, c: Compiler): Compiled {
  const p = c.params
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

/** Longest match_phrase accepted (tokens). */
const MAX_PHRASE_TOKENS = 10

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

/** A clause compiled as the terms clause it amounts to (its id query is the terms clause's). */
export function asTerms(
  node: QueryNode,
  terms: Extract<QueryNode, { kind: 'terms' }>,
  c: Compiler,
): Compiled {
  const out = compileTerms(terms, c)
  const source = c.sources?.get(terms)
  if (source) c.sources?.set(node, source)
  return out
}
