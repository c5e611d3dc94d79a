// No secret ever leaves the worker: TOKEN_SECRET, INVALIDATE_KEY, password hashes and salts and
// every stored token hash are looked for in every page of the route tables, in /api answers
// (successes and errors, with and without a token) and in error messages of failing dependencies.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ROUTES } from '../../../shared/config/routes'
import app from '../../../worker/app'
import { stockedDemoProduct } from '../../helpers/cart-fixtures'
import { orderBody, testAddress } from '../../helpers/orders'
import { api, freshIp, registerAndLogin } from '../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})
vi.spyOn(console, 'warn').mockImplementation(() => {})

type User = Awaited<ReturnType<typeof registerAndLogin>>
let user: User
let product: { id: number; sku: string; slug: string }

async function secrets(): Promise<{ label: string; value: string }[]> {
  const out = [
    { label: 'TOKEN_SECRET', value: env.TOKEN_SECRET as string },
    { label: 'INVALIDATE_KEY', value: env.INVALIDATE_KEY as string },
  ]
  const { results: customers } = await env.DB.prepare(
    'SELECT id, password_hash, reset_token_hash FROM customers',
  ).all<{ id: number; password_hash: string | null; reset_token_hash: string | null }>()
  for (const c of customers) {
    if (c.password_hash) {
      const [, , salt, hash] = c.password_hash.split('$')
      out.push({ label: `customer ${c.id} password hash`, value: c.password_hash })
      if (salt) out.push({ label: `customer ${c.id} salt`, value: salt })
      if (hash) out.push({ label: `customer ${c.id} hash`, value: hash })
    }
    if (c.reset_token_hash) out.push({ label: `customer ${c.id} reset hash`, value: c.reset_token_hash })
  }
  for (const [table, column] of [
    ['refresh_tokens', 'token_hash'],
    ['orders', 'access_key_hash'],
    ['mail_tokens', 'token_hash'],
  ] as const) {
    const { results } = await env.DB.prepare(`SELECT ${column} AS v FROM ${table}`).all<{ v: string }>()
    for (const r of results) out.push({ label: `${table}.${column}`, value: r.v })
  }
  return out
}

function expectNoSecret(text: string, where: string, list: { label: string; value: string }[]) {
  for (const { label, value } of list) {
    if (text.includes(value)) expect.fail(`${label} leaked in ${where}`)
  }
}

beforeAll(async () => {
  user = await registerAndLogin('secret')
  product = await stockedDemoProduct()
  await api('/user/reset-password', { ip: freshIp(), body: { email: user.email } })
  await api('/ext/mail-service/get-token', { ip: freshIp() })
  const address = testAddress(user.email)
  await api('/order', {
    bearer: user.token,
    body: orderBody(`secret-${Date.now()}`, [{ sku: product.sku, qty: 1, price: 1 }], address),
  })
})

describe('no secret in HTML', () => {
  it('every page of the route tables, plus real product/category/search pages', async () => {
    const list = await secrets()
    expect(list.length).toBeGreaterThan(6)
    const paths = [
      ...ROUTES.map((r) => r.example),
      `/p/${encodeURIComponent(product.sku)}/${product.slug}`,
      `/amp/p/${encodeURIComponent(product.sku)}/${product.slug}`,
      '/search?q=saree',
      '/definitely/not/here',
    ]
    for (const path of paths) {
      const res = await SELF.fetch(`https://shop.test${path}`, {
        headers: { authorization: `Bearer ${user.token}`, cookie: `token=${user.token}` },
      })
      expectNoSecret(await res.text(), path, list)
      expectNoSecret([...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'), `${path} headers`, list)
    }
  })
})

describe('no secret in /api answers', () => {
  it('successes and errors, with and without a token', async () => {
    const list = await secrets()
    const calls: [string, { method?: string; body?: unknown; bearer?: string; rawBody?: string }][] = [
      ['/user/me', { bearer: user.token }],
      ['/user/me', {}],
      ['/user/order-history', { bearer: user.token }],
      ['/user/login', { body: { username: user.email, password: user.password } }],
      ['/user/login', { body: { username: user.email, password: 'wrong' } }],
      ['/user/refresh', { body: { refreshToken: 'nope' } }],
      [
        '/user/create',
        { body: { customer: { email: user.email, firstname: 'a', lastname: 'b' }, password: 'Secret123' } },
      ],
      ['/user/create-password', { body: { email: user.email, newPassword: 'Secret456', resetToken: 'x' } }],
      ['/user/reset-password', { body: { email: user.email } }],
      ['/giftcard/store-credit-transaction', { bearer: user.token }],
      ['/order/get?orderId=1', { bearer: user.token }],
      ['/order', { rawBody: '{"order_id": 1' }],
      ['/cart/create', { method: 'POST', bearer: user.token }],
      ['/ext/mail-service/send-email', { body: { token: 'x' } }],
      ['/catalog/vue_storefront_catalog/product/_search', { rawBody: '{"query": {"bogus": 1}}' }],
      ['/url/map', { body: { url: 'women' } }],
      ['/nope', {}],
    ]
    for (const [path, init] of calls) {
      const res = await api(path, { ...init, ip: freshIp() })
      expectNoSecret(JSON.stringify(res.json), `/api${path}`, list)
      expect(res.status, path).toBeLessThan(500)
    }
  })
})

describe('no secret in error messages', () => {
  it('a failing D1 whose error text holds secrets answers generically (page and /api)', async () => {
    const poison = `SQLITE_ERROR near "${env.TOKEN_SECRET}" key=${env.INVALIDATE_KEY}`
    const db = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'prepare' || prop === 'batch' || prop === 'exec')
          return () => {
            throw new Error(poison)
          }
        return Reflect.get(target, prop, target)
      },
    })
    const ctx = {
      waitUntil: () => {},
      passThroughOnException: () => {},
      props: {},
    } as unknown as ExecutionContext
    const list = [
      { label: 'TOKEN_SECRET', value: env.TOKEN_SECRET as string },
      { label: 'INVALIDATE_KEY', value: env.INVALIDATE_KEY as string },
      { label: 'SQL error', value: 'SQLITE_ERROR' },
    ]
    for (const path of [
      '/api/stores/all',
      '/api/user/me',
      '/api/cart/create',
      '/',
      '/c/women',
      '/i/about-us',
      '/cart',
    ]) {
      const res = await app.request(
        path,
        {
          method: path === '/api/cart/create' ? 'POST' : 'GET',
          headers: { authorization: `Bearer ${user.token}` },
        },
        { ...env, DB: db, OUTPUT_CACHE_ENABLED: 'false' },
        ctx,
      )
      const text = await res.text()
      expectNoSecret(text, path, list)
      expect(text).not.toMatch(/at .*\.(ts|js):\d+/)
    }
  })
})
