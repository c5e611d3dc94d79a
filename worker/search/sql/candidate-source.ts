/**
 * The products a statement not narrowed in the isolate visits when its query has a full-text part:
 * the union of the id queries its leaves recorded, instead of the whole index.
 */
import type { QueryNode } from '../dsl'
import type { Compiler, IdSource } from './sql-expr'

/** Most id queries united for a disjunction (each is written into the statement again). */
const MAX_UNION_PARTS = 8

/** The union of id queries, two at a time (D1 accepts only a few terms in one compound SELECT). */
export function unionIds(parts: string[]): string {
  if (parts.length === 1) return parts[0] as string
  const mid = parts.length >> 1
  return `SELECT product_id FROM (${unionIds(parts.slice(0, mid))}) UNION SELECT product_id FROM (${unionIds(parts.slice(mid))})`
}

/**
 * The id queries whose union holds every product `node` can match (a superset), or null when the
 * clause may match any product. Built from the id queries the compiler recorded for its leaves
 * (`sources`): a conjunction is bounded by a part holding a full-text match when it has one (the
 * other parts stay tests), a disjunction by the union of all its parts.
 */
export function candidateSource(node: QueryNode, c: Compiler): IdSource[] | null {
  switch (node.kind) {
    case 'terms':
    case 'phrase':
    case 'match':
      return c.sources?.get(node) ?? null
    case 'function_score':
      return candidateSource(node.query, c)
    case 'bool': {
      const textual = (x: IdSource[] | null) => x?.some((p) => p.text) === true
      const required = [...node.must, ...node.filter].map((ch) => candidateSource(ch, c))
      let any: IdSource[] | null = null
      if (node.minimumShouldMatch > 0 && node.should.length > 0) {
        const parts = node.should.map((ch) => candidateSource(ch, c))
        const all = parts.every((x) => x !== null) ? (parts as IdSource[][]).flat() : []
        if (all.length > 0 && all.length <= MAX_UNION_PARTS) any = all
      }
      // Only a full-text part is known to be narrow; a terms list may hold most of the catalogue.
      return required.find(textual) ?? (textual(any) ? any : null)
    }
    default:
      return null
  }
}
