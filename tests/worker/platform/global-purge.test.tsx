// Purging by tag reaches every location: pages are stored with a Cache-Tag header, and /invalidate
// asks the zone's purge API (here a local stand-in that checks what it receives) to drop the tags
// besides deleting them from this location's Cache API.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { Hono } from 'hono'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { keyRequest, outputCacheKey } from '../../../worker/platform/cache/key'
import { outputCache } from '../../../worker/platform/cache/output-cache'
import { purgeCacheTags } from '../../../worker/platform/cache/purge'
import { invalidate } from '../../../worker/platform/cache/routes'
import type { AppEnv } from '../../../worker/platform/env'
import { requestContext } from '../../../worker/platform/middleware/context'
import { renderPage } from '../../../worker/platform/render/render-page'
import { edgeCache } from '../../../worker/platform/runtime'
import { purgeApiStandIn, STAND_IN_BASE } from './purge-api-stand-in'

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353'
const TOKEN = 'purge-token-for-tests'
const KEY = env.INVALIDATE_KEY as string

function shop() {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext)
  app.use('*', outputCache(app))
  app.get('/invalidate', invalidate)
  app.get('/c/:slug', (c) => {
    c.set('cacheTags', ['category', `C${c.req.param('slug')}`])
    return renderPage(c, <h1>{c.req.param('slug')}</h1>, { title: 'c', layout: 'minimal' })
  })
  return app
}

const configured = {
  CLOUDFLARE_ZONE_ID: ZONE,
  CLOUDFLARE_API_TOKEN: TOKEN,
  CLOUDFLARE_API_BASE: STAND_IN_BASE,
}

async function get(
  app: Hono<AppEnv>,
  path: string,
  vars: Record<string, unknown> = {},
  init: RequestInit = {},
) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test${path}`, init), { ...env, ...vars } as Env, ctx)
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { res, body }
}

function routeFetch(standIn: ReturnType<typeof purgeApiStandIn>) {
  const real = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    return url.startsWith(STAND_IN_BASE) ? standIn.fetch(input, init) : real(input, init)
  })
}

afterEach(() => vi.restoreAllMocks())

describe('global purge by tag', () => {
  it('stores every cached page with its Cache-Tag header (what the purge API matches on)', async () => {
    const app = shop()
    await get(app, '/c/sarees')
    const stored = await edgeCache().match(
      keyRequest(
        outputCacheKey('https://shop.test/c/sarees', {
          storeCode: 'default',
          currency: 'INR',
          country: 'IN',
        }) as string,
      ),
    )
    expect(stored?.headers.get('cache-tag')?.split(',')).toEqual(['category', 'Csarees'])
  })

  it('sends exactly the requested tags to the purge API with the zone and token, and purges here too', async () => {
    const standIn = purgeApiStandIn({ zoneId: ZONE, token: TOKEN })
    routeFetch(standIn)
    const app = shop()
    await get(app, '/c/kurtas', configured)
    expect((await get(app, '/c/kurtas', configured)).res.headers.get('x-cache')).toBe('HIT')
    const res = await get(app, '/invalidate?tag=Ckurtas,home', configured, {
      headers: { 'x-invalidate-key': KEY },
    })
    expect(res.res.status).toBe(200)
    expect(JSON.parse(res.body).result).toMatchObject({ global: 'purged', purged: { Ckurtas: 1, home: 0 } })
    expect(standIn.requests).toEqual([['Ckurtas', 'home']])
    expect((await get(app, '/c/kurtas', configured)).res.headers.get('x-cache')).toBe('MISS')
  })

  it('keeps the local purge and answers 502 naming the failure when the purge API refuses or hangs', async () => {
    const standIn = purgeApiStandIn({ zoneId: ZONE, token: 'another-token' })
    routeFetch(standIn)
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = shop()
    await get(app, '/c/dupattas', configured)
    const refused = await get(app, '/invalidate?tag=Cdupattas', configured, {
      headers: { 'x-invalidate-key': KEY },
    })
    expect(refused.res.status).toBe(502)
    const body = JSON.parse(refused.body)
    expect(body.result).toMatch(/Purged in this location only: the purge API answered 403/)
    expect(body.meta.purged).toEqual({ Cdupattas: 1 })
    expect(standIn.requests).toEqual([])
    // The local copy is gone even though the global purge failed.
    expect((await get(app, '/c/dupattas', configured)).res.headers.get('x-cache')).toBe('MISS')

    standIn.answer = 'hang'
    const started = Date.now()
    const result = await purgeCacheTags(
      { ...env, ...configured, CLOUDFLARE_API_TOKEN: 'another-token' } as Env,
      ['x'],
    )
    expect(result.global).toEqual({ failed: 'Cloudflare purge API did not answer within 5000 ms' })
    expect(Date.now() - started).toBeLessThan(8000)
  })

  it('purges locally only when the zone is not configured, and never calls out', async () => {
    const spy = vi.spyOn(globalThis, 'fetch')
    const app = shop()
    await get(app, '/c/sherwanis')
    const res = await get(app, '/invalidate?tag=Csherwanis', {}, { headers: { 'x-invalidate-key': KEY } })
    expect(JSON.parse(res.body).result).toEqual({ purged: { Csherwanis: 1 }, global: 'not-configured' })
    expect(spy).not.toHaveBeenCalled()
  })

  it('measures our side of a purge: the /invalidate call until the next request misses', async () => {
    const standIn = purgeApiStandIn({ zoneId: ZONE, token: TOKEN })
    routeFetch(standIn)
    const app = shop()
    const timings: number[] = []
    for (let i = 0; i < 5; i++) {
      await get(app, `/c/m${i}`, configured)
      const started = performance.now()
      await get(app, `/invalidate?tag=Cm${i}`, configured, { headers: { 'x-invalidate-key': KEY } })
      const after = await get(app, `/c/m${i}`, configured)
      timings.push(performance.now() - started)
      expect(after.res.headers.get('x-cache')).toBe('MISS')
    }
    console.log(JSON.stringify({ msg: 'purge to miss (ms, our side, stand-in API)', timings }))
    expect(standIn.requests).toHaveLength(5)
  })
})
