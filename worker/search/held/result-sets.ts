/**
 * The per-isolate result-set cache: a query's ordered matches, total and aggregations, so a later
 * page of the same query is one small read (the page's documents are held in documents.ts).
 */
import { approxBytes, createMemo } from '../../platform/memo'
import type { SearchPlan } from '../dsl'
import type { AggResult } from '../semantics/results'
import { clearDocuments } from './documents'
import { indexVersionSeen } from './index-version'

/**
 * A query's result set at one index version: its first ranked ids (and scores; a page past them
 * runs the statement again), the total and the aggregations — everything but the page. Like Elasticsearch's request cache, it turns the next
 * request for the same query (another page, another visitor) into one small page read, whatever
 * the catalogue size; every read checks the index version, so an import is seen at once.
 */
interface ResultSet {
  version: number
  ids: Int32Array
  scores: Float64Array
  total: number
  maxScore: number | null
  aggregations: Record<string, AggResult>
}

/**
 * Most cached result sets per isolate, and most ids they may hold together (~12 bytes each; a set
 * holds at most MAX_RESULT_WINDOW ids, as no page starts past the result window).
 */
export const RESULT_CACHE_MAX_ENTRIES = 500
const RESULT_CACHE_MAX_IDS = 400_000

/** Bytes a result set's ids are counted for (an id and a score per match). */
const BYTES_PER_ID = 12
/** Most bytes of result sets per isolate: the id budget and their aggregations. */
export const RESULT_CACHE_MAX_BYTES = RESULT_CACHE_MAX_IDS * BYTES_PER_ID + 1024 * 1024

/** Heap bytes of a result set: its typed arrays, its aggregations (a walk of them) and the object. */
function resultSetBytes(set: ResultSet): number {
  return set.ids.byteLength + set.scores.byteLength + 2 * 64 + approxBytes(set.aggregations) + 64
}

/** Result sets of the index version this isolate last read, least recently used first. */
const resultCache = createMemo<ResultSet>({
  name: 'search result sets',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: RESULT_CACHE_MAX_ENTRIES,
  maxBytes: RESULT_CACHE_MAX_BYTES,
  sizeOf: resultSetBytes,
  version: indexVersionSeen,
})

/** The cache key of a plan: everything but its page. */
export function resultKey(plan: SearchPlan): string {
  return JSON.stringify([plan.query, plan.aggs, plan.sort, plan.minScore])
}

export function dropResult(key: string): void {
  resultCache.delete(key)
}

/** Keeps a result set (one holding over a quarter of the id or byte budget is not kept). */
export function keepResult(key: string, set: ResultSet): void {
  dropResult(key)
  if (set.ids.length > RESULT_CACHE_MAX_IDS / 4 || resultSetBytes(set) > RESULT_CACHE_MAX_BYTES / 4) return
  resultCache.set(key, set)
}

/** Empties the result-set and document caches (tests). */
export function clearResultCache(): void {
  resultCache.clear()
  clearDocuments()
}

/** The cached result set of `key`, if it was read at the index version this isolate last saw. */
export function resultSetAt(key: string): ResultSet | undefined {
  return resultCache.peek(key)
}
