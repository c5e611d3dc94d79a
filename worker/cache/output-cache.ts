/**
 * Edge output cache for anonymous HTML (ARCHITECTURE "Edge cache is for anonymous HTML only").
 * Key = URL (sorted query) + store + currency + pricing country + client build id. A page opts in
 * by setting `c.var.cacheTags`; cart, checkout, account and confirmation pages never do, and any response
 * with Set-Cookie or a non-200 status is not stored. Fresh for FRESH_SECONDS, then served stale
 * while one revalidation re-renders it in the background (a short lock entry keeps other
 * requests of this colo from re-rendering the same key at once). The CSP nonce baked into a
 * cached page is swapped for the current request's nonce on every hit.
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
const NONCE_PLACEHOLDER = '__EDGE_CACHE_NONCE__'
const KEY_HOST = 'https://output-cache.internal'
/** How long an isolate serves a page from memory before asking the Cache API again. */
export const MEMORY_SECONDS = 5
/** Most bytes of pages one isolate keeps in memory (the oldest go first). */
export const MEMORY_MAX_BYTES = 16 * 1024 * 1024

/** A cached page as this isolate keeps it: the body split at the nonce, encoded once. */
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

/** The memory form of a stored page (`html` carries the nonce placeholder). */
function memoryPage(html: string, stored: Headers, now: number): MemoryPage {
  const parts = html.split(NONCE_PLACEHOLDER).map((t) => encoder.encode(t))
  const headers: [string, string][] = []
  for (const [k, v] of stored) {
    if (
      k !== 'x-cached-at' &&
      k !== 'x-csp-mode' &&
      k !== 'cache-tag' &&
      k !== 'cache-control' &&
      k !== 'content-length'
    )
      headers.push([k, v])
  }
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
  remember(key, page)
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

/** The cache key for a page request (pure; exported for tests). */
export function outputCacheKey(
  url: string,
  store: { storeCode: string; currency: string; pricingCountry: string },
): string {
  const u = new URL(url)
  const params = [...u.searchParams.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const qs = new URLSearchParams(params).toString()
  // The build id too: a page cached by the previous deploy references that build's assets (issue 8).
  return `${KEY_HOST}${u.pathname}${qs ? `?${qs}` : ''}#${store.storeCode}/${store.currency}/${store.pricingCountry}/${BUILD_ID}`
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
  const body = html.split(c.var.nonce).join(NONCE_PLACEHOLDER)
  await cache.put(keyRequest(key), new Response(body, { status: 200, headers }))
  remember(key, memoryPage(body, headers, Date.now()))
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

/** The output-cache middleware; `app` is used for background revalidation. */
export function outputCache(app: {
  fetch: (r: Request, e: Env, x: ExecutionContext) => Response | Promise<Response>
}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const enabled = c.var.config.OUTPUT_CACHE_ENABLED
    if (!enabled || (c.req.method !== 'GET' && c.req.method !== 'HEAD') || !isCacheablePath(c.req.path)) {
      return next()
    }
    const key = outputCacheKey(c.req.url, c.var.store)
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
