// Failure of dependencies: the upstream API down, failing or slow (proxy mode, via an injected
// global fetch), D1 errors (a Proxy around env.DB) and KV misses/errors. Pages degrade to a page
// with the spec's messages or the error page with the request id; /api answers a JSON envelope
// (502/503/504, or the generic 500 for an internal failure) — never a stack, never a half write.
import { env } from 'cloudflare:test'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import app from '../../../worker/app'
import { stockedDemoProduct } from '../../helpers/cart-fixtures'
import { cspNonce, findExecutableMarkup } from '../../helpers/fuzz-html'
import { orderBody, testAddress } from '../../helpers/orders'

const ctx = {
  waitUntil: () => {},
  passThroughOnException: () => {},
  props: {},
} as unknown as ExecutionContext
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
}

let product: { sku: string; slug: string; url_path: string }

beforeAll(async () => {
  product = await stockedDemoProduct()
})

afterEach(() => vi.restoreAllMocks())

function quiet() {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  vi.spyOn(console, 'warn').mockImplementation(() => {})
}

async function call(path: string, bindings: Partial<Env>, init: RequestInit = {}) {
  const res = await app.request(
    path,
    { ...init, headers: { ...BROWSER, ...(init.headers as Record<string, string>) } },
    { ...env, OUTPUT_CACHE_ENABLED: 'false', ...bindings },
    ctx,
  )
  return { res, text: await res.text() }
}

/** A degraded page: HTML with CSP and no executable injection; a 5xx shows the request id. */
function expectDegradedPage(res: Response, text: string, path: string) {
  expect(res.headers.get('content-type'), path).toContain('text/html')
  expect(res.status, path).toBeLessThan(600)
  expect(text, path).not.toMatch(/at .*\.(ts|js):\d+|SQLITE|D1_ERROR|TypeError/)
  expect(findExecutableMarkup(text, cspNonce(res.headers.get('content-security-policy'))), path).toEqual([])
  if (res.status >= 500) {
    const id = res.headers.get('x-request-id') as string
    expect(id).toBeTruthy()
    expect(text, `${path}: request id on the error page`).toContain(id)
  }
}

function expectEnvelope(res: Response, text: string, allowed: number[], path: string) {
  expect(res.headers.get('content-type'), path).toContain('application/json')
  const json = JSON.parse(text) as { code: number; result: unknown; meta?: { requestId?: string } }
  expect(allowed, `${path}: ${res.status} ${text.slice(0, 200)}`).toContain(res.status)
  expect(json.code).toBe(res.status)
  expect(typeof json.result).toBe('string')
  expect(text).not.toMatch(/at .*\.(ts|js):\d+|SQLITE|D1_ERROR/)
  return json
}

const PAGES = () => [
  '/',
  '/c/women',
  `/p/${encodeURIComponent(product.sku)}/${product.slug}`,
  '/search?q=silk',
  '/i/about-us',
]

describe('upstream API (proxy mode)', () => {
  const upstream = { API_UPSTREAM: 'https://upstream.test' }

  it('down: /api answers a 502 envelope and pages degrade with the request id', async () => {
    quiet()
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      throw new TypeError('Network connection lost.')
    })
    for (const path of [
      '/api/stores/all',
      '/api/cart/create',
      '/api/catalog/vue_storefront_catalog/product/_search',
    ]) {
      const { res, text } = await call(path, upstream, { method: path.includes('cart') ? 'POST' : 'GET' })
      const json = expectEnvelope(res, text, [502], path)
      expect(json.result).toBe('Upstream API is unreachable')
      expect(json.meta?.requestId).toBe(res.headers.get('x-request-id'))
    }
    for (const path of PAGES()) {
      const { res, text } = await call(path, upstream)
      expectDegradedPage(res, text, path)
    }
  })

  it('answering 500 with HTML: /api wraps it in an envelope, pages degrade', async () => {
    quiet()
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response('<h1>Internal Server Error</h1>', {
          status: 500,
          headers: { 'content-type': 'text/html' },
        }),
    )
    const { res, text } = await call('/api/stores/all', upstream)
    expect(expectEnvelope(res, text, [500], '/api/stores/all').result).toBe('Upstream API error (500)')
    for (const path of PAGES()) {
      const page = await call(path, upstream)
      expectDegradedPage(page.res, page.text, path)
    }
  })

  it('slow past the 5000 ms time-out: /api answers 504 and the page gives up instead of hanging', async () => {
    quiet()
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_input: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))
        }),
    )
    const started = Date.now()
    const [apiAnswer, page] = await Promise.all([
      call('/api/stock/check?sku=X', upstream),
      call('/c/women', upstream),
    ])
    const elapsed = Date.now() - started
    expect(expectEnvelope(apiAnswer.res, apiAnswer.text, [504], '/api/stock/check').result).toMatch(
      /did not answer within 5000 ms/,
    )
    expectDegradedPage(page.res, page.text, '/c/women')
    expect(elapsed).toBeGreaterThanOrEqual(4900)
    expect(elapsed).toBeLessThan(15_000)
  }, 30_000)
})

type FailMode = 'prepare' | 'batch' | 'writes'

const isWrite = (sql: string) => /^\s*(INSERT|UPDATE|DELETE|REPLACE)/i.test(sql)

/**
 * env.DB that throws `error(sql)` where `fails` says: at prepare, when a statement runs, on
 * batch(), on exec(). Requests read through a D1 session: the session fails the same way.
 */
function dbFailing(
  fails: { prepare?: boolean; statement?: (sql: string) => boolean; batch?: boolean; exec?: boolean },
  error: (sql: string) => string,
): D1Database {
  const boom = (sql: string): never => {
    throw new Error(error(sql))
  }
  const wrapStatement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') return (...args: unknown[]) => wrapStatement(target.bind(...args), sql)
        if (fails.statement?.(sql) && ['run', 'first', 'all', 'raw'].includes(String(prop)))
          return async () => boom(sql)
        const v = Reflect.get(target, prop, target)
        return typeof v === 'function' ? v.bind(target) : v
      },
    })
  const db: D1Database = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'withSession') return () => db
      if (prop === 'getBookmark') return () => null
      if (prop === 'prepare')
        return (sql: string) => (fails.prepare ? boom(sql) : wrapStatement(target.prepare(sql), sql))
      if (prop === 'batch' && fails.batch)
        return async (stmts: D1PreparedStatement[]) =>
          boom((stmts[0] as unknown as { sql?: string })?.sql ?? 'INSERT')
      if (prop === 'exec' && fails.exec) return async () => boom('INSERT')
      const v = Reflect.get(target, prop, target)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return db
}

/** env.DB that fails: every prepare, only batch(), or every write statement. */
function failingDb(mode: FailMode): D1Database {
  return dbFailing(
    {
      prepare: mode === 'prepare',
      statement: mode === 'writes' ? isWrite : undefined,
      batch: mode !== 'prepare',
      exec: mode === 'prepare',
    },
    () => 'D1_ERROR: SQLITE_BUSY: database is locked (simulated)',
  )
}

const address = testAddress('resilience@example.com')
const scarfOrder = (id: string) => orderBody(id, [{ sku: product.sku, qty: 2, price: 1 }], address)

async function dbState() {
  const [orders, lines, stock, carts, items, customers] = await Promise.all(
    [
      'SELECT COUNT(*) AS n FROM orders',
      'SELECT COUNT(*) AS n FROM order_items',
      'SELECT SUM(qty) AS n FROM inventory',
      'SELECT COUNT(*) AS n FROM carts',
      'SELECT COUNT(*) AS n FROM cart_items',
      'SELECT COUNT(*) AS n FROM customers',
    ].map((sql) => env.DB.prepare(sql).first<{ n: number }>()),
  )
  return [orders, lines, stock, carts, items, customers].map((r) => r?.n ?? 0)
}

describe('D1 errors', () => {
  for (const mode of ['prepare', 'batch', 'writes'] as const) {
    it(`${mode} failing: /api answers an envelope, pages degrade, nothing is written half-way`, async () => {
      quiet()
      const before = await dbState()
      const DB = failingDb(mode)
      const guestCart = (
        (await (await app.request('/api/cart/create', { method: 'POST' }, { ...env }, ctx)).json()) as {
          result: string
        }
      ).result
      const writes: [string, RequestInit][] = [
        [
          '/api/order',
          { method: 'POST', body: JSON.stringify(scarfOrder(`resilience-${mode}-${Date.now()}`)) },
        ],
        ['/api/cart/create', { method: 'POST' }],
        [
          `/api/cart/update?cartId=${guestCart}`,
          {
            method: 'POST',
            body: JSON.stringify({ cartItem: { sku: product.sku, qty: 1, quoteId: guestCart } }),
          },
        ],
        [
          '/api/user/create',
          {
            method: 'POST',
            body: JSON.stringify({
              customer: { email: `r-${mode}-${Date.now()}@example.com`, firstname: 'R', lastname: 'S' },
              password: 'Secret123',
            }),
          },
        ],
        [
          '/api/state/send-state',
          { method: 'POST', body: JSON.stringify({ id: guestCart, state: { a: 1 } }) },
        ],
      ]
      const afterCart = await dbState()
      // Lines added by a cart update that answered 200 (it reads and writes without a batch).
      let added = 0
      for (const [path, init] of writes) {
        const { res, text } = await call(
          path,
          { DB },
          { ...init, headers: { 'content-type': 'application/json' } },
        )
        if (mode === 'batch' && res.status === 200) {
          // Endpoints that do not batch still work, and write whole.
          if (path.startsWith('/api/cart/update')) added++
          continue
        }
        // A busy database is transient: 503 with Retry-After and a message that says so.
        const json = expectEnvelope(res, text, [503], `${mode} ${path}`)
        expect(res.headers.get('retry-after'), path).toBe('2')
        expect(json.result).toBe('The shop is briefly unavailable. Please try again in a moment.')
      }
      for (const path of [
        '/api/stores/all',
        '/api/stock/check?sku=X',
        '/api/catalog/vue_storefront_catalog/product/_search',
      ]) {
        const { res, text } = await call(path, { DB })
        if (mode !== 'prepare') continue // reads still work when only writes fail
        expectEnvelope(res, text, [503], `${mode} ${path}`)
        expect(res.headers.get('retry-after'), path).toBe('2')
      }
      for (const path of PAGES()) {
        const { res, text } = await call(path, { DB })
        expectDegradedPage(res, text, `${mode} ${path}`)
        if (res.status >= 500) {
          expect(res.status, path).toBe(503)
          expect(res.headers.get('retry-after'), path).toBe('2')
          expect(text, path).toContain('The shop is briefly unavailable. Please try again in a moment.')
        }
      }
      // Only the guest cart created with the healthy DB above was written.
      expect(afterCart[3]).toBe((before[3] ?? 0) + 1)
      const after = await dbState()
      if (mode === 'batch') {
        // Writes without a batch (cart/create, cart/update, user/create) still work; the batched
        // ones (order, stock) left nothing behind.
        expect([after[0], after[1], after[2], after[4]]).toEqual([
          afterCart[0],
          afterCart[1],
          afterCart[2],
          (afterCart[4] ?? 0) + added,
        ])
      } else expect(after).toEqual(afterCart)
    })
  }
})

/**
 * env.DB as a locked local database answers (measured against `wrangler dev` with the SQLite file
 * held by another process): a statement that reads fails when D1 asks for the session's commit
 * token, one that writes fails on the lock.
 */
function lockedDb(): D1Database {
  return dbFailing({ statement: () => true, batch: true, exec: true }, (sql) =>
    isWrite(sql)
      ? 'D1_ERROR: database is locked: SQLITE_BUSY'
      : 'D1_ERROR: Failed to get session commit token: internal error; reference = 0f3kq9x2mz7b',
  )
}

describe('a locked database (reads fail on the session commit token, writes on the lock)', () => {
  it('every route answers 503 + Retry-After (or a degraded page), never a 500', async () => {
    quiet()
    const guestCart = (
      (await (await app.request('/api/cart/create', { method: 'POST' }, { ...env }, ctx)).json()) as {
        result: string
      }
    ).result
    const DB = lockedDb()
    const json = { 'content-type': 'application/json' }
    const routes: [string, RequestInit][] = [
      [
        '/api/order',
        { method: 'POST', headers: json, body: JSON.stringify(scarfOrder(`locked-${Date.now()}`)) },
      ],
      [
        `/api/cart/update?cartId=${guestCart}`,
        {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ cartItem: { sku: product.sku, qty: 1, quoteId: guestCart } }),
        },
      ],
      [`/api/cart/pull?cartId=${guestCart}`, {}],
      ['/api/cart/create', { method: 'POST' }],
      [`/api/stock/check?sku=${encodeURIComponent(product.sku)}`, {}],
      ['/api/catalog/vue_storefront_catalog/product/_search?size=4', {}],
      [
        '/api/user/login',
        { method: 'POST', headers: json, body: JSON.stringify({ username: 'a@b.test', password: 'x' }) },
      ],
    ]
    for (const [path, init] of routes) {
      const { res, text } = await call(path, { DB }, init)
      const body = expectEnvelope(res, text, [503], path)
      expect(res.headers.get('retry-after'), path).toBe('2')
      expect(body.result).toBe('The shop is briefly unavailable. Please try again in a moment.')
    }
    for (const path of PAGES()) {
      const { res, text } = await call(path, { DB })
      expectDegradedPage(res, text, path)
      expect(res.status, path).not.toBe(500)
      if (res.status >= 500) {
        expect(res.status, path).toBe(503)
        expect(res.headers.get('retry-after'), path).toBe('2')
        expect(text, path).toContain('The shop is briefly unavailable. Please try again in a moment.')
      }
    }
  })
})

describe('KV misses and errors', () => {
  it('an empty or failing URL_MAPPINGS falls back to the catalogue (dispatcher steps 2 and 3)', async () => {
    quiet()
    const empty = new Proxy(env.URL_MAPPINGS, {
      get(target, prop) {
        if (prop === 'get') return async () => null
        const v = Reflect.get(target, prop, target)
        return typeof v === 'function' ? v.bind(target) : v
      },
    })
    const failing = new Proxy(env.URL_MAPPINGS, {
      get(target, prop) {
        if (prop === 'get' || prop === 'list' || prop === 'getWithMetadata')
          return async () => {
            throw new Error('KV GET failed: 503 (simulated)')
          }
        const v = Reflect.get(target, prop, target)
        return typeof v === 'function' ? v.bind(target) : v
      },
    })
    for (const kv of [empty, failing]) {
      // A product's url_path still resolves via the product search.
      const hit = await call(`/${product.url_path}`, { URL_MAPPINGS: kv })
      expect(hit.res.status).toBe(200)
      expect(hit.text).toContain(product.sku)
      // An unknown URL still ends on /page-not-found.
      const miss = await app.request(
        '/no/such/thing',
        { headers: BROWSER },
        { ...env, URL_MAPPINGS: kv },
        ctx,
      )
      expect(miss.status).toBe(302)
      expect(miss.headers.get('location')).toBe('/page-not-found')
      for (const path of PAGES()) {
        const { res, text } = await call(path, { URL_MAPPINGS: kv })
        expectDegradedPage(res, text, path)
        expect(res.status, path).toBeLessThan(500)
      }
    }
  })
})
