/**
 * Per-isolate postings of single words and values: the ascending ids of the products that hold one
 * token in one full-text field (search_tokens) or one value in one keyword field (search_terms).
 * The facet index keeps whole fields of few values; these are the lists of fields with too many
 * values to keep whole (names, SKUs), one word or value at a time, so a search that names them can
 * be resolved in the isolate (candidates.ts) instead of joined and grouped by the statement.
 *
 * Each list is its own memo entry, valid for the index version it was read at, read on demand in
 * one statement (with the version, one snapshot). A list longer than MAX_WORD_POSTINGS is not
 * kept: it is remembered as too long, and a clause naming it is left to the statement.
 */
import { createMemo } from '../platform/memo'
import { indexVersionSeen, noteIndexVersion } from './index-version'

/** Where a list comes from: a token of a full-text field, or a value of a keyword field. */
export type WordSource = 'token' | 'value'

/** One word's or value's postings (ascending ids), or `ids: null` when it has more than MAX_WORD_POSTINGS products. */
export interface WordPostings {
  version: number
  ids: Int32Array | null
}

/** Longest list kept (a longer one would not narrow a statement: candidates.ts visits at most 50,000). */
const MAX_WORD_POSTINGS = 50_000
/** Most lists one isolate keeps, and most bytes they take (the least recently used go first). */
const MAX_WORD_LISTS = 4096
const WORD_POSTINGS_MAX_BYTES = 3 * 1024 * 1024
/** Most lists one request reads (a query naming more leaves the rest to the statement). */
const MAX_WORDS_READ = 64

const wordCache = createMemo<WordPostings>({
  name: 'search word postings',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: MAX_WORD_LISTS,
  maxBytes: WORD_POSTINGS_MAX_BYTES,
  sizeOf: (w) => 96 + (w.ids?.byteLength ?? 0),
  version: indexVersionSeen,
})

/** The memo key of a list (NUL never occurs in a field name). */
export function wordKey(source: WordSource, field: string, word: string): string {
  return `${source === 'token' ? 't' : 'v'}\u0000${field}\u0000${word}`
}

/**
 * The lists of `keys` ([source, field, word]) the isolate holds at the current version, reading
 * the missing ones (at most MAX_WORDS_READ) in one statement. A key absent from the answer is not
 * known (too many asked at once).
 */
export async function wordPostingsFor(
  db: D1Database,
  keys: [WordSource, string, string][],
): Promise<Map<string, WordPostings>> {
  const out = new Map<string, WordPostings>()
  const missing: [WordSource, string, string][] = []
  for (const k of keys) {
    const key = wordKey(...k)
    if (out.has(key) || missing.some((m) => wordKey(...m) === key)) continue
    const held = wordCache.peek(key)
    if (held) out.set(key, held)
    else if (missing.length < MAX_WORDS_READ) missing.push(k)
  }
  if (missing.length === 0) return out
  // One row per key: its ids (at most one more than the longest list kept) in index order, which
  // is ascending product id for one token of one field and for one value of one field.
  const rows = await db
    .prepare(
      `SELECT j.key AS k, CASE json_extract(j.value, '$[0]') WHEN 'token' THEN (SELECT json_group_array(product_id) FROM (SELECT product_id FROM search_tokens WHERE token = json_extract(j.value, '$[2]') AND field = json_extract(j.value, '$[1]') ORDER BY product_id LIMIT ?2)) ELSE (SELECT json_group_array(product_id) FROM (SELECT product_id FROM search_terms WHERE field = json_extract(j.value, '$[1]') AND value = json_extract(j.value, '$[2]') ORDER BY product_id LIMIT ?2)) END AS ids, (SELECT value FROM search_meta WHERE key = 'version') AS ver FROM json_each(?1) j`,
    )
    .bind(JSON.stringify(missing), MAX_WORD_POSTINGS + 1)
    .all<{ k: number; ids: string; ver: string | number | null }>()
  const version = Number(rows.results[0]?.ver ?? 0)
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(version)
  for (const r of rows.results) {
    const k = missing[r.k]
    if (!k) continue
    const list = JSON.parse(r.ids) as number[]
    const ids = list.length > MAX_WORD_POSTINGS ? null : Int32Array.from(list)
    // Readers merge the lists in id order: make sure of it (SQLite does not promise an aggregate's order).
    if (ids?.some((id, i) => i > 0 && id <= (ids[i - 1] as number))) ids.sort()
    const entry: WordPostings = { version, ids }
    const key = wordKey(...k)
    wordCache.set(key, entry)
    out.set(key, entry)
  }
  return out
}
