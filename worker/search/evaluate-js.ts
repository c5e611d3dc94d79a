/**
 * The in-memory backend: evaluates a SearchPlan over documents held in memory (categories,
 * attributes, tax rules, reviews, CMS entities; and products in tests, to cross-check the SQL
 * backend). Same facts (facts.ts), same text plans (text.ts), same scoring as compile-sql.ts.
 */
import { type AggNode, type QueryNode, rangeBounds, type SearchPlan, type SortSpec } from './dsl'
import { type EntityKind, extractFacts, type Facts, fieldTokens, queryValueForms, TEXT_FIELDS } from './facts'
import { withDerivedFinalPrice } from './server-prices'
import { combineFieldScores, EXACT_TOKEN_WEIGHT, type FieldPlan, planTextMatch } from './text'

interface JsDoc {
  id: number | string
  source: Record<string, unknown>
  facts: Facts
}

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

/** Wraps documents with their facts (do this once per loaded document set). */
export function toJsDocs(docs: Record<string, unknown>[], kind: EntityKind, idField = 'id'): JsDoc[] {
  const now = Date.now()
  return docs.map((source, i) => ({
    id: (source[idField] as number | string | undefined) ?? i,
    source,
    // Products match on the derived final price, like their index rows (index-products.ts).
    facts: extractFacts(kind === 'product' ? withDerivedFinalPrice(source, now) : source, kind),
  }))
}

interface Ctx {
  docs: JsDoc[]
  plans: Map<QueryNode, FieldPlan[]>
  vocab: Map<string, Set<string>>
}

function vocabularyOf(ctx: Ctx, field: string): Set<string> {
  let v = ctx.vocab.get(field)
  if (!v) {
    v = new Set()
    for (const d of ctx.docs) {
      const t = d.facts.tokens.get(field)
      if (t) for (const k of t.keys()) v.add(k)
    }
    ctx.vocab.set(field, v)
  }
  return v
}

function hasTerm(facts: Facts, field: string, values: unknown[]): boolean {
  const set = facts.terms.get(field)
  if (!set) return false
  for (const v of values) for (const f of queryValueForms(v)) if (set.has(f)) return true
  return false
}

function inRange(v: number | string, b: ReturnType<typeof rangeBounds>): boolean {
  if (b.gt !== undefined && !(v > b.gt)) return false
  if (b.gte !== undefined && !(v >= b.gte)) return false
  if (b.lt !== undefined && !(v < b.lt)) return false
  if (b.lte !== undefined && !(v <= b.lte)) return false
  return true
}

function fieldExists(facts: Facts, field: string): boolean {
  if (facts.terms.has(field) || facts.tokens.has(field)) return true
  const prefix = `${field}.`
  for (const k of facts.terms.keys()) if (k.startsWith(prefix)) return true
  return false
}

/** Score of a node for a document, or null when the document does not match. */
function evalNode(node: QueryNode, doc: JsDoc, ctx: Ctx): number | null {
  const { facts } = doc
  switch (node.kind) {
    case 'match_all':
      return node.boost
    case 'match_none':
      return null
    case 'terms':
      return hasTerm(facts, node.field, node.values) ? node.boost : null
    case 'range': {
      const b = rangeBounds(node)
      if (b.mode === 'number') {
        const nums = facts.numbers.get(node.field)
        if (nums) for (const v of nums) if (inRange(v, b)) return node.boost
        return null
      }
      const terms = facts.terms.get(node.field)
      if (terms) for (const v of terms) if (inRange(v, b)) return node.boost
      return null
    }
    case 'exists':
      return fieldExists(facts, node.field) ? node.boost : null
    case 'prefix': {
      for (const v of facts.terms.get(node.field) ?? []) if (v.startsWith(node.prefix)) return node.boost
      const lower = node.prefix.toLowerCase()
      if (fieldTokensIndexed(node.field))
        for (const t of facts.tokens.get(node.field)?.keys() ?? []) if (t.startsWith(lower)) return node.boost
      return null
    }
    case 'match': {
      let plans = ctx.plans.get(node)
      if (!plans) {
        plans = planTextMatch(node.fields, node.query, node.options, (f) => vocabularyOf(ctx, f))
        ctx.plans.set(node, plans)
      }
      const scores: number[] = []
      for (const p of plans) {
        if (!p.text) {
          if (hasTerm(facts, p.field, [node.query])) scores.push(EXACT_TOKEN_WEIGHT * p.boost)
          continue
        }
        const docTokens = facts.tokens.get(p.field)
        if (!docTokens) continue
        let matched = 0
        let sum = 0
        for (const qt of p.tokens) {
          let best = 0
          for (const e of qt.expansions) if (docTokens.has(e.token) && e.weight > best) best = e.weight
          if (best > 0) {
            matched++
            sum += best
          }
        }
        if (matched >= p.required) scores.push(sum * p.boost)
      }
      if (scores.length === 0) return null
      return node.boost * combineFieldScores(scores, node.options.tieBreaker)
    }
    case 'phrase': {
      if (!fieldTokensIndexed(node.field))
        return hasTerm(facts, node.field, [node.query]) ? node.boost * EXACT_TOKEN_WEIGHT : null
      const q = fieldTokens(node.field, node.query)
      const docTokens = facts.tokens.get(node.field)
      if (q.length === 0 || !docTokens) return null
      const start = docTokens.get(q[0] as string)
      if (start === undefined) return null
      for (let i = 1; i < q.length; i++) if (docTokens.get(q[i] as string) !== start + i) return null
      return node.boost * EXACT_TOKEN_WEIGHT
    }
    case 'bool': {
      let score = 0
      for (const c of node.must) {
        const s = evalNode(c, doc, ctx)
        if (s === null) return null
        score += s
      }
      for (const c of node.filter) if (evalNode(c, doc, ctx) === null) return null
      for (const c of node.mustNot) if (evalNode(c, doc, ctx) !== null) return null
      let matched = 0
      for (const c of node.should) {
        const s = evalNode(c, doc, ctx)
        if (s !== null) {
          matched++
          score += s
        }
      }
      if (matched < node.minimumShouldMatch) return null
      return node.boost * score
    }
    case 'function_score': {
      const q = evalNode(node.query, doc, ctx)
      if (q === null) return null
      const weights: number[] = []
      for (const fn of node.functions) {
        if (fn.filter === null || evalNode(fn.filter, doc, ctx) !== null) {
          weights.push(fn.weight)
          if (node.scoreMode === 'first') break
        }
      }
      let f = 1
      if (weights.length > 0) {
        switch (node.scoreMode) {
          case 'multiply':
            f = weights.reduce((a, b) => a * b, 1)
            break
          case 'sum':
            f = weights.reduce((a, b) => a + b, 0)
            break
          case 'avg':
            f = weights.reduce((a, b) => a + b, 0) / weights.length
            break
          case 'first':
            f = weights[0] as number
            break
          case 'max':
            f = Math.max(...weights)
            break
          case 'min':
            f = Math.min(...weights)
            break
        }
      }
      f = Math.min(f, node.maxBoost)
      let s: number
      switch (node.boostMode) {
        case 'multiply':
          s = q * f
          break
        case 'replace':
          s = f
          break
        case 'sum':
          s = q + f
          break
        case 'avg':
          s = (q + f) / 2
          break
        case 'max':
          s = Math.max(q, f)
          break
        case 'min':
          s = Math.min(q, f)
          break
      }
      s *= node.boost
      if (node.minScore !== null && s < node.minScore) return null
      return s
    }
  }
}

function fieldTokensIndexed(field: string): boolean {
  return TEXT_FIELDS.has(field)
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

/** The sort actually applied: the requested one, else relevance for scoring queries, else none (id order). */
export function effectiveSort(plan: SearchPlan): SortSpec[] {
  if (plan.sort.length > 0) return plan.sort
  return isScoring(plan.query) ? [{ field: '_score', order: 'desc' }] : []
}
