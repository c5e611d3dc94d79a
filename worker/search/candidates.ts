/**
 * Narrowing a product statement before it runs. Clauses whose products the isolate can list are
 * resolved here: terms (and other exact-value) clauses on fields whose postings the engine holds
 * (facet-index.ts: per field, the ascending product ids of each value), and full-text clauses, SKU
 * phrases and values of fields of many values from the product lists of their words
 * (word-postings.ts). Each such clause's products are a bit set, and the query's conjunctions and
 * disjunctions of them give a set that holds every product the query can match (a superset:
 * clauses not resolved here count as "any product"). The statement then visits only those
 * products, each carrying as bits which resolved clauses it satisfies (and, for a full-text
 * clause, the number of its score), instead of looking up postings and words in SQL.
 *
 * The answer is the statement's own: it still tests every clause on each visited product, the
 * resolved ones by their bits, which for a visited product are exactly the clause's test and score.
 * What keeps it exact is that the postings and word lists are those of the index version the
 * statement reads; the engine compares the two and, when they differ, runs again with fresh ones
 * (a third run visits the whole index).
 */
import { type AggNode, type QueryNode, rangeBounds, type SortSpec } from './dsl'
import { type FieldPostings, manyValued } from './facet-index'
import { fieldTokens, hotColumn, queryValueForms, TEXT_FIELDS } from './facts'
import { complete, type HotColumnValues } from './hot-columns'
import type { Vocabulary } from './sql-expr'
import { type FieldPlan, planTextMatch } from './text'
import { type WordPostings, type WordSource, wordKey } from './word-postings'

type TermsNode = Extract<QueryNode, { kind: 'terms' }>
type PhraseNode = Extract<QueryNode, { kind: 'phrase' }>
type MatchNode = Extract<QueryNode, { kind: 'match' }>
type RangeNode = Extract<QueryNode, { kind: 'range' }>
/** A clause that may be resolved in the isolate. */
type Leaf = TermsNode | PhraseNode | MatchNode | RangeNode

/** Most clauses resolved (the bits of a product ride on its id in one JSON number). */
export const MAX_RESOLVED_CLAUSES = 20
/**
 * Most products a narrowed statement visits: a larger set is not worth sending (about 12 bytes a
 * product of bound JSON); the statement then visits the index as before.
 */
const MAX_CANDIDATES = 50_000

/** Largest product id narrowed with (each resolved clause is a bit set of MAX_ID bits, 256 KB). */
const MAX_ID = 1 << 21
/** Most bits a product carries: with ids below 2^21, `id * 2^bits + bits` stays an exact JSON number. */
const MAX_WIDTH = 30
/** Most distinct scores of one resolved full-text clause (its products carry the score's number). */
const MAX_MATCH_SCORES = 15
/** Most value forms of one terms clause looked up word by word (a longer list stays in the statement). */
const MAX_WORD_VALUES = 8
/** Most word lists one full-text clause is resolved from. */
const MAX_MATCH_WORDS = 48

/** The field whose test reads live stock, never its postings. */
const IN_STOCK_FIELD = 'stock.is_in_stock'

/** A resolved full-text clause: the number its products carry (1-based; 0: no match) and the scores. */
export interface ScoreSlot {
  shift: number
  width: number
  /** Score of number i + 1. */
  scores: number[]
}

/**
 * A narrowed statement's products: `list` holds each as `id * 2^width + its bits`, by ascending id
 * (or in the search's order when `sorted`).
 */
export interface Narrowing {
  /** Each resolved terms or phrase clause's bit. */
  bits: Map<QueryNode, number>
  /** Each resolved full-text clause's score number. */
  slots: Map<QueryNode, ScoreSlot>
  /** How many bits each product carries. */
  width: number
  /** The products to visit, with their bits. */
  list: number[]
  count: number
  /** The index version of each field's postings, word list and hot column used. */
  versions: number[]
  /** Whether the products are listed in the order the search sorts them by (else ascending id). */
  sorted: boolean
  /** Per range aggregation counted from the bits: the bit of each of its ranges. */
  aggBits: Map<AggNode, number[]>
  /** Whether every listed product is known to have its index row (the statement may skip reading it). */
  indexed: boolean
}

/** What the search does with its matches besides testing them: its sort and aggregations. */
export interface SearchShape {
  sort: SortSpec[]
  aggs: AggNode[]
}

/** What the isolate holds to resolve clauses with. */
interface HeldPostings {
  /** Whole fields (the facet index). */
  fields: Map<string, FieldPostings>
  /** Single words and values (word-postings.ts), by wordKey. */
  words: Map<string, WordPostings>
  vocab: Vocabulary
  /** Hot columns (hot-columns.ts), by field. */
  hot?: Map<string, HotColumnValues>
}

/** A compound clause's clauses (a bool's, a function_score's query and function filters). */
export function clauseChildren(node: QueryNode): QueryNode[] {
  if (node.kind === 'bool') return [...node.must, ...node.filter, ...node.should, ...node.mustNot]
  if (node.kind === 'function_score')
    return [node.query, ...node.functions.flatMap((f) => (f.filter ? [f.filter] : []))]
  return []
}

/**
 * The clauses that could be resolved, in query order, at most MAX_RESOLVED_CLAUSES: those resolved
 * from postings and word lists first, then tests of hot columns (`hot`: the fields whose columns
 * are held, or 'any'), so hot tests never crowd out a clause that narrows better.
 */
function resolvableLeaves(query: QueryNode, hot?: ReadonlySet<string> | 'any'): Leaf[] {
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
 * on a keyword field, as compile-where.ts compiles them), or null: a full-text clause, or a test
 * the statement makes on a hot column or live stock.
 */
function keywordTest(node: Leaf): { field: string; values: unknown[] } | null {
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

/** A test of a hot column (hot-columns.ts): one of the values, or numeric bounds. */
type HotTest =
  | { field: string; values: Set<string> }
  | { field: string; bounds: { gt?: number; gte?: number; lt?: number; lte?: number } }

/**
 * The test a clause makes on a hot column, as compile-where.ts compiles it on a product that has a
 * value there: an exact-value test on a term column, or a numeric range (finite bounds) on a number
 * column. Null for any other clause.
 */
function hotTest(node: Leaf): HotTest | null {
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
function hotTester(test: HotTest, column: HotColumnValues): (id: number) => boolean {
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
function textPlans(node: MatchNode, vocab: Vocabulary): FieldPlan[] | null {
  if (!node.fields.every((f) => TEXT_FIELDS.has(f.field))) return null
  return planTextMatch(node.fields, node.query, node.options, (f) => vocab.get(f) ?? [])
}

/** A keyword match: the one field it tests (an exact-value test, as compile-where.ts compiles it). */
function keywordMatchField(node: MatchNode): { field: string; boost: number } | undefined {
  const only = node.fields.length === 1 ? node.fields[0] : undefined
  return only && !TEXT_FIELDS.has(only.field) ? only : undefined
}

/**
 * The word lists a clause is resolved from, or null when it is not resolved word by word: a terms
 * clause on a field whose postings are held needs none (it is resolved from the field), one with
 * too many values, a phrase of several words, or a full-text clause over a keyword field and a
 * text field at once stay in the statement.
 */
function leafWords(node: Leaf, fields: Map<string, FieldPostings>, vocab: Vocabulary): WordRef[] | null {
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

const valueIndexes = new WeakMap<FieldPostings, Map<string, number>>()

function valueIndex(f: FieldPostings): Map<string, number> {
  let m = valueIndexes.get(f)
  if (!m) {
    m = new Map(f.values.map((v, i) => [v, i]))
    valueIndexes.set(f, m)
  }
  return m
}

/** The postings ranges ([from, to) in the field's ids) of the values an exact-value test asks for. */
function termsRanges(values: unknown[], f: FieldPostings): [number, number][] {
  const index = valueIndex(f)
  const out: [number, number][] = []
  for (const form of new Set(values.flatMap((v) => queryValueForms(v)))) {
    const v = index.get(form)
    if (v !== undefined) out.push([f.starts[v] as number, f.starts[v + 1] as number])
  }
  return out
}

/**
 * Words of a bit set of ids 0 to `maxId`: none when there is no id (-1), whose unsigned shift would
 * otherwise ask for 2^27 words, half a gigabyte, for a word no product holds.
 */
export function bitSetWords(maxId: number): number {
  return maxId < 0 ? 0 : (maxId >>> 5) + 1
}

/** The products of `lists` as a bit set of `words` words. */
function listBits(lists: ArrayLike<number>[], words: number): Uint32Array {
  const bits = new Uint32Array(words)
  for (const list of lists)
    for (let k = 0; k < list.length; k++) {
      const id = list[k] as number
      bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31))
    }
  return bits
}

function and(a: Uint32Array, b: Uint32Array): Uint32Array {
  for (let i = 0; i < a.length; i++) a[i] = (a[i] as number) & (b[i] as number)
  return a
}

function or(a: Uint32Array, b: Uint32Array): Uint32Array {
  for (let i = 0; i < a.length; i++) a[i] = (a[i] as number) | (b[i] as number)
  return a
}

/**
 * SQLite's SUM of doubles (compensated, Kahan-Babuska-Neumaier), so a score computed here is the
 * one the statement's text match computes.
 */
function sqlSum(values: number[]): number {
  let sum = 0
  let err = 0
  for (const r of values) {
    const t = sum + r
    if (Math.abs(sum) > Math.abs(r)) err += sum - t + r
    else err += r - t + sum
    sum = t
  }
  return sum + err
}

/** A full-text clause's matches: ascending ids, and each one's score. */
interface Scored {
  ids: Int32Array
  scores: Float64Array
}

/**
 * The score of every product a full-text clause matches, computed from the word lists exactly as
 * the statement's text match does (compile-where.ts): per listed field, each query word's best
 * weight among its expansions the product holds; a field counts when enough words matched, scoring
 * the sum of their weights (in word order); the clause scores its best field plus tie_breaker times
 * the others. Each product in any list is numbered by its rank among them (a bit set of the lists),
 * each list writes its weight into its products' cells, then the products are scored in id order.
 * Null when a list is not held (or holds ids the narrowing cannot use).
 */
function matchScores(node: MatchNode, plans: FieldPlan[], words: Map<string, WordPostings>): Scored | null {
  const lists: { ids: Int32Array; slot: number; weight: number }[] = []
  let slots = 0
  for (const plan of plans)
    for (const qt of plan.tokens) {
      for (const e of qt.expansions) {
        const ids = words.get(wordKey('token', plan.field, e.token))?.ids
        if (!ids) return null
        lists.push({ ids, slot: slots, weight: e.weight * plan.boost })
      }
      slots++
    }
  let maxId = -1
  for (const l of lists) {
    if (l.ids.length === 0) continue
    if ((l.ids[0] as number) < 0) return null
    maxId = Math.max(maxId, l.ids[l.ids.length - 1] as number)
  }
  if (maxId > MAX_ID) return null
  const span = bitSetWords(maxId)
  const all = listBits(
    lists.map((l) => l.ids),
    span,
  )
  // before[w]: products in the words before word w; a product's rank adds those below it in its word.
  const before = new Int32Array(span + 1)
  for (let w = 0; w < span; w++) before[w + 1] = (before[w] as number) + popcount(all[w] as number)
  const cells = new Float64Array((before[span] as number) * slots).fill(Number.NaN)
  for (const l of lists)
    for (let k = 0; k < l.ids.length; k++) {
      const id = l.ids[k] as number
      const w = id >>> 5
      const rank = (before[w] as number) + popcount((all[w] as number) & ((1 << (id & 31)) - 1))
      const cell = rank * slots + l.slot
      const cur = cells[cell] as number
      if (Number.isNaN(cur) || l.weight > cur) cells[cell] = l.weight
    }
  const tb = node.options.tieBreaker
  const fs: number[] = []
  const outIds: number[] = []
  const outScores: number[] = []
  const listed = setIds(all)
  for (let rank = 0; rank < listed.length; rank++) {
    const id = listed[rank] as number
    const row = rank * slots
    fs.length = 0
    let at = 0
    for (const plan of plans) {
      let matched = 0
      let sum = 0
      for (let q = 0; q < plan.tokens.length; q++) {
        const weight = cells[row + at + q] as number
        if (!Number.isNaN(weight)) {
          matched++
          sum += weight
        }
      }
      at += plan.tokens.length
      if (plan.tokens.length > 0 && matched >= plan.required) fs.push(sum)
    }
    if (fs.length === 0) continue
    const max = Math.max(...fs)
    outIds.push(id)
    outScores.push(node.boost * (tb === 0 ? max : max + tb * (sqlSum(fs) - max)))
  }
  return { ids: Int32Array.from(outIds), scores: Float64Array.from(outScores) }
}

/** The ids of a bit set's set bits, ascending. */
function setIds(set: Uint32Array): Int32Array {
  let n = 0
  for (let i = 0; i < set.length; i++) n += popcount(set[i] as number)
  const out = new Int32Array(n)
  let k = 0
  for (let i = 0; i < set.length; i++) {
    let w = set[i] as number
    while (w !== 0) {
      const low = w & -w
      out[k++] = (i << 5) + (31 - Math.clz32(low))
      w ^= low
    }
  }
  return out
}

/** Set bits of a 32-bit word. */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** A resolved clause: the lists of its products, and for a full-text clause each one's score. */
interface Resolution {
  lists: ArrayLike<number>[]
  scores?: Scored
  versions: number[]
  /** A hot column's test (its products are read from the column, not from lists). */
  hot?: { test: HotTest; column: HotColumnValues }
}

function resolveLeaf(node: Leaf, held: HeldPostings): Resolution | null {
  const ht = hotTest(node)
  if (ht) {
    const column = held.hot?.get(ht.field)
    // Only a column without missing values answers for every product (else search_terms decides).
    return column && column.nulls === 0
      ? { lists: [], versions: [column.version], hot: { test: ht, column } }
      : null
  }
  const test = keywordTest(node)
  const f = test ? held.fields.get(test.field) : undefined
  if (test && f)
    return {
      lists: termsRanges(test.values, f).map(([from, to]) => f.ids.subarray(from, to)),
      versions: [f.version],
    }
  const refs = leafWords(node, held.fields, held.vocab)
  if (!refs) return null
  const lists: Int32Array[] = []
  const versions: number[] = []
  for (const ref of refs) {
    const w = held.words.get(wordKey(...ref))
    if (!w?.ids) return null
    lists.push(w.ids)
    versions.push(w.version)
  }
  if (node.kind !== 'match' || keywordMatchField(node)) return { lists, versions }
  const plans = textPlans(node, held.vocab)
  const scores = plans ? matchScores(node, plans, held.words) : null
  if (!scores) return null
  return { lists: [scores.ids], scores, versions }
}

/** Bits a full-text clause's score numbers take (1 to `count`; 0 is "no match"). */
function slotWidth(count: number): number {
  return 32 - Math.clz32(count)
}

/**
 * The narrowing of `query` by the postings held, or null when none applies: no resolvable clause
 * narrows it (a query that may match any product), or it leaves more than MAX_CANDIDATES products.
 */
export function narrowQuery(
  query: QueryNode,
  held: HeldPostings,
  limit = MAX_CANDIDATES,
  shape: SearchShape = { sort: [], aggs: [] },
): Narrowing | null {
  const resolved = new Map<Leaf, Resolution>()
  // Per full-text clause: each distinct score's number, and each match's number.
  const distinct = new Map<Leaf, { scores: number[]; of: Uint8Array }>()
  let width = 0
  for (const leaf of resolvableLeaves(query, new Set(held.hot?.keys()))) {
    const r = resolveLeaf(leaf, held)
    if (!r) continue
    let need = 1
    if (r.scores) {
      const numbers = new Map<number, number>()
      const of = new Uint8Array(r.scores.scores.length)
      let over = false
      r.scores.scores.forEach((s, i) => {
        let n = numbers.get(s)
        if (n === undefined) {
          n = numbers.size + 1
          numbers.set(s, n)
          if (n > MAX_MATCH_SCORES) over = true
        }
        of[i] = n
      })
      if (over) continue
      need = slotWidth(Math.max(1, numbers.size))
      distinct.set(leaf, { scores: [...numbers.keys()], of })
    }
    if (width + need > MAX_WIDTH) continue
    width += need
    resolved.set(leaf, r)
  }
  if (resolved.size === 0) return null
  let maxId = 0
  let minId = 0
  for (const r of resolved.values()) {
    for (const list of r.lists)
      for (let k = 0; k < list.length; k++) {
        const id = list[k] as number
        if (id > maxId) maxId = id
        if (id < minId) minId = id
      }
  }
  // Each clause is a bit set as long as the largest id: ids beyond MAX_ID (or below 0) would make
  // them large, or not fit (the statement then visits the index as before).
  if (maxId > MAX_ID || minId < 0) return null
  const words = bitSetWords(maxId)
  // A hot column's test narrows nothing (it is tested on each product visited, below): a bit set
  // of the whole column for each would cost more than it saves.
  const sets = new Map<QueryNode, Uint32Array>()
  for (const [leaf, r] of resolved) if (!r.hot) sets.set(leaf, listBits(r.lists, words))
  // A superset of the products a clause can match, or null for "any product".
  const superset = (n: QueryNode): Uint32Array | null => {
    switch (n.kind) {
      case 'terms':
      case 'phrase':
      case 'match':
      case 'range': {
        const s = sets.get(n)
        return s ? Uint32Array.from(s) : null
      }
      case 'match_none':
        return new Uint32Array(words)
      case 'function_score':
        return superset(n.query)
      case 'bool': {
        let acc: Uint32Array | null = null
        const required = [...n.must, ...n.filter]
        for (const ch of required) {
          const s = superset(ch)
          if (s) acc = acc ? and(acc, s) : s
        }
        // With a minimum, a match satisfies at least one should clause: their union bounds it.
        if (n.minimumShouldMatch > 0) {
          let any: Uint32Array | null = new Uint32Array(words)
          for (const ch of n.should) {
            const s: Uint32Array | null = any ? superset(ch) : null
            any = s && any ? or(any, s) : null
          }
          if (any) acc = acc ? and(acc, any) : any
        }
        return acc
      }
      default:
        return null
    }
  }
  const set = superset(query)
  if (!set) return null
  let count = 0
  for (let i = 0; i < words; i++) count += popcount(set[i] as number)
  if (count > limit) return null
  // Bits in clause order: a terms or phrase clause one, a full-text clause its score number's.
  const bits = new Map<QueryNode, number>()
  const slots = new Map<QueryNode, ScoreSlot>()
  const tests: Uint32Array[] = []
  const units: number[] = []
  const hotTests: { test: (id: number) => boolean; unit: number }[] = []
  // A full-text clause's matches are ascending, as the visit below: each is followed by a cursor.
  const numbered: { ids: Int32Array; of: Uint8Array; unit: number; at: number }[] = []
  let shift = 0
  for (const [leaf, r] of resolved) {
    const numbers = distinct.get(leaf)
    if (numbers && r.scores) {
      const w = slotWidth(Math.max(1, numbers.scores.length))
      slots.set(leaf, { shift, width: w, scores: numbers.scores })
      numbered.push({ ids: r.scores.ids, of: numbers.of, unit: 2 ** shift, at: 0 })
      shift += w
    } else {
      bits.set(leaf, shift)
      if (r.hot) hotTests.push({ test: hotTester(r.hot.test, r.hot.column), unit: 2 ** shift })
      else {
        tests.push(sets.get(leaf) as Uint32Array)
        units.push(2 ** shift)
      }
      shift += 1
    }
  }
  // Range aggregations over a hot number column: each range's bit says whether the product's value
  // lies in [from, to), so the statement counts them without reading the products' rows.
  const aggBits = new Map<AggNode, number[]>()
  const counted: { values: Float64Array; ranges: { from?: number; to?: number; unit: number }[] }[] = []
  for (const agg of shape.aggs) {
    if (agg.kind !== 'range') continue
    const column = held.hot?.get(agg.field)
    if (column?.kind !== 'number' || column.nulls > 0 || width + agg.ranges.length > MAX_WIDTH) continue
    if (agg.ranges.some((r) => [r.from, r.to].some((v) => v !== undefined && !Number.isFinite(v)))) continue
    aggBits.set(
      agg,
      agg.ranges.map((_, i) => shift + i),
    )
    counted.push({
      values: column.values as Float64Array,
      ranges: agg.ranges.map((r, i) => ({ from: r.from, to: r.to, unit: 2 ** (shift + i) })),
    })
    shift += agg.ranges.length
    width += agg.ranges.length
  }
  const scale = 2 ** width
  const out: number[] = []
  for (const id of setIds(set)) {
    let mask = 0
    const word = id >>> 5
    const bit = 1 << (id & 31)
    for (let t = 0; t < tests.length; t++)
      if (((tests[t] as Uint32Array)[word] as number) & bit) mask += units[t] as number
    for (let t = 0; t < hotTests.length; t++) {
      const h = hotTests[t] as { test: (id: number) => boolean; unit: number }
      if (h.test(id)) mask += h.unit
    }
    for (const m of numbered) {
      while (m.at < m.ids.length && (m.ids[m.at] as number) < id) m.at++
      if (m.ids[m.at] === id) mask += (m.of[m.at] as number) * m.unit
    }
    for (const a of counted) {
      const v = a.values[id] as number
      for (const r of a.ranges)
        if ((r.from === undefined || v >= r.from) && (r.to === undefined || v < r.to)) mask += r.unit
    }
    out.push(id * scale + mask)
  }
  const columns = [
    ...[...resolved.values()].flatMap((r) => (r.hot ? [r.hot.column] : [])),
    ...[...aggBits.keys(), ...shape.sort].flatMap((x) => {
      const c = held.hot?.get(x.field)
      return c && c.nulls === 0 ? [c] : []
    }),
  ]
  // A hot column holds a value for every product with an index row (it has no missing values):
  // when every listed product has one, each has its row.
  const ids = out.map((x) => Math.floor(x / scale))
  const indexed = columns.length > 0 && complete(columns[0] as HotColumnValues, ids)
  const sorted = indexed && presort(out, ids, shape.sort, held.hot)
  return {
    bits,
    slots,
    width,
    list: out,
    count,
    versions: [
      ...new Set([...[...resolved.values()].flatMap((r) => r.versions), ...columns.map((c) => c.version)]),
    ],
    sorted,
    aggBits,
    indexed,
  }
}

/**
 * Orders the listed products (`out`, ascending ids `ids`) as the statement sorts them, when every
 * sort key is a hot number or text column without missing values: by each key in its order, then
 * by id. Answers whether it did (else the list stays in id order).
 */
function presort(
  out: number[],
  ids: number[],
  sort: SortSpec[],
  hot: Map<string, HotColumnValues> | undefined,
): boolean {
  if (sort.length === 0) return false
  const columns: HotColumnValues[] = []
  for (const s of sort) {
    const column = hot?.get(s.field)
    if (!column || column.kind === 'term' || column.nulls > 0) return false
    columns.push(column)
  }
  // Stable sorts from the last key to the first: products equal on every key stay in id order.
  let order = ids.map((_, i) => i)
  for (let k = sort.length - 1; k >= 0; k--) {
    const column = columns[k] as HotColumnValues
    const dir = (sort[k] as SortSpec).order === 'asc' ? 1 : -1
    const key = new Float64Array(ids.length)
    ids.forEach((id, i) => {
      key[i] = column.values[id] as number
    })
    order =
      column.kind === 'text'
        ? countingSort(order, key, dir)
        : order.sort((a, b) => ((key[a] as number) - (key[b] as number)) * dir)
  }
  const copy = out.slice()
  order.forEach((from, to) => {
    out[to] = copy[from] as number
  })
  return true
}

/** `order` stably sorted by `key` (small non-negative integers: a text column's ranks), `dir` 1 or -1. */
function countingSort(order: number[], key: Float64Array, dir: number): number[] {
  let max = 0
  for (const i of order) max = Math.max(max, key[i] as number)
  const starts = new Int32Array(max + 2)
  const slot = (i: number) => (dir === 1 ? (key[i] as number) : max - (key[i] as number))
  for (const i of order) starts[slot(i) + 1] = (starts[slot(i) + 1] as number) + 1
  for (let r = 1; r < starts.length; r++) starts[r] = (starts[r] as number) + (starts[r - 1] as number)
  const out = new Array<number>(order.length)
  for (const i of order) {
    const r = slot(i)
    out[starts[r] as number] = i
    starts[r] = (starts[r] as number) + 1
  }
  return out
}

/** At most this many groups of bits are listed group by group (bitGroups); more are listed product by product. */
export const MAX_BIT_GROUPS = 1024

/** A grouped product's place in the list, above its id (ids are at most MAX_ID). */
export const PLACE_UNIT = 2 ** 22

/**
 * The listed products grouped by their bits, as JSON `[[bits, count, [id, …]], …]`: groups in the
 * order their first product is listed, each group's ids in list order and only its first `keep`;
 * with `placed`, each id as `place * PLACE_UNIT + id` (its place in the list). A statement whose
 * every test and score read the bits alone ranks whole groups, and needs no more than `keep`
 * products of one group for the first `keep` matches. Null past MAX_BIT_GROUPS groups.
 */
export function bitGroups(narrow: Narrowing, keep: number, placed = false): string | null {
  const scale = 2 ** narrow.width
  const groups = new Map<number, { count: number; ids: number[] }>()
  for (let place = 0; place < narrow.list.length; place++) {
    const x = narrow.list[place] as number
    const bits = x % scale
    let g = groups.get(bits)
    if (!g) {
      if (groups.size === MAX_BIT_GROUPS) return null
      g = { count: 0, ids: [] }
      groups.set(bits, g)
    }
    const id = (x - bits) / scale
    if (g.count < keep) g.ids.push(placed ? place * PLACE_UNIT + id : id)
    g.count++
  }
  return JSON.stringify([...groups].map(([bits, g]) => [bits, g.count, g.ids]))
}

/** The listed products whose bits are one of `matching` (the groups a grouped statement matched). */
export function idsWithBits(narrow: Narrowing, matching: number[]): number[] {
  const scale = 2 ** narrow.width
  const wanted = new Set(matching)
  const out: number[] = []
  for (const x of narrow.list) {
    const bits = x % scale
    if (wanted.has(bits)) out.push((x - bits) / scale)
  }
  return out
}
