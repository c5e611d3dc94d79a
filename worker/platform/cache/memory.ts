/**
 * The output cache's per-isolate memory tier: the pages this isolate served recently, kept for
 * MEMORY_SECONDS with their bytes pre-split at the nonce slots, so a hit is one copy. A purge
 * empties this isolate's copy at once; other isolates' copies expire within MEMORY_SECONDS (the
 * one cache of the worker kept by time rather than by catalogue version: it mirrors a shared
 * store that other isolates purge).
 *
 * A page is stored with the CSP nonce cut out and the cut positions kept beside it (UTF-16
 * offsets in NONCE_AT_HEADER), so only the places where the renderer wrote the nonce get the
 * request's nonce: no text a visitor can put into a page can be mistaken for a nonce slot.
 */
import { approxBytes, createMemo } from '../memo'

/** Bookkeeping header of a stored page: where the nonce was cut out (UTF-16 offsets, ascending). */
export const NONCE_AT_HEADER = 'x-nonce-at'
/** How long an isolate serves a page from memory before asking the Cache API again. */
export const MEMORY_SECONDS = 5
/** Most bytes of pages one isolate keeps in memory (the least recently used go first). */
const MEMORY_MAX_BYTES = 8 * 1024 * 1024
/** Most pages one isolate keeps in memory. */
const MEMORY_MAX_PAGES = 4096

/** A cached page as this isolate keeps it: the body split at the nonce slots, encoded once. */
export interface MemoryPage {
  parts: Uint8Array[]
  bytes: number
  /** Response headers to send (without the cache's bookkeeping headers). */
  headers: [string, string][]
  cachedAt: number
  tags: string[]
  amp: boolean
}

const memory = createMemo<MemoryPage>({
  name: 'output pages',
  ttlMs: MEMORY_SECONDS * 1000,
  maxEntries: MEMORY_MAX_PAGES,
  maxBytes: MEMORY_MAX_BYTES,
  // The body's bytes, its headers and tags, and the page object with its part arrays.
  sizeOf: (page) =>
    page.bytes + 64 * page.parts.length + approxBytes(page.headers) + approxBytes(page.tags) + 128,
})
const encoder = new TextEncoder()

/** This isolate's copy of a page, if read within MEMORY_SECONDS. */
export function recentPage(key: string, now: number): MemoryPage | undefined {
  return memory.peek(key, now)
}

/** Keeps a page in this isolate's memory (a page over an eighth of the budget is not kept). */
export function rememberPage(key: string, page: MemoryPage, now: number): void {
  if (page.bytes > MEMORY_MAX_BYTES / 8) memory.delete(key)
  else memory.set(key, page, now)
}

/** Drops this isolate's copy of a page (a purge). */
export function forgetPage(key: string): void {
  memory.delete(key)
}

/** Empties this isolate's in-memory pages (tests). */
export function clearOutputMemory(): void {
  memory.clear()
}

/** The page with the nonce cut out, and the offsets where it was (in the returned text). */
export function cutNonce(html: string, nonce: string): { text: string; at: number[] } {
  const pieces = html.split(nonce)
  const at: number[] = []
  let offset = 0
  for (let i = 0; i < pieces.length - 1; i++) {
    offset += (pieces[i] as string).length
    at.push(offset)
  }
  return { text: pieces.join(''), at }
}

/** The stored text split at the recorded nonce slots; null when the offsets do not fit the text. */
function splitAtSlots(text: string, header: string | null): string[] | null {
  if (!header) return [text]
  const parts: string[] = []
  let from = 0
  for (const raw of header.split(',')) {
    const at = Number(raw)
    if (!Number.isInteger(at) || at < from || at > text.length) return null
    parts.push(text.slice(from, at))
    from = at
  }
  parts.push(text.slice(from))
  return parts
}

const BOOKKEEPING_HEADERS = new Set([
  'x-cached-at',
  'x-csp-mode',
  NONCE_AT_HEADER,
  'cache-tag',
  'cache-control',
  'content-length',
])

/** The memory form of a stored page (`text` without the nonce; slots in `x-nonce-at`); null if corrupt. */
export function memoryPage(text: string, stored: Headers): MemoryPage | null {
  const pieces = splitAtSlots(text, stored.get(NONCE_AT_HEADER))
  if (!pieces) return null
  const parts = pieces.map((t) => encoder.encode(t))
  const headers: [string, string][] = []
  for (const [k, v] of stored) if (!BOOKKEEPING_HEADERS.has(k)) headers.push([k, v])
  return {
    parts,
    bytes: parts.reduce((n, p) => n + p.byteLength, 0),
    headers,
    cachedAt: Number(stored.get('x-cached-at') ?? 0),
    tags: (stored.get('cache-tag') ?? '').split(',').filter(Boolean),
    amp: stored.get('x-csp-mode') === 'amp',
  }
}

/** The page's bytes with `nonce` in place of the placeholder. */
export function pageBody(page: MemoryPage, nonce: string): Uint8Array<ArrayBuffer> {
  const n = encoder.encode(nonce)
  const out = new Uint8Array(page.bytes + n.byteLength * (page.parts.length - 1))
  let at = 0
  page.parts.forEach((part, i) => {
    if (i > 0) {
      out.set(n, at)
      at += n.byteLength
    }
    out.set(part, at)
    at += part.byteLength
  })
  return out
}
