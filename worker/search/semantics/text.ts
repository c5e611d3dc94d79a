/**
 * Full-text matching shared by both engine backends: typo distance, ES-style AUTO fuzziness, query
 * token expansion against a vocabulary, and the per-token weights the scores are built from.
 *
 * Scoring model (both backends): a query token that matches a document token exactly weighs 2; a
 * fuzzy match weighs 2 - edits / min(length of the two tokens) (so one typo in a 5-letter word
 * weighs 1.8). A field scores the sum over query tokens of their best weight times the field's boost;
 * a multi_match scores its best field plus tie_breaker times the others. With the storefront's boosts
 * (name 4, sku 2, category name 1) a name match outranks a sku match, which outranks a category match.
 */
import { createMemo } from '../../platform/memo'
import type { TextOptions } from '../dsl'
import { MAX_WORDS_PER_TEXT } from '../dsl'
import { fieldTokens, TEXT_FIELDS } from './facts'

/** Most distinct words of a full-text query that are matched. */
export const MAX_QUERY_TOKENS = MAX_WORDS_PER_TEXT

/**
 * Most (word, field, expansion) rows one match/multi_match clause produces: with many words and
 * fields each word keeps fewer of its closest typo expansions (at least itself), so the statement's
 * expansion table stays small. A clause under the budget keeps max_expansions as asked.
 */
const MAX_EXPANSION_ROWS = 4096

/** Weight of an exact token match. */
export const EXACT_TOKEN_WEIGHT = 2

/** Optimal-string-alignment (Damerau) distance between a and b, or max+1 once it exceeds max. */
export function editDistance(a: string, b: string, max: number): number {
  if (a === b) return 0
  const la = a.length
  const lb = b.length
  if (Math.abs(la - lb) > max) return max + 1
  if (la === 0) return lb
  if (lb === 0) return la
  let prevPrev = new Array<number>(lb + 1).fill(0)
  let prev = new Array<number>(lb + 1)
  let cur = new Array<number>(lb + 1)
  for (let j = 0; j <= lb; j++) prev[j] = j
  for (let i = 1; i <= la; i++) {
    cur[0] = i
    let rowMin = i
    const ca = a.charCodeAt(i - 1)
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1)
      const cost = ca === cb ? 0 : 1
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost)
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        v = Math.min(v, (prevPrev[j - 2] as number) + 1)
      }
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    const t = prevPrev
    prevPrev = prev
    prev = cur
    cur = t
  }
  const d = prev[lb] as number
  return d > max ? max + 1 : d
}

/** Edits allowed for a query token: ES AUTO (0 up to 2 chars, 1 up to 5, else 2) capped by the request. */
export function allowedEdits(token: string, fuzziness: number | 'auto'): number {
  const len = [...token].length
  const auto = len <= 2 ? 0 : len <= 5 ? 1 : 2
  return fuzziness === 'auto' ? auto : Math.min(auto, fuzziness)
}

/** Weight of a query token matching a document token with the given number of edits. */
export function tokenWeight(edits: number, queryToken: string, docToken: string): number {
  if (edits === 0) return EXACT_TOKEN_WEIGHT
  return EXACT_TOKEN_WEIGHT - edits / Math.max(1, Math.min(queryToken.length, docToken.length))
}

interface Expansion {
  token: string
  edits: number
  weight: number
}

/** Vocabulary terms a query token matches: itself, plus fuzzy neighbours (best max_expansions kept). */
export function expandToken(
  token: string,
  vocabulary: Iterable<string>,
  fuzziness: number | 'auto',
  prefixLength: number,
  maxExpansions: number,
): Expansion[] {
  const max = allowedEdits(token, fuzziness)
  const found: Expansion[] = []
  const prefix = token.slice(0, prefixLength)
  for (const term of vocabulary) {
    if (max === 0) {
      if (term === token) found.push({ token: term, edits: 0, weight: EXACT_TOKEN_WEIGHT })
      continue
    }
    if (Math.abs(term.length - token.length) > max) continue
    if (prefix && !term.startsWith(prefix)) continue
    const edits = editDistance(token, term, max)
    if (edits <= max) found.push({ token: term, edits, weight: tokenWeight(edits, token, term) })
  }
  found.sort((x, y) => x.edits - y.edits || (x.token < y.token ? -1 : x.token > y.token ? 1 : 0))
  // The token itself always takes part (even when a cached vocabulary predates it).
  if (found[0]?.edits !== 0) found.unshift({ token, edits: 0, weight: EXACT_TOKEN_WEIGHT })
  return found.slice(0, Math.max(1, maxExpansions))
}

/** A number per vocabulary object (a reloaded vocabulary is a new object, so entries never go stale). */
const vocabularyIds = new WeakMap<object, number>()
let nextVocabularyId = 0
/** Most cached expansions per isolate, and most bytes they hold (the least recently used go first). */
const MAX_CACHED_EXPANSIONS = 2000
const EXPANSION_CACHE_MAX_BYTES = 1024 * 1024

/**
 * Expansions keyed by vocabulary object, token and options. An entry of a vocabulary no longer in
 * use is never asked for again and ages out; the vocabulary itself is not held by the cache.
 */
const expansionCache = createMemo<Expansion[]>({
  name: 'search fuzzy expansions',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: MAX_CACHED_EXPANSIONS,
  maxBytes: EXPANSION_CACHE_MAX_BYTES,
})

/** expandToken, memoised per vocabulary object and options (the vocabulary must not change in place). */
function expandTokenCached(
  token: string,
  vocabulary: Iterable<string>,
  fuzziness: number | 'auto',
  prefixLength: number,
  maxExpansions: number,
): Expansion[] {
  let id = vocabularyIds.get(vocabulary)
  if (id === undefined) {
    id = nextVocabularyId++
    vocabularyIds.set(vocabulary, id)
  }
  const key = `${id}\u0000${token}\u0000${fuzziness}\u0000${prefixLength}\u0000${maxExpansions}`
  const hit = expansionCache.peek(key)
  if (hit) return hit
  const found = expandToken(token, vocabulary, fuzziness, prefixLength, maxExpansions)
  expansionCache.set(key, found)
  return found
}

/** A query token of one field with its expansions and the number of tokens that field requires. */
export interface FieldPlan {
  field: string
  boost: number
  /** false: a keyword field, matched on the whole query value. */
  text: boolean
  tokens: { token: string; expansions: Expansion[] }[]
  required: number
}

/** Per-field match plan of a match/multi_match clause, given each field's vocabulary. */
export function planTextMatch(
  fields: { field: string; boost: number }[],
  query: string,
  options: TextOptions,
  vocabularyOf: (field: string) => Iterable<string>,
): FieldPlan[] {
  // Only the first MAX_QUERY_TOKENS distinct words take part (a pasted paragraph still searches).
  const words = fields.map(({ field }) =>
    TEXT_FIELDS.has(field) ? [...new Set(fieldTokens(field, query))].slice(0, MAX_QUERY_TOKENS) : [],
  )
  const wordCount = words.reduce((n, w) => n + w.length, 0)
  const maxExpansions = Math.max(
    1,
    Math.min(options.maxExpansions, Math.floor(MAX_EXPANSION_ROWS / Math.max(1, wordCount))),
  )
  return fields.map(({ field, boost }, fi) => {
    if (!TEXT_FIELDS.has(field)) return { field, boost, text: false, tokens: [], required: 1 }
    const qtokens = words[fi] as string[]
    const tokens = qtokens.map((token) => ({
      token,
      expansions: expandTokenCached(
        token,
        vocabularyOf(field),
        options.fuzziness,
        options.prefixLength,
        maxExpansions,
      ),
    }))
    const n = tokens.length
    const required =
      options.operator === 'and'
        ? n
        : Math.max(1, resolveMinimumShouldMatch(options.minimumShouldMatch, n, 1))
    return { field, boost, text: true, tokens, required }
  })
}

/** Combines per-field scores like ES best_fields: best plus tie_breaker times the rest. */
export function combineFieldScores(scores: number[], tieBreaker: number): number {
  if (scores.length === 0) return 0
  let max = 0
  let sum = 0
  for (const s of scores) {
    sum += s
    if (s > max) max = s
  }
  return max + tieBreaker * (sum - max)
}

/** Resolves minimum_should_match against the number of optional clauses/tokens (ES rounding: down). */
export function resolveMinimumShouldMatch(
  msm: number | string | null,
  count: number,
  fallback: number,
): number {
  if (msm === null) return fallback
  let n: number
  if (typeof msm === 'number') n = msm
  else {
    const pct = Number(msm.slice(0, -1))
    n = Math.trunc((count * Math.abs(pct)) / 100)
    if (pct < 0) n = count - n
  }
  if (n < 0) n = count + n
  return Math.max(0, Math.min(count, n))
}
