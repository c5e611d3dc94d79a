/**
 * Edge output cache, for anonymous HTML only.
 * Key = path + sorted query without tracking parameters (utm_*, fbclid, gclid…) + store + currency
 * + country (which fixes the pricing country) + client build id: everything a cached page varies
 * on, nothing else (the Host is not in it, so no page may print the Host). A page opts in by setting
 * `c.var.cacheTags`; cart, checkout, account and confirmation pages never do, and any response
 * with Set-Cookie or a non-200 status is not stored. Fresh for FRESH_SECONDS, then served stale
 * while one revalidation re-renders it in the background (a short lock entry keeps other
 * requests of this colo from re-rendering the same key at once). A URL longer than
 * MAX_KEY_URL_LENGTH is rendered but never looked up or stored.
 *
 * The CSP nonce baked into a cached page is swapped for the current request's nonce on every hit.
 * The page is stored with the nonce cut out and the cut positions kept beside it, so only the
 * places where the renderer wrote the nonce get the new one: no text a visitor can put into a
 * page (a search term, a review) can ever be mistaken for a nonce slot.
 *
 * In front of the Cache API, each isolate keeps the pages it served recently in memory for
 * MEMORY_SECONDS (bytes pre-split at the nonce, so a hit is one copy): a purge empties this
 * isolate's copy at once and reaches other isolates' copies within MEMORY_SECONDS.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'
import { BUILD_ID } from '../render/assets'
import { edgeCache } from '../runtime'

export const FRESH_SECONDS = 300
export const STALE_SECONDS = 86_400
const LOCK_SECONDS = 30
const KEY_HOST = 'https://output-cache.internal'
/** Bookkeeping header of a stored page: where the nonce was cut out (UTF-16 offsets, ascending). */
const NONCE_AT_HEADER = 'x-nonce-at'
/** Longest path + query the cache keys on; longer URLs bypass it (bounded key and tag-row size). */
export const MAX_KEY_URL_LENGTH = 2048
/**
 * Query parameters that only tell analytics where a visitor came from. No page reads them, so they
 * are left out of the key: a campaign link hits the same copy as the plain URL.
 */
const TRACKING_PARAM_NAMES = new Set([
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'ttclid',
  'twclid',
  'li_fat_id',
  'igshid',
  'epik',
  'srsltid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'mc_cid',
  'mc_eid',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'rb_clickid',
  's_cid',
  'vero_id',
  'wickedid',
  'irclickid',
])

/** True for a parameter that only carries campaign or click attribution (utm_*, fbclid, gclid…). */
export function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase()
  return n.startsWith('utm_') || TRACKING_PARAM_NAMES.has(n)
}
/** How long an isolate serves a page from memory before asking the Cache API again. */
export const MEMORY_SECONDS = 5
/** Most bytes of pages one isolate keeps in memory (the oldest go first). */
export const MEMORY_MAX_BYTES = 16 * 1024 * 1024

/** A cached page as this isolate keeps it: the body split at the nonce slots, encoded once. */
interface MemoryPage {
  parts: Uint8Array[]
  bytes: number
  /** Response headers to send (without the cache's bookkeeping headers). */
  headers: [string, string][]
  cachedAt: number
  tags: string[]
  amp: boolean
  /** When this isolate read it (for MEMORY_SECONDS). */
  loadedAt: number
}

const memory = new Map<string, MemoryPage>()
let memoryBytes = 0
const encoder = new TextEncoder()

function forget(key: string): void {
  const page = memory.get(key)
  if (!page) return
  memory.delete(key)
  memoryBytes -= page.bytes
}

function remember(key: string, page: MemoryPage): void {
  forget(key)
  if (page.bytes > MEMORY_MAX_BYTES / 8) return
  // Oldest first (a Map iterates in insertion order).
  for (const k of memory.keys()) {
    if (memoryBytes + page.bytes <= MEMORY_MAX_BYTES) break
    forget(k)
  }
  memory.set(key, page)
  memoryBytes += page.bytes
}

/** Empties this isolate's in-memory pages (tests). */
export function clearOutputMemory(): void {
  memory.clear()
  memoryBytes = 0
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
function memoryPage(text: string, stored: Headers, now: number): MemoryPage | null {
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
    loadedAt: now,
  }
}

/** The page's bytes with `nonce` in place of the placeholder. */
function pageBody(page: MemoryPage, nonce: string): Uint8Array<ArrayBuffer> {
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

/** This isolate's copy of a page, else the Cache API's (then kept in memory); null on a miss. */
async function lookup(key: string): Promise<MemoryPage | null> {
  const now = Date.now()
  const mem = memory.get(key)
  if (mem && now - mem.loadedAt < MEMORY_SECONDS * 1000) return mem
  forget(key)
  const hit = await edgeCache().match(keyRequest(key))
  if (!hit) return null
  const page = memoryPage(await hit.text(), hit.headers, now)
  // An entry whose slots do not fit its text is treated as a miss (and overwritten by the render).
  if (page) remember(key, page)
  return page
}

/** Paths whose pages hold personal data or are transactional: never looked up, never stored. */
const UNCACHEABLE = [
  /^\/api(\/|$)/,
  /^\/cart$/,
  /^\/checkout$/,
  /^\/confirmation$/,
  /^\/my-account(\/|$)/,
  /^\/invalidate$/,
]

/**
 * A revalidation request carries this per-isolate secret so outsiders cannot force re-renders.
 * Created on first use: workerd forbids random values in global scope.
 */
let revalidateToken: string | undefined
function revalidateSecret(): string {
  revalidateToken ??= crypto.randomUUID()
  return revalidateToken
}

/**
 * Marks this response as degraded (a loader fell back because a dependency failed): it is still
 * served, but never stored, so a blip does not stay in the cache for FRESH_SECONDS.
 */
export function markDegraded(c: Context<AppEnv>): void {
  c.set('degraded', true)
}

export function isCacheablePath(path: string): boolean {
  return !UNCACHEABLE.some((re) => re.test(path))
}

/** What a page varies on besides its URL (the request's resolved store context). */
export interface CacheVariant {
  storeCode: string
  currency: string
  /**
   * The country the page was rendered for. It fixes the pricing country (IN, US, GB or ROW), and
   * taxes and `data-country` follow the country itself, so two ROW countries are kept apart too.
   */
  country: string
}

/**
 * The cache key for a page request, or null when the URL is too long to cache (pure; exported for
 * tests). The build id is part of it: a page cached by the previous deploy references that
 * build's assets.
 */
export function outputCacheKey(url: string, store: CacheVariant, buildId: string = BUILD_ID): string | null {
  const u = new URL(url)
  if (u.pathname.length + u.search.length > MAX_KEY_URL_LENGTH) return null
  const params = [...u.searchParams.entries()]
    .filter(([name]) => !isTrackingParam(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const qs = new URLSearchParams(params).toString()
  const variant = [store.storeCode, store.currency, store.country, buildId].map(encodeURIComponent).join('/')
  return `${KEY_HOST}${u.pathname}${qs ? `?${qs}` : ''}#${variant}`
}

export function keyRequest(key: string): Request {
  // Cache API keys are GET requests; the fragment is not part of a URL's identity, so encode it.
  return new Request(key.replace('#', '&__variant='))
}

async function storeInCache(c: Context<AppEnv>, key: string, html: string, res: Response, tags: string[]) {
  const cache = edgeCache()
  const headers = new Headers(res.headers)
  headers.delete('content-security-policy')
  headers.set('x-cached-at', String(Date.now()))
  if (c.var.cspMode === 'amp') headers.set('x-csp-mode', 'amp')
  headers.set('cache-tag', tags.join(','))
  headers.set('cache-control', `public, max-age=${FRESH_SECONDS + STALE_SECONDS}`)
  const { text, at } = cutNonce(html, c.var.nonce)
  headers.set(NONCE_AT_HEADER, at.join(','))
  await cache.put(keyRequest(key), new Response(text, { status: 200, headers }))
  const page = memoryPage(text, headers, Date.now())
  if (page) remember(key, page)
  const now = Date.now()
  await c.env.DB.batch(
    tags.map((tag) =>
      c.env.DB.prepare(
        'INSERT INTO output_cache_tags (tag, cache_key, created_at) VALUES (?, ?, ?) ON CONFLICT (tag, cache_key) DO UPDATE SET created_at = excluded.created_at',
      ).bind(tag, key, now),
    ),
  )
  // Every distinct URL (search terms, filter combinations, tracking parameters) adds rows: now and
  // then, drop those whose pages the Cache API has expired anyway.
  if (Math.random() < PRUNE_PROBABILITY) await pruneTagIndex(c.env.DB, now)
}

/** Share of cache stores that also prune the tag index. */
export const PRUNE_PROBABILITY = 0.01

/** Deletes tag rows older than a cached page can live (FRESH + STALE); returns how many. */
export async function pruneTagIndex(db: D1Database, now = Date.now()): Promise<number> {
  const res = await db
    .prepare('DELETE FROM output_cache_tags WHERE created_at < ?')
    .bind(now - (FRESH_SECONDS + STALE_SECONDS) * 1000)
    .run()
  return res.meta.changes ?? 0
}

function clientHeaders(
  from: Headers | [string, string][],
  state: 'HIT' | 'MISS' | 'STALE' | 'BYPASS',
  tags: string[],
): Headers {
  const h = new Headers(from)
  h.delete('x-cached-at')
  h.delete('x-csp-mode')
  h.delete(NONCE_AT_HEADER)
  h.set('x-cache', state)
  if (tags.length) h.set('cache-tag', tags.join(','))
  // Browsers revalidate every time (the currency cookie changes the page at the same URL);
  // the edge copy is what makes that fast.
  h.set('cache-control', 'public, no-cache')
  return h
}

async function revalidate(
  c: Context<AppEnv>,
  key: string,
  app: { fetch: (r: Request, e: Env, x: ExecutionContext) => Response | Promise<Response> },
) {
  const cache = edgeCache()
  const lock = new Request(`${KEY_HOST}/__lock?key=${encodeURIComponent(key)}`)
  if (await cache.match(lock)) return
  await cache.put(lock, new Response('1', { headers: { 'cache-control': `max-age=${LOCK_SECONDS}` } }))
  const headers = new Headers(c.req.raw.headers)
  headers.set('x-output-cache-revalidate', revalidateSecret())
  await app.fetch(new Request(c.req.url, { headers }), c.env, c.executionCtx as ExecutionContext)
  await cache.delete(lock)
}

/**
 * The output-cache middleware; `app` is used for background revalidation. `buildId` defaults to
 * this bundle's client build (tests pass others to play two deploys).
 */
export function outputCache(
  app: {
    fetch: (r: Request, e: Env, x: ExecutionContext) => Response | Promise<Response>
  },
  opts: { buildId?: string } = {},
): MiddlewareHandler<AppEnv> {
  const buildId = opts.buildId ?? BUILD_ID
  return async (c, next) => {
    const enabled = c.var.config.OUTPUT_CACHE_ENABLED
    if (!enabled || (c.req.method !== 'GET' && c.req.method !== 'HEAD') || !isCacheablePath(c.req.path)) {
      return next()
    }
    const key = outputCacheKey(c.req.url, c.var.store, buildId)
    if (key === null) return next()
    const revalidating = c.req.header('x-output-cache-revalidate') === revalidateSecret()
    if (!revalidating) {
      const page = await lookup(key)
      if (page) {
        const stale = (Date.now() - page.cachedAt) / 1000 > FRESH_SECONDS
        if (stale)
          c.executionCtx.waitUntil(
            revalidate(c, key, app).catch((e) => console.error('revalidate', String(e))),
          )
        if (page.amp) c.set('cspMode', 'amp')
        const headers = clientHeaders(page.headers, stale ? 'STALE' : 'HIT', page.tags)
        return new Response(c.req.method === 'HEAD' ? null : pageBody(page, c.var.nonce), {
          status: 200,
          headers,
        })
      }
    }
    await next()
    const tags = c.var.cacheTags
    const res = c.res
    const type = res.headers.get('content-type') ?? ''
    if (
      !tags?.length ||
      res.status !== 200 ||
      !type.includes('text/html') ||
      res.headers.has('set-cookie') ||
      !res.body
    ) {
      return
    }
    const [forClient, forCache] = res.body.tee()
    c.executionCtx.waitUntil(
      new Response(forCache)
        .text()
        // Read after the whole page streamed: deferred sections may have degraded meanwhile.
        .then((html) => (c.var.degraded ? undefined : storeInCache(c, key, html, res, tags)))
        .catch((e) =>
          console.error(
            JSON.stringify({ requestId: c.var.requestId, msg: 'cache put failed', e: String(e) }),
          ),
        ),
    )
    const headers = clientHeaders(res.headers, revalidating ? 'BYPASS' : 'MISS', tags)
    c.res = new Response(forClient, { status: 200, headers })
  }
}

/** Deletes every cached page carrying `tag`; returns how many entries were purged. */
export async function purgeTag(db: D1Database, tag: string): Promise<number> {
  const { results } = await db
    .prepare('SELECT cache_key FROM output_cache_tags WHERE tag = ?')
    .bind(tag)
    .all<{ cache_key: string }>()
  const keys = results.map((r) => r.cache_key)
  for (const k of keys) forget(k)
  await Promise.all(keys.map((k) => edgeCache().delete(keyRequest(k))))
  if (keys.length) {
    // A purged page is gone under every tag it had.
    for (let i = 0; i < keys.length; i += 50) {
      const chunk = keys.slice(i, i + 50)
      await db
        .prepare(`DELETE FROM output_cache_tags WHERE cache_key IN (${chunk.map(() => '?').join(',')})`)
        .bind(...chunk)
        .run()
    }
  }
  return keys.length
}
