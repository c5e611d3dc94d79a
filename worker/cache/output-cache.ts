/**
 * Edge output cache for anonymous HTML (ARCHITECTURE "Edge cache is for anonymous HTML only").
 * Key = URL (sorted query) + store + currency + pricing country + client build id. A page opts in
 * by setting `c.var.cacheTags`; cart, checkout, account and confirmation pages never do, and any response
 * with Set-Cookie or a non-200 status is not stored. Fresh for FRESH_SECONDS, then served stale
 * while one revalidation re-renders it in the background (a short lock entry keeps other
 * requests of this colo from re-rendering the same key at once). The CSP nonce baked into a
 * cached page is swapped for the current request's nonce on every hit.
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

function withNonce(html: string, nonce: string): string {
  return html.split(NONCE_PLACEHOLDER).join(nonce)
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
  const now = Date.now()
  await c.env.DB.batch(
    tags.map((tag) =>
      c.env.DB.prepare(
        'INSERT INTO output_cache_tags (tag, cache_key, created_at) VALUES (?, ?, ?) ON CONFLICT (tag, cache_key) DO UPDATE SET created_at = excluded.created_at',
      ).bind(tag, key, now),
    ),
  )
}

function clientHeaders(res: Response, state: 'HIT' | 'MISS' | 'STALE' | 'BYPASS', tags: string[]): Headers {
  const h = new Headers(res.headers)
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
      const hit = await edgeCache().match(keyRequest(key))
      if (hit) {
        const age = (Date.now() - Number(hit.headers.get('x-cached-at') ?? 0)) / 1000
        const tags = (hit.headers.get('cache-tag') ?? '').split(',').filter(Boolean)
        const stale = age > FRESH_SECONDS
        if (stale)
          c.executionCtx.waitUntil(
            revalidate(c, key, app).catch((e) => console.error('revalidate', String(e))),
          )
        const html = withNonce(await hit.text(), c.var.nonce)
        if (hit.headers.get('x-csp-mode') === 'amp') c.set('cspMode', 'amp')
        return new Response(html, { status: 200, headers: clientHeaders(hit, stale ? 'STALE' : 'HIT', tags) })
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
        .then((html) => storeInCache(c, key, html, res, tags))
        .catch((e) =>
          console.error(
            JSON.stringify({ requestId: c.var.requestId, msg: 'cache put failed', e: String(e) }),
          ),
        ),
    )
    const headers = clientHeaders(res, revalidating ? 'BYPASS' : 'MISS', tags)
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
