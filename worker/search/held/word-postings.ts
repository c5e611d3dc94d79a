/**
 * Per-isolate postings of single words and values: the ascending ids of the products that hold one
 * token in one full-text field (search_tokens) or one value in one keyword field (search_terms).
 * The facet index keeps whole fields of few values; these are the lists of fields with too many
 * values to keep whole (names, SKUs), one word or value at a time, so a search that names them can
 * be resolved in the isolate (narrow/) instead of joined and grouped by the statement.
 *
 * Each list is its own memo entry, valid for the index version it was read at, read on demand in
 * one statement (with the version, one snapshot). A list longer than MAX_WORD_POSTINGS is not
 * read: it is remembered as too long, and a clause naming it is left to the statement.
 */
import { createMemo } from '../../platform/memo'
import { indexVersionSeen, noteIndexVersion, VERSION_COLUMN } from './index-version'

/** Where a list comes from: a token of a full-text field, or a value of a keyword field. */
export type WordSource = 'token' | 'value'

/** One word's or value's postings (ascending ids), or `ids: null` when it has more than MAX_WORD_POSTINGS products. */
export interface WordPostings {
  version: number
  ids: Int32Array | null
}

/** Longest list kept (a longer one would not narrow a statement: a narrowed statement visits at most 50,000). */
const MAX_WORD_POSTINGS = 50_000
/** Most lists one isolate keeps, and most bytes they take (the least recently used go first). */
const MAX_WORD_LISTS = 4096
const WORD_POSTINGS_MAX_BYTES = 3 * 1024 * 1024
/** Most lists one request reads (a query naming more leaves the rest to the statement). */
const MAX_WORDS_READ = 64
/**
 * Most ids one request reads in all (about 1.5 MB of JSON): lists past it are left unread (their
 * clauses stay in the statement), so no query, however many common words it names, reads more.
 */
const MAX_WORD_IDS_READ = 200_000

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
 * the missing ones in one statement: at most MAX_WORDS_READ lists and `maxIds` ids in all. A key
 * absent from the answer is not known (too many asked at once).
 */
export async function wordPostingsFor(
  db: D1Database,
  keys: [WordSource, string, string][],
  maxIds = MAX_WORD_IDS_READ,
): Promise<Map<string, WordPostings>> {
  const out = new Map<string, WordPostings>()
  const missing = new Map<string, [WordSource, string, string]>()
  for (const k of keys) {
    const key = wordKey(...k)
    if (out.has(key) || missing.has(key)) continue
    const held = wordCache.peek(key)
    if (held) out.set(key, held)
    else if (missing.size < MAX_WORDS_READ) missing.set(key, k)
  }
  if (missing.size === 0) return out
  const asked = [...missing.values()]
  // Each list is counted first (up to one more than the longest kept, an index range), then read
  // only when it is short enough and the lists before it leave room under `maxIds`. The ids come
  // in index order, which is ascending product id for one token or one value of one field.
  const list = (table: 'search_tokens' | 'search_terms', what: string, limit: string) =>
    table === 'search_tokens'
      ? `SELECT ${what} FROM search_tokens WHERE token = c.word AND field = c.field ORDER BY product_id LIMIT ${limit}`
      : `SELECT ${what} FROM search_terms WHERE field = c.field AND value = c.word ORDER BY product_id LIMIT ${limit}`
  const rows = await db
    .prepare(
      `WITH c AS (SELECT j.key AS k, json_extract(j.value, '$[0]') AS src, json_extract(j.value, '$[1]') AS field, json_extract(j.value, '$[2]') AS word FROM json_each(?1) j),
n AS (SELECT c.k AS k, c.src AS src, c.field AS field, c.word AS word, CASE c.src WHEN 'token' THEN (SELECT COUNT(*) FROM (${list('search_tokens', '1', '?2')})) ELSE (SELECT COUNT(*) FROM (${list('search_terms', '1', '?2')})) END AS n FROM c),
r AS (SELECT *, SUM(CASE WHEN n < ?2 THEN n ELSE 0 END) OVER (ORDER BY k) AS run FROM n)
SELECT c.k AS k, c.n AS n, c.run AS run, CASE WHEN c.n >= ?2 OR c.run > ?3 THEN NULL WHEN c.src = 'token' THEN (SELECT json_group_array(product_id) FROM (${list('search_tokens', 'product_id', '?2')})) ELSE (SELECT json_group_array(product_id) FROM (${list('search_terms', 'product_id', '?2')})) END AS ids, ${VERSION_COLUMN} FROM r c`,
    )
    .bind(JSON.stringify(asked), MAX_WORD_POSTINGS + 1, maxIds)
    .all<{ k: number; n: number; run: number; ids: string | null; ver: string | number | null }>()
  const version = Number(rows.results[0]?.ver ?? 0)
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(version)
  for (const r of rows.results) {
    const k = asked[r.k]
    if (!k) continue
    const tooLong = r.n > MAX_WORD_POSTINGS
    // Past the request's allowance: not read, not known.
    if (!tooLong && r.ids === null) continue
    const ids = tooLong ? null : Int32Array.from(JSON.parse(r.ids ?? '[]') as number[])
    // Readers merge the lists in id order: make sure of it (SQLite does not promise an aggregate's order).
    if (ids?.some((id, i) => i > 0 && id <= (ids[i - 1] as number))) ids.sort()
    const entry: WordPostings = { version, ids }
    const key = wordKey(...k)
    wordCache.set(key, entry)
    out.set(key, entry)
  }
  return out
}
