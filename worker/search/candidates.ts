/**
 * Narrowing a product statement before it runs. The terms clauses of a query on fields whose
 * postings the engine holds (facet-index.ts: per field, the ascending product ids of each value)
 * are resolved in the isolate: each such clause's products are a bit set, and the query's
 * conjunctions and disjunctions of them give a set that holds every product the query can match
 * (a superset: clauses not resolved here count as "any product"). The statement then visits only
 * those products, each carrying which resolved clauses it satisfies as bits (`cm`), instead of
 * looking up every posting of every filter value in SQL.
 *
 * The answer is the statement's own: it still tests every clause on each visited product, the
 * resolved ones by their bit, which for a visited product is exactly the clause's test. What
 * keeps it exact is that the postings are those of the index version the statement reads; the
 * engine compares the two and, when they differ, runs again with fresh postings (a third run
 * visits the whole index).
 */
import type { QueryNode } from './dsl'
import type { FieldPostings } from './facet-index'
import { hotColumn, queryValueForms } from './facts'

type TermsNode = Extract<QueryNode, { kind: 'terms' }>

/** Most clauses resolved into bits (the bits of a product ride on its id in one JSON number). */
export const MAX_RESOLVED_CLAUSES = 20
/**
 * Most products a narrowed statement visits: a larger set is not worth sending (about 12 bytes a
 * product of bound JSON); the statement then visits the index as before.
 */
const MAX_CANDIDATES = 50_000

/** Largest product id narrowed with (each resolved clause is a bit set of MAX_ID bits, 256 KB). */
const MAX_ID = 1 << 21

/** The field whose test reads live stock, never its postings. */
const IN_STOCK_FIELD = 'stock.is_in_stock'

/** A narrowed statement's products: `json` lists each as `id * 2^width + its bits`, ascending. */
export interface Narrowing {
  /** Each resolved clause's bit. */
  bits: Map<QueryNode, number>
  /** How many bits each product carries. */
  width: number
  /** The products to visit, with their bits (JSON). */
  json: string
  count: number
  /** The index version of each field's postings used. */
  versions: number[]
}

/** Whether a terms clause may be resolved from postings (hot columns and live stock are tested in SQL). */
function resolvable(node: TermsNode): boolean {
  return node.field !== IN_STOCK_FIELD && hotColumn(node.field) === undefined && node.values.length > 0
}

function children(node: QueryNode): QueryNode[] {
  if (node.kind === 'bool') return [...node.must, ...node.filter, ...node.should, ...node.mustNot]
  if (node.kind === 'function_score')
    return [node.query, ...node.functions.flatMap((f) => (f.filter ? [f.filter] : []))]
  return []
}

/** The terms clauses that could be resolved, in query order (at most MAX_RESOLVED_CLAUSES). */
function resolvableTerms(query: QueryNode): TermsNode[] {
  const out: TermsNode[] = []
  const walk = (n: QueryNode) => {
    if (out.length >= MAX_RESOLVED_CLAUSES) return
    if (n.kind === 'terms' && resolvable(n)) out.push(n)
    for (const ch of children(n)) walk(ch)
  }
  walk(query)
  return out
}

/** The fields whose postings would narrow this query. */
export function narrowingFields(query: QueryNode): string[] {
  return [...new Set(resolvableTerms(query).map((t) => t.field))]
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

/** The postings ranges ([from, to) in the field's ids) of the values a terms clause asks for. */
function termsRanges(node: TermsNode, f: FieldPostings): [number, number][] {
  const index = valueIndex(f)
  const out: [number, number][] = []
  for (const form of new Set(node.values.flatMap((v) => queryValueForms(v)))) {
    const v = index.get(form)
    if (v !== undefined) out.push([f.starts[v] as number, f.starts[v + 1] as number])
  }
  return out
}

/** The products in `ranges` of `ids` as a bit set of `words` words. */
function rangeBits(ids: Int32Array, ranges: [number, number][], words: number): Uint32Array {
  const bits = new Uint32Array(words)
  for (const [from, to] of ranges)
    for (let k = from; k < to; k++) {
      const id = ids[k] as number
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
 * The narrowing of `query` by the postings held, or null when none applies: no resolvable clause
 * narrows it (a query that may match any product), or it leaves more than MAX_CANDIDATES products.
 */
export function narrowQuery(
  query: QueryNode,
  postings: Map<string, FieldPostings>,
  limit = MAX_CANDIDATES,
): Narrowing | null {
  const terms = resolvableTerms(query).filter((t) => postings.has(t.field))
  if (terms.length === 0) return null
  const ranges = terms.map((t) => termsRanges(t, postings.get(t.field) as FieldPostings))
  let maxId = 0
  let minId = 0
  terms.forEach((t, i) => {
    const ids = (postings.get(t.field) as FieldPostings).ids
    for (const [from, to] of ranges[i] as [number, number][])
      for (let k = from; k < to; k++) {
        const id = ids[k] as number
        if (id > maxId) maxId = id
        if (id < minId) minId = id
      }
  })
  // Each clause is a bit set as long as the largest id: ids beyond MAX_ID (or below 0) would make
  // them large, or not fit (the statement then visits the index as before).
  if (maxId > MAX_ID || minId < 0) return null
  const words = (maxId >>> 5) + 1
  const sets = new Map<QueryNode, Uint32Array>()
  terms.forEach((t, i) => {
    const f = postings.get(t.field) as FieldPostings
    sets.set(t, rangeBits(f.ids, ranges[i] as [number, number][], words))
  })
  // A superset of the products a clause can match, or null for "any product".
  const superset = (n: QueryNode): Uint32Array | null => {
    switch (n.kind) {
      case 'terms': {
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
  for (let i = 0; i < words; i++) {
    let w = set[i] as number
    while (w !== 0) {
      w &= w - 1
      count++
    }
  }
  if (count > limit) return null
  const width = terms.length
  const bits = new Map<QueryNode, number>(terms.map((t, i) => [t, i]))
  const clauseSets = terms.map((t) => sets.get(t) as Uint32Array)
  const scale = 2 ** width
  const out: number[] = []
  for (let i = 0; i < words; i++) {
    let w = set[i] as number
    while (w !== 0) {
      const low = w & -w
      const id = (i << 5) + (31 - Math.clz32(low))
      w ^= low
      let mask = 0
      for (let b = 0; b < clauseSets.length; b++)
        if ((((clauseSets[b] as Uint32Array)[id >>> 5] as number) & (1 << (id & 31))) !== 0) mask += 2 ** b
      out.push(id * scale + mask)
    }
  }
  return {
    bits,
    width,
    json: JSON.stringify(out),
    count,
    versions: [...new Set(terms.map((t) => (postings.get(t.field) as FieldPostings).version))],
  }
}
