/**
 * The per-isolate vocabulary of the text fields (distinct tokens per field), which full-text
 * clauses expand against for typos. It is read with the index version and valid for that version.
 */
import { approxBytes, createMemo } from '../../platform/memo'
import { indexVersionSeen, noteIndexVersion, versionOf, versionRead } from './index-version'
import { BUILT } from './stored-builds'

interface VersionedVocabulary {
  version: number
  vocab: Vocabulary
}

/**
 * Most bytes of vocabulary one isolate keeps. A larger vocabulary is not kept: each search that
 * needs it reads it again (correct, slower), so the budget is set above the largest catalogue the
 * shop is measured at (docs/scale.md).
 */
export const VOCABULARY_MAX_BYTES = 8 * 1024 * 1024

/** One entry: the vocabulary of the index version this isolate last read. */
const vocabCache = createMemo<VersionedVocabulary>({
  name: 'search vocabulary',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 1,
  maxBytes: VOCABULARY_MAX_BYTES,
  // Every token string and its slot in its field's list.
  sizeOf: (v) => approxBytes(v.vocab),
  version: indexVersionSeen,
})
const KEY = 'vocabulary'

/** Distinct tokens per text field, read with the index version in one round trip (cached per isolate). */
export async function loadVocabulary(db: D1Database): Promise<VersionedVocabulary> {
  // The catalogue writer's pre-built vocabulary when present (builds/vocabulary.ts), else the tokens grouped.
  const stored = await readPrebuiltVocabulary(db)
  if (stored) return keepVocabulary(stored.version, stored.vocab)
  const [meta, tokens] = await db.batch<Record<string, unknown>>([
    versionRead(db),
    db.prepare('SELECT DISTINCT field, token FROM search_tokens'),
  ])
  const version = versionOf(meta)
  const vocab: Vocabulary = new Map()
  for (const r of (tokens?.results ?? []) as { field: string; token: string }[]) {
    let list = vocab.get(r.field)
    if (!list) {
      list = []
      vocab.set(r.field, list)
    }
    list.push(r.token)
  }
  return keepVocabulary(version, vocab)
}

function keepVocabulary(version: number, vocab: Vocabulary): VersionedVocabulary {
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(version)
  const loaded = { version, vocab }
  vocabCache.set(KEY, loaded)
  return loaded
}

/** The kept vocabulary, if it was read at the index version this isolate last saw. */
export function cachedVocabulary(): VersionedVocabulary | null {
  return vocabCache.peek(KEY) ?? null
}

/** Forgets the vocabulary unless it was read at `version`. */
export function dropVocabularyUnless(version: number): void {
  if (vocabCache.peek(KEY)?.version !== version) vocabCache.delete(KEY)
}

/**
 * The stored vocabulary and the index version it was read at (one snapshot), or null when there is
 * no build or a part does not check out (then the caller groups the tokens itself).
 */
export async function readPrebuiltVocabulary(
  db: D1Database,
): Promise<{ version: number; vocab: Vocabulary } | null> {
  const [meta, rows] = await db.batch<Record<string, unknown>>([
    versionRead(db),
    db.prepare('SELECT field, part, n, tokens FROM search_vocabulary ORDER BY field, part'),
  ])
  const version = versionOf(meta)
  const parts = (rows?.results ?? []) as { field: string; part: number; n: number; tokens: string }[]
  const built = parts.find((r) => r.field === BUILT)
  if (!built) return null
  const vocab: Vocabulary = new Map()
  let count = 0
  for (const r of parts) {
    if (r.field === BUILT) continue
    const tokens = JSON.parse(r.tokens) as unknown
    if (!Array.isArray(tokens) || tokens.length !== r.n) return null
    let list = vocab.get(r.field)
    if (!list) {
      list = []
      vocab.set(r.field, list)
    }
    for (const t of tokens) {
      const last = list[list.length - 1]
      if (typeof t !== 'string' || (last !== undefined && !(last < t))) return null
      list.push(t)
    }
    count += tokens.length
  }
  return count === built.n ? { version, vocab } : null
}

/** Text-field vocabulary: field → its distinct tokens. */
export type Vocabulary = Map<string, string[]>
