/**
 * Resolving the leaves of a query from what the isolate holds: each clause's products as lists of
 * ids (and, for a full-text clause, each one's score), as long as the bits they take fit on a
 * product's id.
 */
import type { QueryNode } from '../dsl'
import type { FieldPostings } from '../held/facet-index'
import type { HotColumnValues } from '../held/hot-columns'
import type { Vocabulary } from '../held/vocabulary'
import { type WordPostings, wordKey } from '../held/word-postings'
import { queryValueForms } from '../semantics/facts'
import {
  type HotTest,
  hotTest,
  keywordMatchField,
  keywordTest,
  type Leaf,
  leafWords,
  resolvableLeaves,
  textPlans,
} from './leaves'
import { matchScores, type Scored } from './match-scores'
/** Most bits a product carries: with ids below 2^21, `id * 2^bits + bits` stays an exact JSON number. */
export const MAX_WIDTH = 30

/** Most distinct scores of one resolved full-text clause (its products carry the score's number). */
const MAX_MATCH_SCORES = 15

/** What the isolate holds to resolve clauses with. */
export interface HeldPostings {
  /** Whole fields (the facet index). */
  fields: Map<string, FieldPostings>
  /** Single words and values (held/word-postings.ts), by wordKey. */
  words: Map<string, WordPostings>
  vocab: Vocabulary
  /** Hot columns (held/hot-columns.ts), by field. */
  hot?: Map<string, HotColumnValues>
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

/** A resolved clause: the lists of its products, and for a full-text clause each one's score. */
export interface Resolution {
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
export function slotWidth(count: number): number {
  return 32 - Math.clz32(count)
}

/** The clauses resolved, in query order, and the bits their products carry. */
export interface ResolvedLeaves {
  resolved: Map<Leaf, Resolution>
  /** Per full-text clause: each distinct score's number, and each match's number. */
  distinct: Map<Leaf, { scores: number[]; of: Uint8Array }>
  width: number
}

/**
 * Step 1: the clauses the isolate's postings, word lists and hot columns resolve, in query order,
 * as long as their bits fit MAX_WIDTH (a full-text clause takes its score numbers' bits, and is
 * left to the statement past MAX_MATCH_SCORES distinct scores).
 */
export function resolveLeaves(query: QueryNode, held: HeldPostings): ResolvedLeaves {
  const resolved = new Map<Leaf, Resolution>()
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
  return { resolved, distinct, width }
}
