/**
 * Which clauses of a query the isolate may resolve (its leaves), and what each needs: a field's
 * postings (an exact-value test on a keyword field), word lists (full-text clauses, SKU phrases,
 * values of fields of many values), or a hot column (a test on it). Also which fields, words and
 * hot columns a search would be narrowed with, so they are read before narrowQuery runs.
 */
import { type AggNode, clauseChildren, type QueryNode, rangeBounds, type SortSpec } from '../dsl'
import { type FieldPostings, manyValued } from '../held/facet-index'
import type { HotColumnValues } from '../held/hot-columns'
import type { Vocabulary } from '../held/vocabulary'
import type { WordSource } from '../held/word-postings'
import { fieldTokens, hotColumn, IN_STOCK_FIELD, queryValueForms, TEXT_FIELDS } from '../semantics/facts'
import { type FieldPlan, planTextMatch } from '../semantics/text'

type TermsNode = Extract<QueryNode, { kind: 'terms' }>

type PhraseNode = Extract<QueryNode, { kind: 'phrase' }>

export type MatchNode = Extract<QueryNode, { kind: 'match' }>

type RangeNode = Extract<QueryNode, { kind: 'range' }>

/** A clause that may be resolved in the isolate. */
export type Leaf = TermsNode | PhraseNode | MatchNode | RangeNode

/** Most clauses resolved (the bits of a product ride on its id in one JSON number). */
export const MAX_RESOLVED_CLAUSES = 20

/** Most value forms of one terms clause looked up word by word (a longer list stays in the statement). */
const MAX_WORD_VALUES = 8

/** Most word lists one full-text clause is resolved from. */
const MAX_MATCH_WORDS = 48

/** What the search does with its matches besides testing them: its sort and aggregations. */
export interface SearchShape {
  sort: SortSpec[]
  aggs: AggNode[]
}

/**
 * The clauses that could be resolved, in query order, at most MAX_RESOLVED_CLAUSES: those resolved
 * from postings and word lists first, then tests of hot columns (`hot`: the fields whose columns
 * are held, or 'any'), so hot tests never crowd out a clause that narrows better.
 */
export function resolvableLeaves(query: QueryNode, hot?: ReadonlySet<string> | 'any'): Leaf[] {
  const lists: Leaf[] = []
  const hotLeaves: Leaf[] = []
  const walk = (n: QueryNode) => {
    if (n.kind === 'phrase' || n.kind === 'match' || n.kind === 'terms' || n.kind === 'range') {
      const h = hotTest(n)
      if (h) {
        if (hot === 'any' || hot?.has(h.field)) hotLeaves.push(n)
      } else if (n.kind === 'phrase' || n.kind === 'match' || (n.kind === 'terms' && keywordTest(n)))
        lists.push(n)
    }
    for (const ch of clauseChildren(n)) walk(ch)
  }
  walk(query)
  return [...lists, ...hotLeaves].slice(0, MAX_RESOLVED_CLAUSES)
}

/**
 * The exact-value test a clause amounts to on a keyword field (a terms clause, a phrase or a match
 * on a keyword field, as sql/leaf-clauses.ts compiles them), or null: a full-text clause, or a test
 * the statement makes on a hot column or live stock.
 */
export function keywordTest(node: Leaf): { field: string; values: unknown[] } | null {
  const test = valueTest(node)
  if (!test || test.values.length === 0) return null
  return test.field !== IN_STOCK_FIELD && hotColumn(test.field) === undefined ? test : null
}

/** The exact-value test a terms clause, or a phrase or match on a keyword field, amounts to. */
function valueTest(node: Leaf): { field: string; values: unknown[] } | null {
  if (node.kind === 'terms') return { field: node.field, values: node.values }
  if (node.kind === 'phrase')
    return TEXT_FIELDS.has(node.field) ? null : { field: node.field, values: [node.query] }
  if (node.kind === 'match') {
    const keyword = keywordMatchField(node)
    return keyword ? { field: keyword.field, values: [node.query] } : null
  }
  return null
}

/** A test of a hot column (held/hot-columns.ts): one of the values, or numeric bounds. */
export type HotTest =
  | { field: string; values: Set<string> }
  | { field: string; bounds: { gt?: number; gte?: number; lt?: number; lte?: number } }

/**
 * The test a clause makes on a hot column, as sql/leaf-clauses.ts compiles it on a product that has a
 * value there: an exact-value test on a term column, or a numeric range (finite bounds) on a number
 * column. Null for any other clause.
 */
export function hotTest(node: Leaf): HotTest | null {
  if (node.kind === 'range') {
    if (hotColumn(node.field)?.kind !== 'number') return null
    let b: ReturnType<typeof rangeBounds>
    try {
      b = rangeBounds(node)
    } catch {
      return null
    }
    if (b.mode !== 'number') return null
    const bounds: { gt?: number; gte?: number; lt?: number; lte?: number } = {}
    for (const k of ['gt', 'gte', 'lt', 'lte'] as const) {
      const v = b[k]
      if (v === undefined) continue
      if (typeof v !== 'number' || !Number.isFinite(v)) return null
      bounds[k] = v
    }
    return { field: node.field, bounds }
  }
  const test = valueTest(node)
  if (!test || hotColumn(test.field)?.kind !== 'term') return null
  const values = new Set(test.values.flatMap((v) => queryValueForms(v)))
  return values.size > 0 ? { field: test.field, values } : null
}

/** The hot fields a search could be narrowed, sorted or counted with (to read their columns). */
export function narrowingHotFields(query: QueryNode, shape: SearchShape): string[] {
  const out = new Set<string>()
  for (const leaf of resolvableLeaves(query, 'any')) {
    const t = hotTest(leaf)
    if (t) out.add(t.field)
  }
  for (const s of shape.sort) if (hotColumn(s.field) && hotColumn(s.field)?.kind !== 'term') out.add(s.field)
  for (const a of shape.aggs)
    if (a.kind === 'range' && hotColumn(a.field)?.kind === 'number') out.add(a.field)
  return [...out]
}

/** A hot column's test of one product (its value read from the column). */
export function hotTester(test: HotTest, column: HotColumnValues): (id: number) => boolean {
  const v = column.values
  if ('values' in test) {
    const codes = new Uint8Array(column.dict.length)
    column.dict.forEach((value, i) => {
      if (test.values.has(value)) codes[i] = 1
    })
    return (id) => {
      const c = v[id] as number
      return c >= 0 && codes[c] === 1
    }
  }
  const { gt, gte, lt, lte } = test.bounds
  return (id) => {
    const x = v[id]
    return (
      x !== undefined &&
      !Number.isNaN(x) &&
      (gt === undefined || x > gt) &&
      (gte === undefined || x >= gte) &&
      (lt === undefined || x < lt) &&
      (lte === undefined || x <= lte)
    )
  }
}

/** The fields whose postings would narrow this query. */
export function narrowingFields(query: QueryNode): string[] {
  return [
    ...new Set(
      resolvableLeaves(query).flatMap((n) => {
        const t = keywordTest(n)
        return t ? [t.field] : []
      }),
    ),
  ]
}

type WordRef = [WordSource, string, string]

/**
 * A terms test of `values` on a keyword field, as word lists: only on a field with too many values
 * for the facet index (one value's products are then few); null for another field (a value of a
 * field of few values may hold most of the catalogue) or too many forms.
 */
function valueWords(field: string, values: unknown[]): WordRef[] | null {
  if (!manyValued(field)) return null
  const forms = [...new Set(values.flatMap((v) => queryValueForms(v)))]
  return forms.length > MAX_WORD_VALUES ? null : forms.map((f) => ['value', field, f])
}

/** A full-text clause's plans, when every listed field is a full-text field (else null). */
export function textPlans(node: MatchNode, vocab: Vocabulary): FieldPlan[] | null {
  if (!node.fields.every((f) => TEXT_FIELDS.has(f.field))) return null
  return planTextMatch(node.fields, node.query, node.options, (f) => vocab.get(f) ?? [])
}

/** A keyword match: the one field it tests (an exact-value test, as sql/leaf-clauses.ts compiles it). */
export function keywordMatchField(node: MatchNode): { field: string; boost: number } | undefined {
  const only = node.fields.length === 1 ? node.fields[0] : undefined
  return only && !TEXT_FIELDS.has(only.field) ? only : undefined
}

/**
 * The word lists a clause is resolved from, or null when it is not resolved word by word: a terms
 * clause on a field whose postings are held needs none (it is resolved from the field), one with
 * too many values, a phrase of several words, or a full-text clause over a keyword field and a
 * text field at once stay in the statement.
 */
export function leafWords(
  node: Leaf,
  fields: Map<string, FieldPostings>,
  vocab: Vocabulary,
): WordRef[] | null {
  const test = keywordTest(node)
  if (test) return fields.has(test.field) ? [] : valueWords(test.field, test.values)
  switch (node.kind) {
    case 'terms':
    case 'range':
      return null
    case 'phrase': {
      if (!TEXT_FIELDS.has(node.field)) return null
      const q = fieldTokens(node.field, node.query)
      if (q.length > 1) return null
      return q.map((t) => ['token', node.field, t])
    }
    case 'match': {
      if (keywordMatchField(node)) return null
      const plans = textPlans(node, vocab)
      if (!plans) return null
      const refs: WordRef[] = plans.flatMap((plan) =>
        plan.tokens.flatMap((qt) => qt.expansions.map((e): WordRef => ['token', plan.field, e.token])),
      )
      return refs.length > MAX_MATCH_WORDS ? null : refs
    }
  }
}

/**
 * The word lists to read so that `query` may be narrowed, given the fields held: none when even
 * with every clause resolved nothing would narrow it (a clause outside the resolvable ones leaves
 * a disjunction open to any product).
 */
export function narrowingWords(
  query: QueryNode,
  fields: Map<string, FieldPostings>,
  vocab: Vocabulary,
): WordRef[] {
  const words = new Map<QueryNode, WordRef[]>()
  for (const leaf of resolvableLeaves(query)) {
    const refs = leafWords(leaf, fields, vocab)
    if (refs) words.set(leaf, refs)
  }
  if (words.size === 0 || !bounded(query, (n) => words.has(n))) return []
  return [...words.values()].flat()
}

/** Whether the resolved clauses (`known`) bound the query's matches (see superset in narrowQuery). */
function bounded(n: QueryNode, known: (n: QueryNode) => boolean): boolean {
  switch (n.kind) {
    case 'terms':
    case 'phrase':
    case 'match':
    case 'range':
      return known(n)
    case 'match_none':
      return true
    case 'function_score':
      return bounded(n.query, known)
    case 'bool':
      return (
        [...n.must, ...n.filter].some((ch) => bounded(ch, known)) ||
        (n.minimumShouldMatch > 0 && n.should.every((ch) => bounded(ch, known)))
      )
    default:
      return false
  }
}
