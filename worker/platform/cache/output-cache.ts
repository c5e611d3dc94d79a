/**
 * Edge output cache, for anonymous HTML only (the key: ./key.ts). A page opts in by setting
 * `c.var.cacheTags`; cart, checkout, account and confirmation pages never do, and any response
 * with Set-Cookie or a non-200 status is not stored, nor a page marked degraded. Fresh for
 * FRESH_SECONDS, then served stale while one revalidation re-renders it in the background (a short
 * lock entry keeps other requests of this colo from re-rendering the same key at once).
 *
 * Before anything else, a request for a route of the table loses the query parameters its route
 * does not read, and a listing's are written in the listing's one spelling (./key.ts `pageUrl`):
 * the handler renders, and the key names, the same URL.
 *
 * The CSP nonce baked into a cached page is swapped for the current request's nonce on every hit,
 * only at the positions where the renderer wrote it (./memory.ts). In front of the Cache API each
 * isolate keeps the pages it served recently in memory for MEMORY_SECONDS (./memory.ts); purges
 * go through the tag index (./tags.ts).
 */
import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { AppEnv } from '../env'
import { BUILD_ID } from '../render/assets'
import { edgeCache } from '../runtime'
import { isCacheablePath, KEY_HOST, keyRequest, outputCacheKey, pageUrl, routeQueryAllowList } from './key'
import { FRESH_SECONDS, STALE_SECONDS } from './lifetimes'
import {
  cutNonce,
  forgetPage,
  type MemoryPage,
  memoryPage,
  NONCE_AT_HEADER,
  pageBody,
  recentPage,
  rememberPage,
} from './memory'
import { recordTags } from './tags'

const LOCK_SECONDS = 30

type FetchApp = { fetch: (r: Request, e: Env, x: ExecutionContext) => Response | Promise<Response> }

/** This isolate's copy of a page, else the Cache API's (then kept in memory); null on a miss. */
async function lookup(key: string): Promise<MemoryPage | null> {
  const now = Date.now()
  const mem = recentPage(key, now)
  if (mem) return mem
  const hit = await edgeCache().match(keyRequest(key))
  if (!hit) return null
  const page = memoryPage(await hit.text(), hit.headers)
  // An entry whose slots do not fit its text is treated as a miss (and overwritten by the render).
  if (page) rememberPage(key, page, now)
  return page
}

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

/**
 * Stores a rendered page under `key`, unless one of its tags was purged after its render began
 * (`renderedFrom`): a stock change purged while the page was rendering may be missing from it, and
 * the purge could not drop a page that was not stored yet. Such a page is dropped again at once.
 */
async function storeInCache(
  c: Context<AppEnv>,
  key: string,
  html: string,
  res: Response,
  tags: string[],
  renderedFrom: number,
) {
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
  const now = Date.now()
  const page = memoryPage(text, headers)
  if (page) rememberPage(key, page, now)
  if (await recordTags(c.env.DB, key, tags, now, renderedFrom)) {
    forgetPage(key)
    await cache.delete(keyRequest(key))
  }
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

async function revalidate(c: Context<AppEnv>, key: string, app: FetchApp) {
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
 * The query allow-list of the route that answers this request (the last GET route Hono matched),
 * or null when no route of the table does (the dispatcher's fallback, a test's own route).
 */
function allowedQuery(c: Context<AppEnv>): { allowed: ReadonlySet<string>; routePath: string } | null {
  const route = matchedRoutes(c).findLast((r) => r.method === 'GET')
  const allowed = route ? routeQueryAllowList(route.path) : null
  return route && allowed ? { allowed, routePath: route.path } : null
}

/**
 * The output-cache middleware; `app` is used for background revalidation. `buildId` defaults to
 * this bundle's client build (tests pass others to play two deploys).
 */
export function outputCache(app: FetchApp, opts: { buildId?: string } = {}): MiddlewareHandler<AppEnv> {
  const buildId = opts.buildId ?? BUILD_ID
  return async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || !isCacheablePath(c.req.path)) return next()
    // The handler sees only the parameters its route reads, cache or no cache, so a page renders
    // the same for every spelling of its URL and never varies on what the key leaves out.
    const route = allowedQuery(c)
    if (route) {
      const url = pageUrl(c.req.url, route.allowed, route.routePath)
      if (url !== c.req.url) c.req.raw = new Request(url, c.req.raw)
    }
    if (!c.var.config.OUTPUT_CACHE_ENABLED) return next()
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
    const renderedFrom = Date.now()
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
        .then((html) => (c.var.degraded ? undefined : storeInCache(c, key, html, res, tags, renderedFrom)))
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
