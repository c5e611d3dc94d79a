/**
 * Statements over groups of products that share their bits: clauses whose test and score read the
 * bits alone are computed once per group, and whole groups are ranked.
 */
import { clauseChildren, type QueryNode } from '../dsl'
import { PLACE_UNIT } from '../narrow/visit-list'
import type { Compiler } from './sql-expr'
/**
 * The largest compound clauses of a narrowed query whose every clause is resolved (their test and
 * score then depend on the product's bits alone, see perBits in compile-where.ts).
 */
export function bitsOnlyClauses(query: QueryNode, c: Compiler): Set<QueryNode> {
  const resolved = (n: QueryNode): boolean => {
    switch (n.kind) {
      case 'terms':
      case 'phrase':
      case 'range':
        return c.bits?.has(n) === true
      case 'match':
        return c.slots?.has(n) === true || c.bits?.has(n) === true
      case 'match_all':
      case 'match_none':
        return true
      case 'bool':
      case 'function_score':
        return clauseChildren(n).every(resolved)
      default:
        return false
    }
  }
  const out = new Set<QueryNode>()
  const walk = (n: QueryNode) => {
    if (resolved(n)) {
      if (n.kind === 'bool' || n.kind === 'function_score') out.add(n)
      return
    }
    for (const ch of clauseChildren(n)) walk(ch)
  }
  walk(query)
  return out
}

/** A read of anything but the visited product's bits and per-bits values. */
export const BEYOND_BITS = /\bd\.(?!cm\b|kb\d+\b)|\b[a-z]+\d+\./

/**
 * The listed products as groups sharing their bits (cg, from bitGroups): each group's bits (cm),
 * size (n), first ids (ids, JSON) and its per-bits values (kbN), computed once per group.
 */
export function groupRows(list: string, perBits: string[]): string {
  const groups = `SELECT j.value ->> 0 AS cm, j.value ->> 1 AS n, j.value -> 2 AS ids FROM json_each(${list}) j`
  return `cg AS MATERIALIZED (SELECT b.*${perBits.map((col) => `, ${col.replaceAll('d.cm', 'b.cm')}`).join('')} FROM (${groups}) b)`
}

/**
 * The matches of grouped products: the groups that match (fg) with the number of matches ranked
 * before them (ahead: by score in `order`; none when unsorted or in list order), and the listed
 * ids of each group that can still be among the first `keep` (f), `placed` ones with their place
 * in the list (pos).
 */
export function groupMatches(
  q: { cond: { sql: string }; score: { sql: string } },
  minScore: string,
  order: 'asc' | 'desc' | undefined,
  keep: string,
  placed: boolean,
): string[] {
  const ahead = order
    ? `SUM(n) OVER (ORDER BY (score IS NULL), score ${order === 'asc' ? 'ASC' : 'DESC'}) - SUM(n) OVER (PARTITION BY score)`
    : '0'
  const member = placed
    ? `(e.value & ${PLACE_UNIT - 1}) AS id, g.score AS score, (e.value >> ${Math.log2(PLACE_UNIT)}) AS pos`
    : 'e.value AS id, g.score AS score'
  return [
    `fg AS MATERIALIZED (SELECT *, ${ahead} AS ahead FROM (SELECT * FROM (SELECT d.cm AS cm, d.n AS n, d.ids AS ids, ${q.score.sql} AS score FROM cg d WHERE ${q.cond.sql})${minScore}))`,
    `f AS MATERIALIZED (SELECT ${member} FROM fg g CROSS JOIN json_each(g.ids) e WHERE g.ahead < ${keep})`,
  ]
}

/** The total and best score of grouped matches. */
export const GROUPS_TOTAL = '(SELECT json_array(COALESCE(SUM(n), 0), MAX(score)) FROM fg) AS total'
