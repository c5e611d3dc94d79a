/**
 * Narrowing a product statement before it runs. Clauses whose products the isolate can list are
 * resolved (resolve.ts): terms (and other exact-value) clauses on fields whose postings the engine
 * holds (held/facet-index.ts), full-text clauses, SKU phrases and values of fields of many values
 * from the product lists of their words (held/word-postings.ts), and tests of hot columns. Each
 * such clause's products are a bit set, and the query's conjunctions and disjunctions of them give
 * a set that holds every product the query can match (a superset: clauses not resolved here count
 * as "any product"). The statement then visits only those products, each carrying as bits which
 * resolved clauses it satisfies (and, for a full-text clause, the number of its score), instead of
 * looking up postings and words in SQL.
 *
 * The answer is the statement's own: it still tests every clause on each visited product, the
 * resolved ones by their bits, which for a visited product are exactly the clause's test and score.
 * What keeps it exact is that the postings and word lists are those of the index version the
 * statement reads; the engine compares the two and, when they differ, runs again with fresh ones
 * (a third run visits the whole index).
 */
import type { AggNode, QueryNode } from '../dsl'
import { complete, type HotColumnValues } from '../held/hot-columns'
import { and, bitSetWords, listBits, MAX_ID, or, popcount, setIds } from './bit-sets'
import { hotTester, type Leaf, type SearchShape } from './leaves'
import { presort } from './presort'
import {
  type HeldPostings,
  MAX_WIDTH,
  type Resolution,
  type ResolvedLeaves,
  resolveLeaves,
  slotWidth,
} from './resolve'

/**
 * Most products a narrowed statement visits: a larger set is not worth sending (about 12 bytes a
 * product of bound JSON); the statement then visits the index as before.
 */
const MAX_CANDIDATES = 50_000

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

/**
 * Step 2: each resolved clause's products as a bit set as long as the largest id (`words` words),
 * or null when an id is beyond MAX_ID or below 0 (the sets would be large, or not fit: the
 * statement then visits the index as before). A hot column's test has no set: it narrows nothing
 * and is tested on each product visited (a set of the whole column would cost more than it saves).
 */
function leafSets(
  resolved: Map<Leaf, Resolution>,
): { words: number; sets: Map<QueryNode, Uint32Array> } | null {
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
  if (maxId > MAX_ID || minId < 0) return null
  const words = bitSetWords(maxId)
  const sets = new Map<QueryNode, Uint32Array>()
  for (const [leaf, r] of resolved) if (!r.hot) sets.set(leaf, listBits(r.lists, words))
  return { words, sets }
}

/**
 * Step 3: a superset of the products clause `n` can match, from the resolved clauses' sets, or null
 * for "any product" (an unresolved clause, or a disjunction with one).
 */
function superset(n: QueryNode, sets: Map<QueryNode, Uint32Array>, words: number): Uint32Array | null {
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
      return superset(n.query, sets, words)
    case 'bool': {
      let acc: Uint32Array | null = null
      const required = [...n.must, ...n.filter]
      for (const ch of required) {
        const s = superset(ch, sets, words)
        if (s) acc = acc ? and(acc, s) : s
      }
      // With a minimum, a match satisfies at least one should clause: their union bounds it.
      if (n.minimumShouldMatch > 0) {
        let any: Uint32Array | null = new Uint32Array(words)
        for (const ch of n.should) {
          const s: Uint32Array | null = any ? superset(ch, sets, words) : null
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

/** How each visited product's bits are set: per resolved clause, its bit or score number's place. */
interface BitAssignment {
  /** Each resolved terms or phrase clause's bit. */
  bits: Map<QueryNode, number>
  /** Each resolved full-text clause's score number. */
  slots: Map<QueryNode, ScoreSlot>
  /** Clauses tested from their sets: the set, and the clause's bit value. */
  tests: Uint32Array[]
  units: number[]
  /** Clauses tested on a hot column. */
  hotTests: { test: (id: number) => boolean; unit: number }[]
  /** Full-text clauses: their ascending matches, each match's score number, followed by a cursor. */
  numbered: { ids: Int32Array; of: Uint8Array; unit: number; at: number }[]
  /** Bits taken. */
  shift: number
}

/** Step 4: the bits, in clause order: a terms or phrase clause one, a full-text clause its score number's. */
function assignBits(leaves: ResolvedLeaves, sets: Map<QueryNode, Uint32Array>): BitAssignment {
  const a: BitAssignment = {
    bits: new Map(),
    slots: new Map(),
    tests: [],
    units: [],
    hotTests: [],
    numbered: [],
    shift: 0,
  }
  for (const [leaf, r] of leaves.resolved) {
    const numbers = leaves.distinct.get(leaf)
    if (numbers && r.scores) {
      const w = slotWidth(Math.max(1, numbers.scores.length))
      a.slots.set(leaf, { shift: a.shift, width: w, scores: numbers.scores })
      a.numbered.push({ ids: r.scores.ids, of: numbers.of, unit: 2 ** a.shift, at: 0 })
      a.shift += w
    } else {
      a.bits.set(leaf, a.shift)
      if (r.hot) a.hotTests.push({ test: hotTester(r.hot.test, r.hot.column), unit: 2 ** a.shift })
      else {
        a.tests.push(sets.get(leaf) as Uint32Array)
        a.units.push(2 ** a.shift)
      }
      a.shift += 1
    }
  }
  return a
}

/** Range aggregations counted from bits: per aggregation its ranges' bits, and how each is set. */
interface RangeBits {
  aggBits: Map<AggNode, number[]>
  counted: { values: Float64Array; ranges: { from?: number; to?: number; unit: number }[] }[]
  /** The bits every product carries in all. */
  width: number
}

/**
 * Step 5: range aggregations over a hot number column without missing values, while the bits fit:
 * each range's bit says whether the product's value lies in [from, to), so the statement counts
 * them without reading the products' rows.
 */
function rangeAggregationBits(aggs: AggNode[], held: HeldPostings, shift: number, width: number): RangeBits {
  const aggBits = new Map<AggNode, number[]>()
  const counted: RangeBits['counted'] = []
  for (const agg of aggs) {
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
  return { aggBits, counted, width }
}

/** Step 6: the products to visit, ascending, each as `id * 2^width + its bits`. */
function visitList(set: Uint32Array, a: BitAssignment, ranges: RangeBits): number[] {
  const scale = 2 ** ranges.width
  const out: number[] = []
  for (const id of setIds(set)) {
    let mask = 0
    const word = id >>> 5
    const bit = 1 << (id & 31)
    for (let t = 0; t < a.tests.length; t++)
      if (((a.tests[t] as Uint32Array)[word] as number) & bit) mask += a.units[t] as number
    for (let t = 0; t < a.hotTests.length; t++) {
      const h = a.hotTests[t] as { test: (id: number) => boolean; unit: number }
      if (h.test(id)) mask += h.unit
    }
    for (const m of a.numbered) {
      while (m.at < m.ids.length && (m.ids[m.at] as number) < id) m.at++
      if (m.ids[m.at] === id) mask += (m.of[m.at] as number) * m.unit
    }
    for (const r of ranges.counted) {
      const v = r.values[id] as number
      for (const range of r.ranges)
        if ((range.from === undefined || v >= range.from) && (range.to === undefined || v < range.to))
          mask += range.unit
    }
    out.push(id * scale + mask)
  }
  return out
}

/**
 * The narrowing of `query` by the postings held, or null when none applies: no resolvable clause
 * narrows it (a query that may match any product), or it leaves more than MAX_CANDIDATES products.
 * The steps run in order: resolve the clauses, their bit sets, the superset, the bits each product
 * carries, the range aggregations' bits, the list to visit; then whether every listed product has
 * its index row (a hot column without missing values holds one for each) and, if so, the list in
 * the search's order (presort).
 */
export function narrowQuery(
  query: QueryNode,
  held: HeldPostings,
  limit = MAX_CANDIDATES,
  shape: SearchShape = { sort: [], aggs: [] },
): Narrowing | null {
  const leaves = resolveLeaves(query, held)
  if (leaves.resolved.size === 0) return null
  const built = leafSets(leaves.resolved)
  if (!built) return null
  const set = superset(query, built.sets, built.words)
  if (!set) return null
  let count = 0
  for (let i = 0; i < built.words; i++) count += popcount(set[i] as number)
  if (count > limit) return null
  const assigned = assignBits(leaves, built.sets)
  const ranges = rangeAggregationBits(shape.aggs, held, assigned.shift, leaves.width)
  const list = visitList(set, assigned, ranges)
  const columns = [
    ...[...leaves.resolved.values()].flatMap((r) => (r.hot ? [r.hot.column] : [])),
    ...[...ranges.aggBits.keys(), ...shape.sort].flatMap((x) => {
      const c = held.hot?.get(x.field)
      return c && c.nulls === 0 ? [c] : []
    }),
  ]
  // A hot column holds a value for every product with an index row (it has no missing values):
  // when every listed product has one, each has its row.
  const scale = 2 ** ranges.width
  const ids = list.map((x) => Math.floor(x / scale))
  const indexed = columns.length > 0 && complete(columns[0] as HotColumnValues, ids)
  const sorted = indexed && presort(list, ids, shape.sort, held.hot)
  return {
    bits: assigned.bits,
    slots: assigned.slots,
    width: ranges.width,
    list,
    count,
    versions: [
      ...new Set([
        ...[...leaves.resolved.values()].flatMap((r) => r.versions),
        ...columns.map((c) => c.version),
      ]),
    ],
    sorted,
    aggBits: ranges.aggBits,
    indexed,
  }
}
