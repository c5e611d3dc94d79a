/**
 * The per-isolate vocabulary of the text fields (distinct tokens per field), which full-text
 * clauses expand against for typos. It is read with the index version and valid for that version.
 */
import type { Vocabulary } from './sql-expr'

let vocabCache: { version: number; vocab: Vocabulary } | null = null

/** Distinct tokens per text field, read with the index version in one round trip (cached per isolate). */
export async function loadVocabulary(db: D1Database): Promise<{ version: number; vocab: Vocabulary }> {
  const [meta, tokens] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT value FROM search_meta WHERE key = 'version'"),
    db.prepare('SELECT DISTINCT field, token FROM search_tokens'),
  ])
  const version = Number((meta?.results[0] as { value?: number } | undefined)?.value ?? 0)
  const vocab: Vocabulary = new Map()
  for (const r of (tokens?.results ?? []) as { field: string; token: string }[]) {
    let list = vocab.get(r.field)
    if (!list) {
      list = []
      vocab.set(r.field, list)
    }
    list.push(r.token)
  }
  vocabCache = { version, vocab }
  return vocabCache
}

/** The kept vocabulary, if any (its version may be behind the index). */
export function cachedVocabulary(): { version: number; vocab: Vocabulary } | null {
  return vocabCache
}

/** Forgets the vocabulary unless it was read at `version`. */
export function dropVocabularyUnless(version: number): void {
  if (vocabCache?.version !== version) vocabCache = null
}
