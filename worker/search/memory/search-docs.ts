/**
 * The in-memory backend: runs a SearchPlan over documents held in memory (categories, attributes,
 * tax rules, reviews, CMS entities; and products in tests, to cross-check the SQL backend): the
 * matches (evaluate.ts), their order as the statement sorts (SQLite's ordering of numbers, text and
 * missing values), the page and the aggregations.
 */
import type { AggNode, SearchPlan, SortSpec } from '../dsl'
import { type EntityKind, extractFacts } from '../semantics/facts'
import { type AggResult, bucket, type EngineResult, effectiveSort } from '../semantics/results'
import { withIndexedFinalPrice } from '../semantics/server-prices'
import { type Ctx, evalNode, type JsDoc } from './evaluate'
/** Wraps documents with their facts (do this once per loaded document set). */
export function toJsDocs(docs: Record<string, unknown>[], kind: EntityKind, idField = 'id'): JsDoc[] {
  const now = Date.now()
  return docs.map((source, i) => ({
    id: (source[idField] as number | string | undefined) ?? i,
    source,
    // Products match on their indexed final price (withIndexedFinalPrice), like their index rows (builds/index-products.ts).
    facts: extractFacts(kind === 'product' ? withIndexedFinalPrice(source, now) : source, kind),
  }))
}

/** Sort key of a document for one sort field (ES: min for asc, max for desc; missing sorts last). */
function sortKey(doc: JsDoc, s: SortSpec): number | string | null {
  const nums = doc.facts.numbers.get(s.field)
  if (nums && nums.size > 0) return s.order === 'asc' ? Math.min(...nums) : Math.max(...nums)
  const terms = doc.facts.terms.get(s.field)
  if (terms && terms.size > 0) {
    const list = [...terms].sort(compareText)
    return (s.order === 'asc' ? list[0] : list[list.length - 1]) as string
  }
  return null
}

/** Byte-wise (UTF-8 order for BMP text) comparison, as SQLite's BINARY collation. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** SQLite ordering: NULL handled by the caller; numbers before text. */
function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'number') return -1
  if (typeof b === 'number') return 1
  return compareText(a, b)
}

function compareIds(a: number | string, b: number | string): number {
  return compareKeys(a, b)
}

/** Numeric-looking bucket keys are numbers when the field holds numbers (as ES answers for numeric fields). */
function aggregate(agg: AggNode, matched: JsDoc[]): AggResult {
  if (agg.kind === 'terms') {
    const counts = new Map<string, number>()
    const numeric = new Set<string>()
    for (const d of matched) {
      const terms = d.facts.terms.get(agg.field)
      if (!terms) continue
      for (const v of terms) counts.set(v, (counts.get(v) ?? 0) + 1)
      const nums = d.facts.numbers.get(agg.field)
      if (nums) for (const n of nums) numeric.add(String(n))
    }
    const buckets = [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
      .slice(0, agg.size)
      .map(([k, n]) => bucket(k, n, numeric.has(k)))
    return { buckets }
  }
  if (agg.kind === 'range') {
    return {
      buckets: agg.ranges.map((r) => {
        let n = 0
        for (const d of matched) {
          const nums = d.facts.numbers.get(agg.field)
          if (!nums) continue
          for (const v of nums) {
            if ((r.from === undefined || v >= r.from) && (r.to === undefined || v < r.to)) {
              n++
              break
            }
          }
        }
        return {
          key: r.key,
          ...(r.from !== undefined ? { from: r.from } : {}),
          ...(r.to !== undefined ? { to: r.to } : {}),
          doc_count: n,
        }
      }),
    }
  }
  let value: number | null = null
  for (const d of matched) {
    const nums = d.facts.numbers.get(agg.field)
    if (!nums) continue
    for (const v of nums) {
      if (value === null || (agg.kind === 'min' ? v < value : v > value)) value = v
    }
  }
  return { value }
}

/** Runs a plan over in-memory documents. */
export function searchDocsInMemory(docs: JsDoc[], plan: SearchPlan): EngineResult {
  const ctx: Ctx = { docs, plans: new Map(), vocab: new Map() }
  const matched: { doc: JsDoc; score: number }[] = []
  for (const doc of docs) {
    const s = evalNode(plan.query, doc, ctx)
    if (s === null) continue
    if (plan.minScore !== null && s < plan.minScore) continue
    matched.push({ doc, score: s })
  }
  const sort = effectiveSort(plan)
  // A score that is not a number sorts like a missing value (SQL holds it as NULL).
  const keyed = matched.map((m) => ({
    ...m,
    keys: sort.map((s) =>
      s.field === '_score' ? (Number.isNaN(m.score) ? null : m.score) : sortKey(m.doc, s),
    ),
  }))
  keyed.sort((a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const s = sort[i] as SortSpec
      const ka = a.keys[i] ?? null
      const kb = b.keys[i] ?? null
      if (ka === null || kb === null) {
        if (ka === kb) continue
        return ka === null ? 1 : -1
      }
      const c = compareKeys(ka, kb)
      if (c !== 0) return s.order === 'asc' ? c : -c
    }
    return compareIds(a.doc.id, b.doc.id)
  })
  const page = keyed.slice(plan.from, plan.from + plan.size)
  const aggregations: Record<string, AggResult> = {}
  const docsMatched = matched.map((m) => m.doc)
  for (const agg of plan.aggs) aggregations[agg.name] = aggregate(agg, docsMatched)
  let maxScore: number | null = null
  for (const m of matched)
    if (!Number.isNaN(m.score) && (maxScore === null || m.score > maxScore)) maxScore = m.score
  return {
    total: matched.length,
    maxScore,
    hits: page.map((m) => ({ id: m.doc.id, score: m.score, source: m.doc.source })),
    aggregations,
  }
}
