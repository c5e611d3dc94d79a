/**
 * SQL expressions for the statement compiler: bound values, expression-height accounting (SQLite
 * rejects deep expression trees), shared sub-expressions computed once per statement, and the
 * statement limits D1 imposes.
 */
import { type QueryNode, SearchError } from '../dsl'
import type { Vocabulary } from '../held/vocabulary'
import type { ScoreSlot } from '../narrow/narrow-query'

/** D1 binds at most 100 parameters to a statement (the values past 99 share the last one). */
export const MAX_SQL_PARAMS = 100
/**
 * Longest statement compiled. D1 accepts 100,000 bytes, but statements of that size built from
 * many small subqueries exhausted the database's per-statement memory in our tests (from about
 * 80 KB on); 64 KB keeps a margin, and fits every query the other limits allow but the widest.
 */
export const MAX_SQL_BYTES = 64 * 1024
/** D1 accepts at most 32 arguments per SQL function call. */
export const MAX_FUNCTION_ARGS = 32
/** D1 accepts result sets of at most 100 columns (search_docs has 10, the rest are shared values). */
const MAX_SHARED_VALUES = 64
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

/**
 * The statement's values, each bound once as ?1, ?2, … . D1 binds at most MAX_SQL_PARAMS: the
 * values past the first MAX_SQL_PARAMS - 1 go together as one JSON array in the last parameter,
 * each read back with json_extract(?100, '$[i]') (a constant expression, computed once per
 * statement). Either way the SQL text holds no value.
 */
export class Params {
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
  /** A parameter of its own (never shared with an equal value), its value set later. */
  reserve(): { ref: string; set: (v: string) => void } {
    const i = this.values.length
    if (i >= MAX_SQL_PARAMS - 1) throw new Error('reserve() is for the first parameters only')
    this.values.push(null)
    return {
      ref: `?${i + 1}`,
      set: (v) => {
        this.values[i] = v
      },
    }
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
export interface X {
  sql: string
  h: number
  pass: number
}

/** A clause compiled: whether a product matches, and its score when it does. */
export interface Compiled {
  cond: X
  score: X
}

export interface Compiler {
  params: Params
  ctes: string[]
  /** LEFT JOINs of text-match CTEs onto search_docs d (one row per product at most). */
  joins: { name: string; sql: string }[]
  vocab: Vocabulary
  /** Shared values per pass: passes[i] holds the columns of pass i + 1 (`<expr> AS vN`). */
  passes: string[][]
  shared: number
  /**
   * Terms and phrase clauses already resolved for the products the statement visits (narrow/): clause
   * → its bit in the visited row's `cm` column.
   */
  bits?: Map<QueryNode, number>
  /** Full-text clauses resolved likewise: clause → the score number its products carry in `cm`. */
  slots?: Map<QueryNode, ScoreSlot>
  /**
   * Clauses whose test and score depend on `cm` alone (every clause under them resolved), and the
   * columns computed once per distinct `cm` for them (`<expr> AS kbN`): the statement reads each
   * product's from that small table instead of evaluating the expressions product by product.
   */
  byBits?: { nodes: Set<QueryNode>; cols: string[] }
  /** Per compiled leaf, the queries of the product ids it matches (for candidateSource). */
  sources?: Map<QueryNode, IdSource[]>
}

/**
 * A query of the product ids a clause matches: `text` when it is a full-text match, `match` the
 * name of the text-match CTE (product_id, score) it reads, if any.
 */
export interface IdSource {
  sql: string
  text: boolean
  match?: string
}

export const ONE: X = { sql: '1', h: 1, pass: 0 }
export const ZERO: X = { sql: '0', h: 1, pass: 0 }

/** An expression of no parts, of height `h`. */
export function leaf(sql: string, h: number): X {
  return { sql, h, pass: 0 }
}

/** A bound value (height 2: json_extract when the values are packed). */
export function param(c: Compiler, v: string | number): X {
  return leaf(c.params.add(v), 2)
}

/** An expression over parts: `h` levels above the highest part. */
export function over(sql: string, parts: X[], h = 1): X {
  let mh = 0
  let pass = 0
  for (const x of parts) {
    if (x.h > mh) mh = x.h
    if (x.pass > pass) pass = x.pass
  }
  return { sql, h: mh + h, pass }
}

/** `a op b`. */
export function bin(a: X, op: string, b: X): X {
  return over(`(${a.sql} ${op} ${b.sql})`, [a, b])
}

/** `a op b op c ...` as a balanced tree (height grows with log2 of the count, not the count). */
export function balanced(items: X[], op: string, empty: X): X {
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
export function fnCall(name: string, args: X[]): X {
  if (args.length === 1) return args[0] as X
  if (args.length <= MAX_FUNCTION_ARGS) return over(`${name}(${args.map((a) => a.sql).join(', ')})`, args)
  const groups: X[] = []
  for (let i = 0; i < args.length; i += MAX_FUNCTION_ARGS)
    groups.push(fnCall(name, args.slice(i, i + MAX_FUNCTION_ARGS)))
  return fnCall(name, groups)
}

/** `CASE WHEN cond THEN then [ELSE otherwise] END`. */
export function caseWhen(cond: X, then: X, otherwise?: X): X {
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
export function share(c: Compiler, x: X): X {
  return x.sql.length > MAX_REPEATED_LENGTH || x.h > MAX_INLINE_HEIGHT ? hoist(c, x) : x
}

/** Keeps a clause's parts within the height the enclosing clauses can build on. */
export function bound(c: Compiler, r: Compiled): Compiled {
  const out = {
    cond: r.cond.h > MAX_INLINE_HEIGHT ? hoist(c, r.cond) : r.cond,
    score: r.score.h > MAX_INLINE_HEIGHT ? hoist(c, r.score) : r.score,
  }
  if (out.cond.sql.length + out.score.sql.length > MAX_SQL_BYTES) throw tooLarge()
  return out
}

/** The error of a query whose statement would exceed MAX_SQL_BYTES. */
export function tooLarge(): SearchError {
  return new SearchError(
    `Query is too complex (it compiles to more than ${MAX_SQL_BYTES} bytes of SQL, the most the engine sends to the database)`,
  )
}

/** Most values listed as parameters of their own (a longer list is one JSON parameter). */
const MAX_LISTED_VALUES = 8

/**
 * The values a NULL-able expression compares equal to, as ` = ?n` or ` IN (...)`: a short list
 * as parameters (a lookup in a list built once, cheaper per row than a JSON table), a long one
 * as one JSON array.
 */
export function valueList(c: Compiler, forms: string[]): { sql: string } {
  if (forms.length === 1) return { sql: ` = ${c.params.add(forms[0] as string)}` }
  if (forms.length <= MAX_LISTED_VALUES)
    return { sql: ` IN (${forms.map((f) => c.params.add(f)).join(', ')})` }
  return { sql: ` IN (SELECT value FROM json_each(${c.params.add(JSON.stringify(forms))}))` }
}
