import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { NOTICE_CATEGORY_UNAVAILABLE } from '../../../shared/config/routes'
import shopApp from '../../../worker/app'
import {
  type CacheVariant,
  isCacheablePath,
  keyRequest,
  MAX_KEY_URL_LENGTH,
  outputCacheKey,
} from '../../../worker/platform/cache/key'
import { FRESH_SECONDS, STALE_SECONDS } from '../../../worker/platform/cache/lifetimes'
import { clearOutputMemory, MEMORY_SECONDS } from '../../../worker/platform/cache/memory'
import { markDegraded, outputCache } from '../../../worker/platform/cache/output-cache'
import { invalidate, MAX_TAGS_PER_CALL } from '../../../worker/platform/cache/routes'
import { pruneTagIndex } from '../../../worker/platform/cache/tags'
import type { AppEnv } from '../../../worker/platform/env'
import { requestContext } from '../../../worker/platform/middleware/context'
import { securityHeaders } from '../../../worker/platform/middleware/security-headers'
import { renderPage } from '../../../worker/platform/render/render-page'
import { edgeCache } from '../../../worker/platform/runtime'

let renders = 0
const INVALIDATE_KEY = env.INVALIDATE_KEY as string

const DEFAULT_VARIANT: CacheVariant = {
  storeCode: 'default',
  currency: 'INR',
  country: 'IN',
}

/** The key of a URL for the default store context (the entry a default visitor reads). */
function keyOf(url: string): string {
  const key = outputCacheKey(url, DEFAULT_VARIANT)
  if (!key) throw new Error(`no cache key for ${url}`)
  return key
}

function fixtureApp(opts: { buildId?: string } = {}) {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext)
  app.use('*', securityHeaders)
  app.use('*', outputCache(app, opts))
  app.get('/invalidate', invalidate)
  app.get('/c/:slug', (c) => {
    renders++
    c.set('cacheTags', ['category', `C${c.req.param('slug')}`])
    return renderPage(c, <h1>{`Category ${c.req.param('slug')}`}</h1>, {
      title: 'Cat',
      layout: 'minimal',
      entry: 'category',
    })
  })
  app.get('/cart', (c) => {
    renders++
    c.set('cacheTags', ['checkout'])
    return renderPage(c, <h1>Cart</h1>, {
      title: 'Cart',
      layout: 'minimal',
      headers: { 'cache-control': 'private, no-store' },
    })
  })
  app.get('/degraded', (c) => {
    renders++
    c.set('cacheTags', ['category'])
    // A section fell back (its dependency failed) — after the response started, as deferred ones do.
    return renderPage(
      c,
      <h1>
        {(() => {
          markDegraded(c)
          return 'Partial'
        })()}
      </h1>,
      { title: 'x', layout: 'minimal' },
    )
  })
  app.get('/echo', (c) => {
    renders++
    c.set('cacheTags', ['search'])
    // Reflects the visitor's text like the search page does (escaped by React).
    return renderPage(c, <h1 data-testid="echo">{c.req.query('q') ?? ''}</h1>, {
      title: 'Echo',
      layout: 'minimal',
      entry: 'category',
    })
  })
  app.get('/personal', (c) => {
    renders++
    return renderPage(c, <h1>No tags</h1>, { title: 'x', layout: 'minimal' })
  })
  return app
}

/** Mounts at `path` a page (cache tag `tag`) that shows the query string its handler was given. */
function echoQuery(app: ReturnType<typeof fixtureApp>, path: string, tag: string) {
  app.get(path, (c) => {
    c.set('cacheTags', [tag])
    return renderPage(c, <p data-testid="seen">{new URL(c.req.url).search}</p>, {
      title: 'x',
      layout: 'minimal',
    })
  })
}

async function get(app: Hono<AppEnv>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test${path}`, init), env, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

describe('output cache', () => {
  it('keys by URL with sorted query, store, currency, country and build', () => {
    const store = DEFAULT_VARIANT
    expect(outputCacheKey('https://a.test/c/x?b=2&a=1', store)).toBe(
      outputCacheKey('https://a.test/c/x?a=1&b=2', store),
    )
    const base = outputCacheKey('https://a.test/c/x', store)
    for (const other of [
      { ...store, currency: 'USD' },
      { ...store, storeCode: 'de' },
      { ...store, country: 'US' },
      { ...store, country: 'FR' },
    ])
      expect(outputCacheKey('https://a.test/c/x', other), JSON.stringify(other)).not.toBe(base)
    expect(outputCacheKey('https://a.test/c/x', store, 'another-build')).not.toBe(base)
    // The host is not part of the key (pages never print it).
    expect(outputCacheKey('https://b.test/c/x', store)).toBe(base)
  })

  it('never looks up or stores personal or transactional paths', () => {
    for (const p of [
      '/cart',
      '/checkout',
      '/confirmation',
      '/my-account',
      '/my-account/orders/1',
      '/api/cart/pull',
    ])
      expect(isCacheablePath(p)).toBe(false)
    for (const p of ['/', '/c/women', '/p/SKU/slug', '/i/about-us', '/amp/c/women'])
      expect(isCacheablePath(p)).toBe(true)
  })

  it('misses, then hits with a fresh nonce in the HTML matching the CSP header', async () => {
    const app = fixtureApp()
    renders = 0
    const first = await get(app, '/c/sarees')
    expect(first.res.headers.get('x-cache')).toBe('MISS')
    expect(first.res.headers.get('cache-tag')).toBe('category,Csarees')
    const second = await get(app, '/c/sarees')
    expect(second.res.headers.get('x-cache')).toBe('HIT')
    expect(renders).toBe(1)
    expect(second.body).toContain('Category sarees')
    const nonce = second.res.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1]
    const firstNonce = first.res.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1]
    expect(nonce).toBeTruthy()
    expect(nonce).not.toBe(firstNonce)
    expect(second.body).toContain(`nonce="${nonce}"`)
    expect(second.body).not.toContain(`nonce="${firstNonce}"`)
  })

  it('keeps one copy per currency', async () => {
    const app = fixtureApp()
    await get(app, '/c/kurtas')
    const usd = await get(app, '/c/kurtas', { headers: { cookie: 'currency=USD' } })
    expect(usd.res.headers.get('x-cache')).toBe('MISS')
    expect(usd.body).toContain('data-currency="USD"')
    const inr = await get(app, '/c/kurtas')
    expect(inr.res.headers.get('x-cache')).toBe('HIT')
    expect(inr.body).toContain('data-currency="INR"')
  })

  it('never serves a cart page or an untagged page from the cache', async () => {
    const app = fixtureApp()
    renders = 0
    await get(app, '/cart')
    const again = await get(app, '/cart')
    expect(again.res.headers.get('x-cache')).toBeNull()
    expect(again.res.headers.get('cache-control')).toBe('private, no-store')
    await get(app, '/personal')
    const p2 = await get(app, '/personal')
    expect(p2.res.headers.get('x-cache')).toBeNull()
    expect(renders).toBe(4)
  })

  it('purges exactly the entries carrying the tag, and only with the key', async () => {
    const app = fixtureApp()
    await get(app, '/c/lehengas')
    await get(app, '/c/jackets')
    expect((await get(app, '/c/lehengas')).res.headers.get('x-cache')).toBe('HIT')

    const refused = await get(app, '/invalidate?tag=Clehengas')
    expect(refused.res.status).toBe(401)
    const wrong = await get(app, '/invalidate?tag=Clehengas', { headers: { 'x-invalidate-key': 'nope' } })
    expect(wrong.res.status).toBe(401)
    expect((await get(app, '/c/lehengas')).res.headers.get('x-cache')).toBe('HIT')

    const ok = await get(app, '/invalidate?tag=Clehengas', {
      headers: { 'x-invalidate-key': INVALIDATE_KEY },
    })
    expect(ok.res.status).toBe(200)
    expect(JSON.parse(ok.body).result.purged.Clehengas).toBeGreaterThanOrEqual(1)
    expect((await get(app, '/c/lehengas')).res.headers.get('x-cache')).toBe('MISS')
    expect((await get(app, '/c/jackets')).res.headers.get('x-cache')).toBe('HIT')
  })

  it('serves a stale copy and re-renders it once in the background', async () => {
    const app = fixtureApp()
    await get(app, '/c/stale')
    const key = keyOf('https://shop.test/c/stale')
    const cached = await edgeCache().match(keyRequest(key))
    const headers = new Headers(cached!.headers)
    headers.set('x-cached-at', String(Date.now() - (FRESH_SECONDS + 60) * 1000))
    await edgeCache().put(keyRequest(key), new Response(await cached!.text(), { headers }))
    // This isolate's memory copy is newer: drop it, as MEMORY_SECONDS passing would.
    clearOutputMemory()
    renders = 0
    const stale = await get(app, '/c/stale')
    expect(stale.res.headers.get('x-cache')).toBe('STALE')
    expect(stale.body).toContain('Category stale')
    expect(renders).toBe(1)
    const fresh = await get(app, '/c/stale')
    expect(fresh.res.headers.get('x-cache')).toBe('HIT')
    expect(renders).toBe(1)
  })

  it("serves an isolate's recent pages from memory for MEMORY_SECONDS, then asks the Cache API again", async () => {
    const app = fixtureApp()
    const first = await get(app, '/c/memory')
    const key = keyOf('https://shop.test/c/memory')
    // Gone from the Cache API (as after a purge in another isolate): memory still answers…
    await edgeCache().delete(keyRequest(key))
    const fromMemory = await get(app, '/c/memory')
    expect(fromMemory.res.headers.get('x-cache')).toBe('HIT')
    // …with this response's nonce in the same page.
    const nonceOf = (r: Response) => r.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1]
    expect(nonceOf(fromMemory.res)).not.toBe(nonceOf(first.res))
    expect(fromMemory.body).toBe(first.body.split(nonceOf(first.res) as string).join(nonceOf(fromMemory.res)))
    // HEAD gets the headers only.
    const head = await get(app, '/c/memory', { method: 'HEAD' })
    expect(head.res.headers.get('x-cache')).toBe('HIT')
    expect(head.body).toBe('')
    // After MEMORY_SECONDS the Cache API is asked, and it no longer has the page.
    const now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + (MEMORY_SECONDS + 1) * 1000)
    try {
      expect((await get(app, '/c/memory')).res.headers.get('x-cache')).toBe('MISS')
    } finally {
      clock.mockRestore()
    }
  })

  it('prunes tag rows older than a cached page can live, and keeps the others', async () => {
    const now = Date.now()
    const old = now - (FRESH_SECONDS + STALE_SECONDS + 60) * 1000
    await env.DB.batch([
      env.DB.prepare('INSERT INTO output_cache_tags (tag, cache_key, created_at) VALUES (?, ?, ?)').bind(
        'prune-test',
        'https://output-cache.internal/old',
        old,
      ),
      env.DB.prepare('INSERT INTO output_cache_tags (tag, cache_key, created_at) VALUES (?, ?, ?)').bind(
        'prune-test',
        'https://output-cache.internal/recent',
        now - 1000,
      ),
    ])
    expect(await pruneTagIndex(env.DB, now)).toBeGreaterThanOrEqual(1)
    const { results } = await env.DB.prepare('SELECT cache_key FROM output_cache_tags WHERE tag = ?')
      .bind('prune-test')
      .all<{ cache_key: string }>()
    expect(results.map((r) => r.cache_key)).toEqual(['https://output-cache.internal/recent'])
  })

  it('rejects a malformed tag, and more than MAX_TAGS_PER_CALL tags, with a 400', async () => {
    const app = fixtureApp()
    const key = { headers: { 'x-invalidate-key': INVALIDATE_KEY } }
    const res = await get(app, `/invalidate?tag=${encodeURIComponent("x' OR 1=1")}`, key)
    expect(res.res.status).toBe(400)
    const many = Array.from({ length: MAX_TAGS_PER_CALL + 1 }, (_, i) => `T${i}`).join(',')
    const tooMany = await get(app, `/invalidate?tag=${many}`, key)
    expect(tooMany.res.status).toBe(400)
    expect(JSON.parse(tooMany.body).result).toContain(String(MAX_TAGS_PER_CALL))
  })

  it('takes the /invalidate key only from a header, never from the URL (even the right key)', async () => {
    const app = fixtureApp()
    await get(app, '/c/keyed')
    expect((await get(app, '/c/keyed')).res.headers.get('x-cache')).toBe('HIT')
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const inUrl = await get(app, `/invalidate?tag=Ckeyed&key=${encodeURIComponent(INVALIDATE_KEY)}`)
    expect(inUrl.res.status).toBe(401)
    expect(JSON.parse(inUrl.body).result).toContain('x-invalidate-key')
    expect(inUrl.body).not.toContain(INVALIDATE_KEY)
    // Also refused when a valid header comes with it: the URL copy has leaked either way.
    const both = await get(app, `/invalidate?tag=Ckeyed&key=${encodeURIComponent(INVALIDATE_KEY)}`, {
      headers: { 'x-invalidate-key': INVALIDATE_KEY },
    })
    expect(both.res.status).toBe(401)
    expect((await get(app, '/c/keyed')).res.headers.get('x-cache')).toBe('HIT')
    for (const headers of [
      { authorization: `Bearer ${INVALIDATE_KEY}x` },
      { authorization: `Basic ${btoa(`x:${INVALIDATE_KEY}`)}` },
      { 'x-invalidate-key': `${INVALIDATE_KEY} x` },
      { 'x-invalidate-key': INVALIDATE_KEY.slice(0, -1) },
    ] as Record<string, string>[])
      expect(
        (await get(app, '/invalidate?tag=Ckeyed', { headers })).res.status,
        JSON.stringify(headers),
      ).toBe(401)
    const bearer = await get(app, '/invalidate?tag=Ckeyed', {
      headers: { authorization: `Bearer ${INVALIDATE_KEY}` },
    })
    expect(bearer.res.status).toBe(200)
    expect(bearer.res.headers.get('cache-control')).toBe('no-store')
    expect((await get(app, '/c/keyed')).res.headers.get('x-cache')).toBe('MISS')
  })

  it('never stores a degraded page (a loader fell back), so a blip is not cached', async () => {
    const app = fixtureApp()
    expect((await get(app, '/degraded')).res.headers.get('x-cache')).toBe('MISS')
    const again = await get(app, '/degraded')
    expect(again.res.headers.get('x-cache')).toBe('MISS')
    expect(again.body).toContain('Partial')
  })

  it('the home page rendered while CMS blocks fail is served but not cached; healthy again, it is', async () => {
    const failingCms: D1Database = new Proxy(env.DB, {
      get(target, prop) {
        // Requests read through a D1 session: the session fails the same way.
        if (prop === 'withSession') return () => failingCms
        if (prop === 'getBookmark') return () => null
        if (prop === 'prepare')
          return (sql: string) => {
            if (/FROM cms_blocks/.test(sql)) throw new Error('D1_ERROR: SQLITE_BUSY (simulated)')
            return target.prepare(sql)
          }
        const v = Reflect.get(target, prop, target)
        return typeof v === 'function' ? v.bind(target) : v
      },
    })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const visit = async (DB: D1Database) => {
      const ctx = createExecutionContext()
      const res = await shopApp.fetch(
        new Request('https://shop.test/?cache-test=home', { headers: { 'user-agent': 'Googlebot' } }),
        { ...env, DB, OUTPUT_CACHE_ENABLED: 'true' },
        ctx,
      )
      await res.text()
      await waitOnExecutionContext(ctx)
      return res
    }
    for (let i = 0; i < 2; i++) {
      const res = await visit(failingCms)
      expect(res.status).toBe(200)
      expect(res.headers.get('x-cache')).toBe('MISS')
    }
    vi.restoreAllMocks()
    expect((await visit(env.DB)).headers.get('x-cache')).toBe('MISS')
    expect((await visit(env.DB)).headers.get('x-cache')).toBe('HIT')
  })
})

const nonceOf = (r: Response) => r.headers.get('content-security-policy')?.match(/'nonce-([^']+)'/)?.[1] ?? ''
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1

/** A visible product page of the demo catalogue whose price includes tax (differs by country). */
/** The path of a simple product's page; each test that counts its own hits and misses takes its own. */
async function taxedProductPath(nth = 0): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT sku, slug FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'simple' ORDER BY id LIMIT 1 OFFSET ?",
  )
    .bind(nth)
    .first<{ sku: string; slug: string }>()
  if (!row) throw new Error('no product')
  return `/p/${encodeURIComponent(row.sku)}/${row.slug}`
}

async function shop(path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext()
  const res = await shopApp.fetch(
    new Request(`https://shop.test${path}`, init),
    { ...env, OUTPUT_CACHE_ENABLED: 'true' },
    ctx,
  )
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

const finalPrice = (html: string) => html.match(/data-testid="price-final">([^<]+)</)?.[1]

describe('output cache key: what a page varies on', () => {
  it('the shop’s pages: a parameter the page does not read shares its entry, one it reads does not', async () => {
    const listing = await shop('/c/women?ref=newsletter')
    expect(listing.res.status).toBe(200)
    for (const q of ['?x=1', '?utm_source=y&gclid=z', '?ref=a&b=c', '?SORT=price-asc'])
      expect((await shop(`/c/women${q}`)).res.headers.get('x-cache'), q).toBe('HIT')
    expect((await shop('/c/women?sort=price-asc&ref=q')).res.headers.get('x-cache')).toBe('MISS')
    const text = `silk-${Date.now()}`
    expect((await shop(`/search?q=${text}&junk=1`)).res.headers.get('x-cache')).toBe('MISS')
    expect((await shop(`/search?junk=2&q=${text}`)).res.headers.get('x-cache')).toBe('HIT')
    expect((await shop(`/search?q=${text}x`)).res.headers.get('x-cache')).toBe('MISS')
    const product = await taxedProductPath(2)
    await shop(`${product}?from=mail`)
    expect((await shop(`${product}?from=ad&x=2`)).res.headers.get('x-cache')).toBe('HIT')
  })

  it('a listing whose URL names values no filter offers is served without them and never stored', async () => {
    for (const path of [
      '/c/women?color=99999',
      `/search?q=silk-${Date.now()}&color=99999`,
      '/search?color=99998',
    ]) {
      expect((await shop(path)).res.status, path).toBe(200)
      const again = await shop(path)
      expect(again.res.status, path).toBe(200)
      expect(again.res.headers.get('x-cache'), path).not.toBe('HIT')
    }
    // A value a filter offers is stored as before.
    await shop('/c/women?color=49')
    expect((await shop('/c/women?color=49')).res.headers.get('x-cache')).toBe('HIT')
  })

  it('the home page’s notice enters the key only with the value the page reads', async () => {
    await shop('/?ref=warm')
    for (const q of ['?notice=junk-1', '?notice=junk-2', '?notice=CATEGORY-UNAVAILABLE'])
      expect((await shop(`/${q}`)).res.headers.get('x-cache'), q).toBe('HIT')
    const notice = await shop(`/?notice=${NOTICE_CATEGORY_UNAVAILABLE}`)
    expect(notice.res.headers.get('x-cache')).toBe('MISS')
    expect(notice.body).toContain('data-notice=')
    expect((await shop(`/?notice=${NOTICE_CATEGORY_UNAVAILABLE}&x=1`)).res.headers.get('x-cache')).toBe('HIT')
  })

  it('never serves a page priced for one country to a visitor from another (pricing and tax country)', async () => {
    const path = await taxedProductPath(0)
    const india = await shop(path)
    expect(india.res.headers.get('x-cache')).toBe('MISS')
    expect((await shop(path)).res.headers.get('x-cache')).toBe('HIT')
    const us = await shop(path, { headers: { cookie: 'country=US' } })
    expect(us.res.headers.get('x-cache')).toBe('MISS')
    expect(us.body).toContain('data-country="US"')
    // The price includes that country's tax: it differs from the Indian one.
    expect(finalPrice(us.body)).toBeTruthy()
    expect(finalPrice(us.body)).not.toBe(finalPrice(india.body))
    const usAgain = await shop(path, { headers: { cookie: 'country=US' } })
    expect(usAgain.res.headers.get('x-cache')).toBe('HIT')
    expect(finalPrice(usAgain.body)).toBe(finalPrice(us.body))
    const indiaAgain = await shop(path)
    expect(indiaAgain.res.headers.get('x-cache')).toBe('HIT')
    expect(finalPrice(indiaAgain.body)).toBe(finalPrice(india.body))
  })

  it('keeps countries that share a pricing country apart (the page carries the country)', async () => {
    const app = fixtureApp()
    const fr = await get(app, '/c/countries', { headers: { cookie: 'country=FR' } })
    expect(fr.body).toContain('data-country="FR"')
    const de = await get(app, '/c/countries', { headers: { cookie: 'country=DE' } })
    expect(de.res.headers.get('x-cache')).toBe('MISS')
    expect(de.body).toContain('data-country="DE"')
    expect((await get(app, '/c/countries', { headers: { cookie: 'country=FR' } })).body).toContain(
      'data-country="FR"',
    )
  })

  it('never serves a page cached by one build to another build (its assets would be gone)', async () => {
    const oldDeploy = fixtureApp({ buildId: 'build-old' })
    const newDeploy = fixtureApp({ buildId: 'build-new' })
    renders = 0
    expect((await get(oldDeploy, '/c/builds')).res.headers.get('x-cache')).toBe('MISS')
    expect((await get(oldDeploy, '/c/builds')).res.headers.get('x-cache')).toBe('HIT')
    expect((await get(newDeploy, '/c/builds')).res.headers.get('x-cache')).toBe('MISS')
    expect(renders).toBe(2)
    expect((await get(newDeploy, '/c/builds')).res.headers.get('x-cache')).toBe('HIT')
    expect((await get(oldDeploy, '/c/builds')).res.headers.get('x-cache')).toBe('HIT')
    expect(renders).toBe(2)
  })

  it('ignores tracking parameters (utm_*, fbclid, gclid, msclkid, _ga, mc_cid…), not real ones', async () => {
    const app = fixtureApp()
    renders = 0
    expect((await get(app, '/c/campaign?utm_source=news&utm_medium=mail')).res.headers.get('x-cache')).toBe(
      'MISS',
    )
    for (const q of [
      '',
      '?fbclid=IwAR0abc',
      '?gclid=Cj0KCQ&utm_campaign=sale',
      '?msclkid=1&_ga=2.1.3&mc_cid=x&mc_eid=y',
      '?UTM_SOURCE=x&yclid=1&ttclid=2&twclid=3&igshid=4&srsltid=5&_gl=6&dclid=7&gbraid=8&wbraid=9',
    ])
      expect((await get(app, `/c/campaign${q}`)).res.headers.get('x-cache'), q).toBe('HIT')
    expect(renders).toBe(1)
    // Parameters a page reads still make their own entry.
    expect((await get(app, '/c/campaign?sort=price-asc&utm_source=x')).res.headers.get('x-cache')).toBe(
      'MISS',
    )
    expect((await get(app, '/c/campaign?sort=price-asc')).res.headers.get('x-cache')).toBe('HIT')
  })

  it('keys a route of the table on the parameters it reads only: unknown ones are the same page', async () => {
    const app = fixtureApp()
    renders = 0
    expect((await get(app, '/c/unknown-params')).res.headers.get('x-cache')).toBe('MISS')
    // 40 spellings of one listing: parameters no listing reads, in any mix and case.
    for (let i = 0; i < 40; i++) {
      const q = `?ref=partner-${i}&x${i}=${i}&Sort=${i}&COLOR=${i}&page=${i}`
      expect((await get(app, `/c/unknown-params${q}`)).res.headers.get('x-cache'), q).toBe('HIT')
    }
    expect(renders).toBe(1)
    // One tag-index row, however many spellings were asked for.
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM output_cache_tags WHERE cache_key LIKE '%/c/unknown-params%'",
    ).first<{ n: number }>()
    expect(rows?.n).toBe(2)
    // A parameter the listing reads (a filter, the sort) is its own page.
    expect((await get(app, '/c/unknown-params?color=49&ref=x')).res.headers.get('x-cache')).toBe('MISS')
    expect((await get(app, '/c/unknown-params?ref=y&color=49')).res.headers.get('x-cache')).toBe('HIT')
    expect((await get(app, '/c/unknown-params?sort=price-desc')).res.headers.get('x-cache')).toBe('MISS')
    expect(renders).toBe(3)
  })

  it('a listing parameter whose value the listing ignores is the same page: one render', async () => {
    const app = fixtureApp()
    echoQuery(app, '/search', 'search')
    renders = 0
    expect((await get(app, '/c/ignored-values')).res.headers.get('x-cache')).toBe('MISS')
    // An unknown sort is the default sort, as is naming it; a filter value the listing cannot read
    // is no filter; a repeated parameter is read once (the first).
    for (const q of [
      '?sort=nonsense-1',
      '?sort=nonsense-2',
      '?sort=latest',
      // Relevance needs search text: a category lists by the default sort.
      '?sort=relevance',
      '?color=',
      '?color=%3Cb%3E',
    ])
      expect((await get(app, `/c/ignored-values${q}`)).res.headers.get('x-cache'), q).toBe('HIT')
    expect(renders).toBe(1)
    expect((await get(app, '/c/ignored-values?color=49&sort=x')).res.headers.get('x-cache')).toBe('MISS')
    for (const q of ['?color=49', '?color=49,49', '?color=49&color=50', '?sort=latest&color=49,'])
      expect((await get(app, `/c/ignored-values${q}`)).res.headers.get('x-cache'), q).toBe('HIT')
    expect(renders).toBe(2)
    // The handler reads the same spelling the key names.
    const seen = async (q: string) =>
      (await get(app, `/search${q}`)).body.match(/data-testid="seen">([^<]*)</)?.[1]?.replaceAll('&amp;', '&')
    // Search: no sort is Relevance, an unknown one the default sort.
    expect(await seen('?q=silk&sort=zz&color=49&color=50')).toBe('?q=silk&color=49&sort=latest')
    expect(await seen('?sort=relevance&q=silk&q=wool')).toBe('?q=silk&sort=relevance')
    expect(await seen('?q=silk')).toBe('?q=silk')
  })

  it('hands the page only the parameters its route reads, cached or not', async () => {
    const app = fixtureApp()
    // Mounted at the content-page route's path (it reads no parameter): the handler echoes what it sees.
    echoQuery(app, '/i/:slug', 'cms')
    const { body } = await get(app, '/i/echo?secret=1&utm_source=x&q=silk')
    expect(body).toContain('<p data-testid="seen"></p>')
  })

  it('a campaign link renders the same page as the plain URL: canonical without tracking parameters', async () => {
    const path = await taxedProductPath(1)
    const tracked = await shop(`${path}?utm_source=news&gclid=abc&fbclid=def`)
    const canonical = tracked.body.match(/<link rel="canonical" href="([^"]+)"/)?.[1] ?? ''
    expect(canonical.endsWith(path)).toBe(true)
    expect(tracked.body).not.toMatch(/utm_source|gclid=|fbclid=/)
    const plain = await shop(path)
    expect(plain.res.headers.get('x-cache')).toBe('HIT')
  })

  it('renders but never caches a URL longer than MAX_KEY_URL_LENGTH', async () => {
    const app = fixtureApp()
    const long = `/c/long?color=${'x'.repeat(MAX_KEY_URL_LENGTH)}`
    renders = 0
    const first = await get(app, long)
    expect(first.res.status).toBe(200)
    expect(first.res.headers.get('x-cache')).toBeNull()
    expect((await get(app, long)).res.headers.get('x-cache')).toBeNull()
    expect(renders).toBe(2)
    const { results } = await env.DB.prepare(
      "SELECT count(*) AS n FROM output_cache_tags WHERE cache_key LIKE '%/c/long?%'",
    ).all<{ n: number }>()
    expect(results[0]?.n).toBe(0)
  })
})

describe('the nonce swap on a hit touches only the nonce slots', () => {
  it('shows a term equal to the former placeholder or to a nonce seen earlier as typed', async () => {
    const app = fixtureApp()
    const seen = nonceOf((await get(app, '/c/nonce-source')).res)
    expect(seen).toBeTruthy()
    for (const term of ['__EDGE_CACHE_NONCE__', seen, `x${seen}x`, 'x-nonce-at', '0,1,2']) {
      const path = `/echo?q=${encodeURIComponent(term)}`
      const miss = await get(app, path)
      expect(miss.res.headers.get('x-cache'), term).toBe('MISS')
      const hit = await get(app, path)
      expect(hit.res.headers.get('x-cache'), term).toBe('HIT')
      const live = nonceOf(hit.res)
      const shown = hit.body.match(/data-testid="echo">([^<]*)</)?.[1]
      expect(shown, term).toBe(term)
      // The live nonce sits exactly where the renderer wrote the miss's nonce, nowhere else.
      expect(count(hit.body, live), term).toBe(count(miss.body, nonceOf(miss.res)))
      expect(hit.body.split(live).join('')).toBe(miss.body.split(nonceOf(miss.res)).join(''))
    }
  })

  it('the search page cached with a placeholder-like term keeps it and its nonces match the CSP', async () => {
    const term = '__EDGE_CACHE_NONCE__'
    const miss = await shop(`/search?q=${term}`)
    expect(miss.res.headers.get('x-cache')).toBe('MISS')
    const hit = await shop(`/search?q=${term}`)
    expect(hit.res.headers.get('x-cache')).toBe('HIT')
    expect(hit.body).toContain(`Search results for “${term}”`)
    expect(count(hit.body, nonceOf(hit.res))).toBe(count(miss.body, nonceOf(miss.res)))
    expect(hit.res.headers.get('x-nonce-at')).toBeNull()
  })

  it('treats a stored page whose nonce slots do not fit its text as a miss', async () => {
    const app = fixtureApp()
    await get(app, '/c/corrupt')
    const key = keyOf('https://shop.test/c/corrupt')
    const cached = await edgeCache().match(keyRequest(key))
    const headers = new Headers(cached?.headers)
    headers.set('x-nonce-at', '5,3,999999999')
    await edgeCache().put(keyRequest(key), new Response(await cached?.text(), { headers }))
    clearOutputMemory()
    const again = await get(app, '/c/corrupt')
    expect(again.res.headers.get('x-cache')).toBe('MISS')
    expect(again.body).toContain('Category corrupt')
  })
})
