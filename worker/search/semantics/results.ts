/**
 * What both backends answer, and what a query's shape implies for it: the result and aggregation
 * shapes, a terms bucket's key, the sort actually applied and whether the query needs the
 * vocabulary.
 */
import type { QueryNode, SearchPlan, SortSpec } from '../dsl'
import { TEXT_FIELDS } from './facts'

interface EngineHit {
  id: number | string
  score: number
  source: Record<string, unknown>
}

export type AggResult =
  | {
      buckets: {
        key: string | number
        key_as_string?: string
        doc_count: number
        from?: number
        to?: number
      }[]
    }
  | { value: number | null }

export interface EngineResult {
  total: number
  maxScore: number | null
  hits: EngineHit[]
  aggregations: Record<string, AggResult>
}

/** An ES terms bucket from a stored text value. */
export function bucket(value: string, count: number, numeric: boolean) {
  if (numeric) return { key: Number(value), doc_count: count }
  if (value === 'true' || value === 'false')
    return { key: value === 'true' ? 1 : 0, key_as_string: value, doc_count: count }
  return { key: value, doc_count: count }
}

/** True when a query node produces relevance scores (text clauses); filters alone score constants. */
function isScoring(node: QueryNode): boolean {
  switch (node.kind) {
    case 'match':
    case 'phrase':
    case 'function_score':
      return true
    case 'bool':
      return [...node.must, ...node.should].some(isScoring)
    default:
      return false
  }
}

/** The sort actually applied: the requested one, else relevance for scoring queries, else none (id order). */
export function effectiveSort(plan: SearchPlan): SortSpec[] {
  if (plan.sort.length > 0) return plan.sort
  return isScoring(plan.query) ? [{ field: '_score', order: 'desc' }] : []
}

/** Every text clause's fields (to know which vocabularies a plan needs). */
export function needsVocabulary(node: QueryNode): boolean {
  switch (node.kind) {
    case 'match':
      return node.fields.some((f) => TEXT_FIELDS.has(f.field))
    case 'bool':
      return [...node.must, ...node.should, ...node.mustNot, ...node.filter].some(needsVocabulary)
    case 'function_score':
      return (
        needsVocabulary(node.query) ||
        node.functions.some((f) => f.filter !== null && needsVocabulary(f.filter))
      )
    default:
      return false
  }
}
