// Absolute URLs (canonical, og:*, JSON-LD, sitemaps, robots' sitemap line, AMP links) come from the
// configured public origin, never from the request: a spoofed Host or X-Forwarded-Host must not
// reach any page — not on a cache miss, not on a hit, not through a stale copy's background refresh.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROUTES } from '../../../shared/config/routes'
import app from '../../../worker/app'
import { keyRequest, outputCacheKey } from '../../../worker/platform/cache/key'
import { FRESH_SECONDS } from '../../../worker/platform/cache/lifetimes'
import { clearOutputMemory } from '../../../worker/platform/cache/memory'
import { readConfig } from '../../../worker/platform/env'
import { edgeCache } from '../../../worker/platform/runtime'

const ORIGIN = readConfig(env).PUBLIC_ORIGIN
const SPOOFED = 'attacker.example'
const SPOOF_HEADERS = {
  'x-forwarded-host': `fwd.${SPOOFED}`,
  'x-forwarded-proto': 'http',
  forwarded: `host=fwd2.${SPOOFED};proto=http`,
  'x-original-host': `orig.${SPOOFED}`,
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36',
}

let product: { sku: string; slug: string; url_path: string }
let category: { slug: string; url_path: string }

beforeAll(async () => {
  product = (await env.DB.prepare(
    `SELECT sku, slug, url_path FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'simple'
     AND json_extract(doc, '$.meta_description') != '' ORDER BY id LIMIT 1`,
  ).first()) as typeof product
  category = (await env.DB.prepare(
    "SELECT slug, url_path FROM categories WHERE is_active = 1 AND url_path != '' ORDER BY id LIMIT 1 OFFSET 2",
  ).first()) as typeof category
  expect(product).toBeTruthy()
  expect(category).toBeTruthy()
})

/** Requests `path` through the whole worker as if sent to `host`, waiting for background work. */
async function visit(path: string, host = SPOOFED, headers: Record<string, string> = SPOOF_HEADERS) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://${host}${path}`, { headers, redirect: 'manual' }),
    env,
    ctx,
  )
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

/** Every absolute URL in `body` that points at this shop (not schema.org, the AMP CDN, maps, the footer's social accounts…). */
function ownAbsoluteUrls(body: string): string[] {
  const external =
    /^https?:\/\/(schema\.org|www\.sitemaps\.org|cdn\.ampproject\.org|www\.openstreetmap\.org|www\.w3\.org|www\.(instagram|youtube|pinterest)\.com)\b/
  return [...body.matchAll(/https?:\/\/[^\s"'<>)\\]+/g)].map((m) => m[0]).filter((u) => !external.test(u))
}

function expectOnlyPublicOrigin(body: string, what: string) {
  const at = body.indexOf(SPOOFED)
  expect(
    at < 0 ? '' : body.slice(Math.max(0, at - 120), at + 40),
    `${what}: spoofed host in the output`,
  ).toBe('')
  for (const url of ownAbsoluteUrls(body))
    expect(url.startsWith(`${ORIGIN}/`) || url === ORIGIN, `${what}: ${url}`).toBe(true)
}

const entityPaths = () => [
  `/p/${encodeURIComponent(product.sku)}/${product.slug}`,
  `/${product.url_path}`,
  `/amp/p/${encodeURIComponent(product.sku)}/${product.slug}`,
  `/c/${category.slug}`,
  `/c/${category.slug}?sort=price-asc`,
  `/${category.url_path}`,
  `/amp/c/${category.slug}`,
  '/search?q=silk',
  '/robots.txt',
  '/sitemap.xml',
  '/sitemaps/pages.xml',
  '/sitemaps/categories.xml',
  '/sitemaps/products-1.xml',
  '/sitemaps/products-2.xml',
  '/sitemaps/products-3.xml',
]

describe('absolute URLs come from the public origin', () => {
  it('every route-table page and SEO document ignores a spoofed Host and X-Forwarded-Host', async () => {
    const paths = [...ROUTES.map((r) => r.example), ...entityPaths()]
    for (const path of paths) {
      const { res, body } = await visit(path)
      expect(res.status, path).toBeLessThan(500)
      expectOnlyPublicOrigin(body, path)
      expect(res.headers.get('location') ?? '', path).not.toContain(SPOOFED)
    }
  })

  it('canonical, og:url, og:image, JSON-LD, sitemap locs and robots name the public origin', async () => {
    const productPage = (await visit(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)).body
    expect(productPage).toContain(
      `<link rel="canonical" href="${ORIGIN}/p/${encodeURIComponent(product.sku)}/${product.slug}"/>`,
    )
    expect(productPage).toMatch(new RegExp(`property="og:image" content="${ORIGIN}/`))
    expect(productPage).toMatch(new RegExp(`"url":"${ORIGIN}/p/`))
    expect(productPage).toMatch(/rel="amphtml" href="[^"]*\/amp\/p\//)
    const categoryPage = (await visit(`/c/${category.slug}`)).body
    expect(categoryPage).toMatch(new RegExp(`property="og:url" content="${ORIGIN}/`))
    const amp = (await visit(`/amp/c/${category.slug}`)).body
    expect(amp).toMatch(new RegExp(`<link rel="canonical" href="${ORIGIN}/`))
    expect((await visit('/')).body).toContain(`<link rel="canonical" href="${ORIGIN}/"/>`)
    expect((await visit('/robots.txt')).body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`)
    const index = (await visit('/sitemap.xml')).body
    expect(index).toContain(`<loc>${ORIGIN}/sitemaps/pages.xml</loc>`)
    expect((await visit('/sitemaps/categories.xml')).body).toContain(`<loc>${ORIGIN}/c/`)
    const productSitemaps = [...index.matchAll(/<loc>([^<]*products-\d+\.xml)<\/loc>/g)].map(
      (m) => m[1] as string,
    )
    const productLocs = (
      await Promise.all(productSitemaps.map(async (u) => (await visit(new URL(u).pathname)).body))
    ).join('')
    expect(productLocs).toContain(`<loc>${ORIGIN}/p/`)
  })

  it('a page cached by a spoofed request (miss), its hits and its stale refresh never carry the host', async () => {
    const path = `/p/${encodeURIComponent(product.sku)}/${product.slug}`
    const key = outputCacheKey(`https://shop.test${path}`, {
      storeCode: readConfig(env).STORE_CODE,
      currency: readConfig(env).DEFAULT_CURRENCY,
      country: readConfig(env).DEFAULT_COUNTRY,
    }) as string
    // Earlier visits of this page cached it: start from a miss.
    await edgeCache().delete(keyRequest(key))
    clearOutputMemory()
    const miss = await visit(path)
    expect(miss.res.headers.get('x-cache')).toBe('MISS')
    expectOnlyPublicOrigin(miss.body, 'miss')
    const hit = await visit(path, 'shop.test', {})
    expect(hit.res.headers.get('x-cache')).toBe('HIT')
    expectOnlyPublicOrigin(hit.body, 'hit')
    const spoofedHit = await visit(path)
    expect(spoofedHit.res.headers.get('x-cache')).toBe('HIT')
    expectOnlyPublicOrigin(spoofedHit.body, 'hit via the spoofed host')

    // Age the stored copy past FRESH_SECONDS: the next (spoofed) request gets it STALE and
    // re-renders it in the background with that request's headers.
    const cached = await edgeCache().match(keyRequest(key))
    expect(cached).toBeTruthy()
    const headers = new Headers(cached?.headers)
    headers.set('x-cached-at', String(Date.now() - (FRESH_SECONDS + 60) * 1000))
    await edgeCache().put(keyRequest(key), new Response(await cached?.text(), { headers }))
    clearOutputMemory()
    const stale = await visit(path)
    expect(stale.res.headers.get('x-cache')).toBe('STALE')
    expectOnlyPublicOrigin(stale.body, 'stale')
    clearOutputMemory()
    const refreshed = await visit(path, 'shop.test', {})
    expect(refreshed.res.headers.get('x-cache')).toBe('HIT')
    const cachedAt = Number((await edgeCache().match(keyRequest(key)))?.headers.get('x-cached-at'))
    expect(Date.now() - cachedAt).toBeLessThan(FRESH_SECONDS * 1000)
    expectOnlyPublicOrigin(refreshed.body, 'after the stale refresh')
  })
})
