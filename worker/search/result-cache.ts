/**
 * The per-isolate result-set cache (a query's ordered matches, total and aggregations, so a later
 * page of the same query is one small read) and the parsed product documents those pages show.
 */
import type { Product } from '../../shared/schemas/catalog'
import type { SearchPlan } from './dsl'
import type { AggResult } from './evaluate-js'

/**
 * A query's whole result set at one index version: the ordered ids (and scores), the total and the
 * aggregations — everything but the page. Like Elasticsearch's request cache, it turns the next
 * request for the same query (another page, another visitor) into one small page read, whatever
 * the catalogue size; every read checks the index version, so an import is seen at once.
 */
export interface ResultSet {
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
export const RESULT_CACHE_MAX_IDS = 400_000

const resultCache = new Map<string, ResultSet>()
let resultCacheIds = 0

/** The cache key of a plan: everything but its page. */
export function resultKey(plan: SearchPlan): string {
  return JSON.stringify([plan.query, plan.aggs, plan.sort, plan.minScore])
}

export function dropResult(key: string): void {
  const old = resultCache.get(key)
  if (!old) return
  resultCache.delete(key)
  resultCacheIds -= old.ids.length
}

export function keepResult(key: string, set: ResultSet): void {
  dropResult(key)
  if (set.ids.length > RESULT_CACHE_MAX_IDS / 4) return
  // Least recently used first (a Map iterates in insertion order; hits re-insert).
  for (const k of resultCache.keys()) {
    if (
      resultCache.size < RESULT_CACHE_MAX_ENTRIES &&
      resultCacheIds + set.ids.length <= RESULT_CACHE_MAX_IDS
    )
      break
    dropResult(k)
  }
  resultCache.set(key, set)
  resultCacheIds += set.ids.length
}

/** Empties the result-set and document caches (tests). */
export function clearResultCache(): void {
  resultCache.clear()
  resultCacheIds = 0
  docCache.clear()
  docCacheBytes = 0
}

/**
 * Parsed product documents of the current index version, shared by every cached result set
 * (most recently used last). They are deep-frozen: answers merge live stock into copies, and a
 * caller that tried to change a shared document would fail loudly instead of corrupting it.
 */
const docCache = new Map<number, { version: number; doc: Product; bytes: number }>()
let docCacheBytes = 0
/** Most JSON bytes of documents kept per isolate (parsed, roughly three times that in memory). */
export const DOC_CACHE_MAX_BYTES = 6 * 1024 * 1024

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v)
    for (const x of Object.values(v)) deepFreeze(x)
  }
  return v
}

export function keepDoc(id: number, version: number, doc: Product, bytes: number): void {
  const old = docCache.get(id)
  if (old) {
    docCache.delete(id)
    docCacheBytes -= old.bytes
  }
  for (const [k, e] of docCache) {
    if (docCacheBytes + bytes <= DOC_CACHE_MAX_BYTES) break
    docCache.delete(k)
    docCacheBytes -= e.bytes
  }
  docCache.set(id, { version, doc: deepFreeze(doc), bytes })
  docCacheBytes += bytes
}

/** The cached result set of `key`, if any (its version may be behind the index). */
export function resultSetAt(key: string): ResultSet | undefined {
  return resultCache.get(key)
}

/** Marks a result set as the most recently used. */
export function touchResult(key: string, set: ResultSet): void {
  resultCache.delete(key)
  resultCache.set(key, set)
}

/** The kept document of product `id` if it was read at `version`. */
export function heldDoc(id: number, version: number): Product | undefined {
  const e = docCache.get(id)
  return e?.version === version ? e.doc : undefined
}
