/**
 * The in-memory backend's clause evaluation: a query node's score for one document held in memory,
 * or null when it does not match. Same facts (semantics/facts.ts), same text plans
 * (semantics/text.ts), same scoring as the statement the SQL backend compiles (sql/).
 */
import { type QueryNode, rangeBounds } from '../dsl'
import { type Facts, fieldTokens, queryValueForms, TEXT_FIELDS } from '../semantics/facts'
import { combineFieldScores, EXACT_TOKEN_WEIGHT, type FieldPlan, planTextMatch } from '../semantics/text'

export interface JsDoc {
  id: number | string
  source: Record<string, unknown>
  facts: Facts
}

export interface Ctx {
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
export function evalNode(node: QueryNode, doc: JsDoc, ctx: Ctx): number | null {
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
