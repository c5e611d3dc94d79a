import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import {
  clearOutputMemory,
  FRESH_SECONDS,
  isCacheablePath,
  keyRequest,
  MEMORY_SECONDS,
  markDegraded,
  outputCache,
  outputCacheKey,
  pruneTagIndex,
  STALE_SECONDS,
} from '../../worker/cache/output-cache'
import { cacheAdminRoutes } from '../../worker/cache/routes'
import type { AppEnv } from '../../worker/env'
import shopApp from '../../worker/index'
import { requestContext } from '../../worker/middleware/context'
import { securityHeaders } from '../../worker/middleware/security-headers'
import { renderPage } from '../../worker/render/render-page'
import { edgeCache } from '../../worker/runtime'

let renders = 0

function fixtureApp() {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext)
  app.use('*', securityHeaders)
  app.use('*', outputCache(app))
  app.route('/', cacheAdminRoutes)
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
  app.get('/personal', (c) => {
    renders++
    return renderPage(c, <h1>No tags</h1>, { title: 'x', layout: 'minimal' })
  })
  return app
}

async function get(app: Hono<AppEnv>, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test${path}`, init), env, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

describe('output cache', () => {
  it('keys by URL with sorted query, store, currency and pricing country', () => {
    const store = { storeCode: 'default', currency: 'INR', pricingCountry: 'IN' }
    expect(outputCacheKey('https://a.test/c/x?b=2&a=1', store)).toBe(
      outputCacheKey('https://a.test/c/x?a=1&b=2', store),
    )
    expect(outputCacheKey('https://a.test/c/x', store)).not.toBe(
      outputCacheKey('https://a.test/c/x', { ...store, currency: 'USD' }),
    )
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
    const wrong = await get(app, '/invalidate?tag=Clehengas&key=nope')
    expect(wrong.res.status).toBe(401)
    expect((await get(app, '/c/lehengas')).res.headers.get('x-cache')).toBe('HIT')

    const ok = await get(app, `/invalidate?tag=Clehengas&key=${env.INVALIDATE_KEY}`)
    expect(ok.res.status).toBe(200)
    expect(JSON.parse(ok.body).result.purged.Clehengas).toBeGreaterThanOrEqual(1)
    expect((await get(app, '/c/lehengas')).res.headers.get('x-cache')).toBe('MISS')
    expect((await get(app, '/c/jackets')).res.headers.get('x-cache')).toBe('HIT')
  })

  it('serves a stale copy and re-renders it once in the background', async () => {
    const app = fixtureApp()
    await get(app, '/c/stale')
    const key = outputCacheKey('https://shop.test/c/stale', {
      storeCode: 'default',
      currency: 'INR',
      pricingCountry: 'IN',
    })
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
    const key = outputCacheKey('https://shop.test/c/memory', {
      storeCode: 'default',
      currency: 'INR',
      pricingCountry: 'IN',
    })
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

  it('rejects a malformed tag with a 400', async () => {
    const app = fixtureApp()
    const res = await get(app, `/invalidate?tag=${encodeURIComponent("x' OR 1=1")}&key=${env.INVALIDATE_KEY}`)
    expect(res.res.status).toBe(400)
  })

  it('never stores a degraded page (a loader fell back), so a blip is not cached', async () => {
    const app = fixtureApp()
    expect((await get(app, '/degraded')).res.headers.get('x-cache')).toBe('MISS')
    const again = await get(app, '/degraded')
    expect(again.res.headers.get('x-cache')).toBe('MISS')
    expect(again.body).toContain('Partial')
  })

  it('the home page rendered while CMS blocks fail is served but not cached; healthy again, it is', async () => {
    const failingCms = new Proxy(env.DB, {
      get(target, prop) {
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
