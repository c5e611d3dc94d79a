/**
 * Shaping a product statement's one-row answer (JSON columns) into the engine's result: the page
 * with live stock merged, and the aggregations in the Elasticsearch shape.
 */
import type { Product } from '@shared/schemas/catalog'
import type { AggNode, SearchPlan } from '../dsl'
import { heldDoc, keepDoc } from '../held/documents'
import { pageStock } from '../held/live-stock'
import { type AggResult, bucket, type EngineResult } from '../semantics/results'

/** One row of a product statement: its columns, most of them JSON. */
export type ResultRow = Record<string, string | number | null>

/** A JSON column parsed, or `fallback` when the column is empty. */
export function parseJsonColumn<T>(v: string | number | null | undefined, fallback: T): T {
  return typeof v === 'string' ? (JSON.parse(v) as T) : fallback
}

/**
 * The statement's page with live stock merged: its documents, or for those it was told the isolate
 * holds (null there) the held ones. Documents read are kept for later page reads.
 */
export function hitsOf(
  row: ResultRow,
  version: number,
  held: Map<number, Product> = new Map(),
): EngineResult['hits'] {
  const hits = parseJsonColumn<[number, number, number, Product | null][]>(row.hits, []).sort(
    (x, y) => x[0] - y[0],
  )
  const read = hits.filter((h) => h[3] !== null).length
  const bytes = typeof row.hits === 'string' ? row.hits.length / Math.max(1, read) : 0
  // The statement reads the page's stock whole (it holds no clock for a page it has yet to rank).
  const merge = pageStock(hits.map((h) => h[1])).merger(row)
  const out: EngineResult['hits'] = []
  for (const [, id, score, fetched] of hits) {
    const doc = fetched ?? heldDoc(id, version) ?? held.get(id)
    if (!doc) throw new Error(`The search statement left out document ${id}, not held`)
    if (fetched) keepDoc(id, version, fetched, bytes)
    out.push({ id, score, source: merge(doc) as unknown as Record<string, unknown> })
  }
  return out
}

/** The requested aggregations from the statement's columns and the counts made in JS. */
export function aggregationsOf(
  plan: SearchPlan,
  row: ResultRow,
  jsCounts: [string, string, number][] = [],
): Record<string, AggResult> {
  const aggregations: Record<string, AggResult> = {}
  const termCounts = new Map<string, [string, number][]>()
  for (const [field, value, count] of [
    ...parseJsonColumn<[string, string, number][]>(row.aterms, []),
    ...jsCounts,
  ]) {
    const list = termCounts.get(field) ?? []
    list.push([value, count])
    termCounts.set(field, list)
  }
  plan.aggs.forEach((agg: AggNode, i) => {
    const col = row[`a${i}`]
    if (agg.kind === 'terms') {
      const numeric = Number(col) === 1
      aggregations[agg.name] = {
        buckets: [...(termCounts.get(agg.field) ?? [])]
          .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
          .slice(0, agg.size)
          .map(([value, count]) => bucket(value, count, numeric && String(Number(value)) === value)),
      }
    } else if (agg.kind === 'range') {
      // Many ranges come as an array of arrays (the SQL function-argument limit): flattened here.
      const counts = parseJsonColumn<unknown[]>(col, []).flat(Number.POSITIVE_INFINITY) as number[]
      aggregations[agg.name] = {
        buckets: agg.ranges.map((r, j) => ({
          key: r.key,
          ...(r.from !== undefined ? { from: r.from } : {}),
          ...(r.to !== undefined ? { to: r.to } : {}),
          doc_count: counts[j] ?? 0,
        })),
      }
    } else {
      aggregations[agg.name] = { value: col === null || col === undefined ? null : Number(col) }
    }
  })
  return aggregations
}
