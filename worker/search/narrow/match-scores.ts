/**
 * A full-text clause resolved in the isolate: the score of every product it matches, computed from
 * the word lists exactly as the statement's text match computes it (sql/text-match.ts).
 */
import { type WordPostings, wordKey } from '../held/word-postings'
import type { FieldPlan } from '../semantics/text'
import { bitSetWords, listBits, MAX_ID, popcount, setIds } from './bit-sets'
import type { MatchNode } from './leaves'

/**
 * SQLite's SUM of doubles (compensated, Kahan-Babuska-Neumaier), so a score computed here is the
 * one the statement's text match computes.
 */
function sqlSum(values: number[]): number {
  let sum = 0
  let err = 0
  for (const r of values) {
    const t = sum + r
    if (Math.abs(sum) > Math.abs(r)) err += sum - t + r
    else err += r - t + sum
    sum = t
  }
  return sum + err
}

/** A full-text clause's matches: ascending ids, and each one's score. */
export interface Scored {
  ids: Int32Array
  scores: Float64Array
}

/**
 * The score of every product a full-text clause matches, computed from the word lists exactly as
 * the statement's text match does (sql/text-match.ts): per listed field, each query word's best
 * weight among its expansions the product holds; a field counts when enough words matched, scoring
 * the sum of their weights (in word order); the clause scores its best field plus tie_breaker times
 * the others. Each product in any list is numbered by its rank among them (a bit set of the lists),
 * each list writes its weight into its products' cells, then the products are scored in id order.
 * Null when a list is not held (or holds ids the narrowing cannot use).
 */
export function matchScores(
  node: MatchNode,
  plans: FieldPlan[],
  words: Map<string, WordPostings>,
): Scored | null {
  const lists: { ids: Int32Array; slot: number; weight: number }[] = []
  let slots = 0
  for (const plan of plans)
    for (const qt of plan.tokens) {
      for (const e of qt.expansions) {
        const ids = words.get(wordKey('token', plan.field, e.token))?.ids
        if (!ids) return null
        lists.push({ ids, slot: slots, weight: e.weight * plan.boost })
      }
      slots++
    }
  let maxId = -1
  for (const l of lists) {
    if (l.ids.length === 0) continue
    if ((l.ids[0] as number) < 0) return null
    maxId = Math.max(maxId, l.ids[l.ids.length - 1] as number)
  }
  if (maxId > MAX_ID) return null
  const span = bitSetWords(maxId)
  const all = listBits(
    lists.map((l) => l.ids),
    span,
  )
  // before[w]: products in the words before word w; a product's rank adds those below it in its word.
  const before = new Int32Array(span + 1)
  for (let w = 0; w < span; w++) before[w + 1] = (before[w] as number) + popcount(all[w] as number)
  const cells = new Float64Array((before[span] as number) * slots).fill(Number.NaN)
  for (const l of lists)
    for (let k = 0; k < l.ids.length; k++) {
      const id = l.ids[k] as number
      const w = id >>> 5
      const rank = (before[w] as number) + popcount((all[w] as number) & ((1 << (id & 31)) - 1))
      const cell = rank * slots + l.slot
      const cur = cells[cell] as number
      if (Number.isNaN(cur) || l.weight > cur) cells[cell] = l.weight
    }
  const tb = node.options.tieBreaker
  const fs: number[] = []
  const outIds: number[] = []
  const outScores: number[] = []
  const listed = setIds(all)
  for (let rank = 0; rank < listed.length; rank++) {
    const id = listed[rank] as number
    const row = rank * slots
    fs.length = 0
    let at = 0
    for (const plan of plans) {
      let matched = 0
      let sum = 0
      for (let q = 0; q < plan.tokens.length; q++) {
        const weight = cells[row + at + q] as number
        if (!Number.isNaN(weight)) {
          matched++
          sum += weight
        }
      }
      at += plan.tokens.length
      if (plan.tokens.length > 0 && matched >= plan.required) fs.push(sum)
    }
    if (fs.length === 0) continue
    const max = Math.max(...fs)
    outIds.push(id)
    outScores.push(node.boost * (tb === 0 ? max : max + tb * (sqlSum(fs) - max)))
  }
  return { ids: Int32Array.from(outIds), scores: Float64Array.from(outScores) }
}
