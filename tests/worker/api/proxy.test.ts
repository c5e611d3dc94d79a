// The upstream proxy (worker/api/proxy.ts) with a mocked upstream: the fetcher is injected
// (@cloudflare/vitest-plugin 1.x has no fetchMock), plus one pass through the real app.
import { env } from 'cloudflare:test'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { proxyToUpstream } from '../../../worker/api/proxy'
import app from '../../../worker/app'
import type { AppEnv } from '../../../worker/platform/env'

interface Seen {
  url: string
  method: string
  headers: Headers
  body: string
}

function proxyApp(fetcher: typeof fetch, timeoutMs = 5000) {
  const a = new Hono<AppEnv>()
  a.use('*', async (c, next) => {
    c.set('requestId', 'req-test')
    await next()
  })
  a.all('/api/*', (c) => proxyToUpstream(c, 'https://upstream.test', fetcher, timeoutMs))
  return a
}

function recordingFetcher(respond: () => Response) {
  const seen: Seen[] = []
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    seen.push({ url: req.url, method: req.method, headers: req.headers, body: await req.text() })
    return respond()
  }) as typeof fetch
  return { seen, fetcher }
}

/** The headers the storefront sends with a cart call; the proxy passes each on upstream. */
const STOREFRONT_HEADERS = {
  'content-type': 'application/json',
  store: 'default',
  'x-vs-store-code': 'default',
  'send-final-price': 'true',
  'send-converted-price': 'true',
  'country-id': 'IN',
  currency: 'INR',
}

describe('upstream proxy', () => {
  it("forwards method, path, query, body and the spec's headers, and passes the answer back", async () => {
    const { seen, fetcher } = recordingFetcher(
      () =>
        new Response(JSON.stringify({ code: 200, result: 'cart-1' }), {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-vs-cache': 'Miss', 'set-cookie': 'upstream=1' },
        }),
    )
    const res = await proxyApp(fetcher).request('/api/cart/update?token=abc&cartId=42', {
      method: 'POST',
      headers: { ...STOREFRONT_HEADERS, cookie: 'session=secret' },
      body: JSON.stringify({ cartItem: { sku: 'SAR1001', qty: 1 } }),
    })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ code: 200, result: 'cart-1' })
    expect(res.headers.get('x-vs-cache')).toBe('Miss')
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(seen).toHaveLength(1)
    const s = seen[0] as Seen
    expect(s.url).toBe('https://upstream.test/api/cart/update?token=abc&cartId=42')
    expect(s.method).toBe('POST')
    expect(JSON.parse(s.body)).toEqual({ cartItem: { sku: 'SAR1001', qty: 1 } })
    for (const [k, v] of Object.entries({ ...STOREFRONT_HEADERS, 'x-request-id': 'req-test' })) {
      expect(s.headers.get(k), k).toBe(v)
    }
    expect(s.headers.get('cookie')).toBeNull()
  })

  it('passes catalogue GETs with ?request= through unchanged (raw ES answers, 4xx included)', async () => {
    const { seen, fetcher } = recordingFetcher(
      () =>
        new Response('{"hits":{"total":0,"hits":[]}}', {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    )
    const q = encodeURIComponent(JSON.stringify({ query: { terms: { sku: ['A'] } } }))
    const res = await proxyApp(fetcher).request(
      `/api/catalog/vue_storefront_catalog/product/_search?size=1&request=${q}`,
    )
    expect(await res.json()).toEqual({ hits: { total: 0, hits: [] } })
    expect(seen[0]?.url).toBe(
      `https://upstream.test/api/catalog/vue_storefront_catalog/product/_search?size=1&request=${q}`,
    )
    expect(seen[0]?.method).toBe('GET')
    const notFound = recordingFetcher(
      () =>
        new Response('{"code":404,"result":"nope"}', {
          status: 404,
          headers: { 'content-type': 'application/json' },
        }),
    )
    const r404 = await proxyApp(notFound.fetcher).request('/api/x')
    expect(r404.status).toBe(404)
    expect(await r404.json()).toEqual({ code: 404, result: 'nope' })
  })

  it('answers a 504 envelope when the upstream does not answer in time', async () => {
    const hanging = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
      })) as typeof fetch
    const started = Date.now()
    const res = await proxyApp(hanging, 50).request('/api/stock/check?sku=A')
    expect(res.status).toBe(504)
    expect(await res.json()).toEqual({
      code: 504,
      result: 'Upstream API did not answer within 50 ms',
      meta: { requestId: 'req-test' },
    })
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('answers a 502 envelope when the upstream is unreachable', async () => {
    const failing = (async () => {
      throw new TypeError('Network connection lost.')
    }) as typeof fetch
    const res = await proxyApp(failing).request('/api/stores/all')
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({
      code: 502,
      result: 'Upstream API is unreachable',
      meta: { requestId: 'req-test' },
    })
  })

  it('turns an upstream 5xx into an envelope, and keeps one that already is', async () => {
    const html = recordingFetcher(
      () => new Response('<h1>Bad gateway</h1>', { status: 503, headers: { 'content-type': 'text/html' } }),
    )
    const r1 = await proxyApp(html.fetcher).request('/api/cart/totals')
    expect(r1.status).toBe(503)
    expect(await r1.json()).toEqual({
      code: 503,
      result: 'Upstream API error (503)',
      meta: { requestId: 'req-test' },
    })
    const json = recordingFetcher(
      () =>
        new Response('{"code":500,"result":"Missing url"}', {
          status: 500,
          headers: { 'content-type': 'application/json' },
        }),
    )
    const r2 = await proxyApp(json.fetcher).request('/api/url/map', { method: 'POST', body: '{}' })
    expect(r2.status).toBe(500)
    expect(await r2.json()).toEqual({ code: 500, result: 'Missing url' })
    const bareJson = recordingFetcher(
      () =>
        new Response('{"error":"boom"}', { status: 500, headers: { 'content-type': 'application/json' } }),
    )
    const r3 = await proxyApp(bareJson.fetcher).request('/api/x')
    expect(await r3.json()).toMatchObject({ code: 500, result: 'Upstream API error (500)' })
  })

  it('is used by the app for /api/* when API_UPSTREAM is set (unreachable upstream → 502)', async () => {
    const ctx = {
      waitUntil: () => {},
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext
    const res = await app.request('/api/stores/all', {}, { ...env, API_UPSTREAM: 'http://127.0.0.1:9' }, ctx)
    expect(res.status).toBe(502)
    expect(await res.json()).toMatchObject({ code: 502, result: 'Upstream API is unreachable' })
  })
})
