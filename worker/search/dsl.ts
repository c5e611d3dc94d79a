/**
 * The language every stage of the engine shares: the Elasticsearch query DSL subset the
 * vue-storefront clients send, as a small AST that both engine backends (SQL over the D1 index, and
 * in-memory over loaded documents) evaluate with the same semantics. Anything outside the subset is
 * rejected with a SearchError naming the clause. This file holds what a parsed request is (the
 * AST, the plan), its walks and the request limits; the parsers
 * are request/parse-query.ts (queries), request/parse-text.ts (full-text clauses),
 * request/parse-aggs.ts and request/parse-sort.ts.
 */

/** A client error in a search request (answered as a 400 envelope). */
export class SearchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SearchError'
  }
}

/**
 * Limits of one search request. Each keeps the work a request can cause bounded (the compiled
 * statement grows linearly with the clauses, the in-memory evaluation with clauses × documents);
 * going over one is a 400 whose message names the limit. docs/search-limits.md explains them.
 */
/** Deepest clause nesting accepted (bool inside bool inside ...). */
export const MAX_QUERY_DEPTH = 12
/** Most clauses in one query (every clause at every level, function_score functions included). */
export const MAX_QUERY_CLAUSES = 128
/** Most values in one terms clause. */
export const MAX_TERMS_VALUES = 1024
/** Most terms values in the whole query. */
export const MAX_QUERY_VALUES = 4096
/** Longest string value or range bound (indexed exact values are at most this long). */
export const MAX_VALUE_LENGTH = 512
/** Longest full-text query string (characters). */
export const MAX_TEXT_LENGTH = 500
/** Most full-text clauses (match, multi_match, match_phrase on a text field) in one query. */
export const MAX_TEXT_CLAUSES = 4
/**
 * Most distinct (word, text field) pairs over the full-text clauses: each is compared with the
 * field's whole vocabulary for typos (only the first MAX_WORDS_PER_TEXT distinct words of a text
 * take part).
 */
export const MAX_TEXT_WORD_FIELDS = 96
/** Words of one full-text query that take part in matching. */
export const MAX_WORDS_PER_TEXT = 16
/** Most fields one multi_match may list. */
export const MAX_MULTI_MATCH_FIELDS = 16
/** Most aggregations in one request. */
export const MAX_AGGREGATIONS = 32
/** Most ranges over all range aggregations of one request (each is counted over every match). */
export const MAX_RANGE_BUCKETS = 100
/** Largest terms aggregation size. */
export const MAX_TERMS_AGG_SIZE = 1000
/** Most sort fields. */
export const MAX_SORT_FIELDS = 5

export type Scalar = string | number | boolean

interface FieldBoost {
  field: string
  boost: number
}

export interface TextOptions {
  operator: 'or' | 'and'
  /** Raw minimum_should_match (integer or 'N%'); resolved against the token count. */
  minimumShouldMatch: number | string | null
  /** Requested maximum edits (0, 1, 2), or 'auto'. */
  fuzziness: number | 'auto'
  prefixLength: number
  maxExpansions: number
  tieBreaker: number
}

export type QueryNode =
  | { kind: 'match_all'; boost: number }
  | { kind: 'match_none' }
  | { kind: 'terms'; field: string; values: Scalar[]; boost: number }
  | { kind: 'range'; field: string; gt?: Scalar; gte?: Scalar; lt?: Scalar; lte?: Scalar; boost: number }
  | { kind: 'exists'; field: string; boost: number }
  /** Values of `field` (and, on a full-text field, its lower-cased words) starting with `prefix`. */
  | { kind: 'prefix'; field: string; prefix: string; boost: number }
  | { kind: 'match'; fields: FieldBoost[]; query: string; options: TextOptions; boost: number }
  | { kind: 'phrase'; field: string; query: string; boost: number }
  | {
      kind: 'bool'
      must: QueryNode[]
      should: QueryNode[]
      mustNot: QueryNode[]
      filter: QueryNode[]
      minimumShouldMatch: number
      boost: number
    }
  | {
      kind: 'function_score'
      query: QueryNode
      functions: { filter: QueryNode | null; weight: number }[]
      scoreMode: 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min'
      boostMode: 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min'
      maxBoost: number
      minScore: number | null
      boost: number
    }

export type AggNode =
  | { name: string; kind: 'terms'; field: string; size: number }
  | { name: string; kind: 'range'; field: string; ranges: { key: string; from?: number; to?: number }[] }
  | { name: string; kind: 'min' | 'max'; field: string }

export interface SortSpec {
  field: string
  order: 'asc' | 'desc'
}

/** A range's bounds in one comparison mode: numbers (numeric values) or strings (e.g. ISO dates). */
export function rangeBounds(node: Extract<QueryNode, { kind: 'range' }>): {
  mode: 'number' | 'string'
  gt?: number | string
  gte?: number | string
  lt?: number | string
  lte?: number | string
} {
  const raw = { gt: node.gt, gte: node.gte, lt: node.lt, lte: node.lte }
  const present = Object.values(raw).filter((v) => v !== undefined)
  const numeric = present.every(
    (v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())),
  )
  if (numeric) {
    const conv = (v: Scalar | undefined) => (v === undefined ? undefined : Number(v))
    return { mode: 'number', gt: conv(raw.gt), gte: conv(raw.gte), lt: conv(raw.lt), lte: conv(raw.lte) }
  }
  if (present.some((v) => typeof v !== 'string'))
    throw new SearchError(`range on ${node.field} mixes numbers and strings`)
  return { mode: 'string', ...(raw as { gt?: string; gte?: string; lt?: string; lte?: string }) }
}

/** A parsed search request: what both backends execute. */
export interface SearchPlan {
  query: QueryNode
  aggs: AggNode[]
  sort: SortSpec[]
  from: number
  size: number
  minScore: number | null
}

/** A compound clause's clauses (a bool's, a function_score's query and function filters). */
export function clauseChildren(node: QueryNode): QueryNode[] {
  if (node.kind === 'bool') return [...node.must, ...node.filter, ...node.should, ...node.mustNot]
  if (node.kind === 'function_score')
    return [node.query, ...node.functions.flatMap((f) => (f.filter ? [f.filter] : []))]
  return []
}
