// Access control: every user-scoped endpoint tried with another customer's ids and with tampered,
// expired, unsigned, foreign-key and revoked tokens (401/403, never data); the login slow-down and
// the limits on login and password reset (429); /invalidate refuses without the key.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { fromBase64Url, toBase64Url } from '../../../../worker/api/auth/crypto'
import { LOGIN_LIMIT_PER_IP, RESET_LIMIT_PER_ACCOUNT } from '../../../../worker/api/auth/rate-limit'
import { signJws } from '../../../../worker/api/auth/tokens'
import { grantStoreCredit } from '../../../../worker/api/giftcard/routes'
import { stockedDemoProduct } from '../../../helpers/cart-fixtures'
import { bookAddress, orderBody } from '../../../helpers/orders'
import { type ApiAnswer, api, freshIp, type Json, registerAndLogin } from '../../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})
vi.spyOn(console, 'warn').mockImplementation(() => {})

type User = Awaited<ReturnType<typeof registerAndLogin>>
let alice: User
let bob: User
let product: { id: number; sku: string }
let aliceCart: string
let aliceOrder: { orderNumber: string; order_id: string }
let aliceAddressId: number

/** Alice's address: its street must never show in an answer to anyone else. */
const address = bookAddress({ firstname: 'Alice', lastname: 'Owner', street: ['1 Private Lane', ''] })

beforeAll(async () => {
  alice = await registerAndLogin('alice')
  bob = await registerAndLogin('bob', 'BobSecret456')
  product = await stockedDemoProduct()
  const me = await api('/user/me', {
    bearer: alice.token,
    body: { customer: { email: alice.email, firstname: 'Alice', lastname: 'Owner', addresses: [address] } },
  })
  aliceAddressId = me.json.result.addresses[0].id
  aliceCart = (await api('/cart/create', { method: 'POST', bearer: alice.token })).json.result
  await api(`/cart/update?cartId=${aliceCart}`, {
    bearer: alice.token,
    body: { cartItem: { sku: product.sku, qty: 1, quoteId: aliceCart } },
  })
  await api('/wishlist/add-wishlist', { bearer: alice.token, body: { item_id: product.id } })
  await grantStoreCredit(env.DB, alice.id, 100, 'test grant', Date.now())
  const order_id = `sec-auth-${Date.now()}`
  const placed = await api('/order', {
    bearer: alice.token,
    body: {
      order_id,
      user_id: String(alice.id),
      cart_id: '',
      products: [{ sku: product.sku, qty: 1, price: 1 }],
      addressInformation: {
        shippingAddress: { ...address, email: alice.email },
        billingAddress: { ...address, email: alice.email },
        shipping_method_code: 'flatrate',
        shipping_carrier_code: 'flatrate',
        payment_method_code: 'cashondelivery',
      },
    },
  })
  expect(placed.status, JSON.stringify(placed.json)).toBe(200)
  aliceOrder = { orderNumber: placed.json.result.orderNumber, order_id }
})

/** The user-scoped calls; `as` is whose token is used, ids always name alice's data. */
function calls(): { name: string; run: (bearer?: string) => Promise<ApiAnswer> }[] {
  return [
    { name: 'GET /user/me', run: (b) => api('/user/me', { bearer: b }) },
    {
      name: 'POST /user/me',
      run: (b) =>
        api('/user/me', {
          bearer: b,
          body: { customer: { id: alice.id, email: alice.email, firstname: 'X', lastname: 'Y' } },
        }),
    },
    {
      name: 'POST /user/me (alice address id)',
      run: (b) =>
        api('/user/me', {
          bearer: b,
          body: {
            customer: {
              email: bob.email,
              firstname: 'Bob',
              lastname: 'B',
              addresses: [{ ...address, id: aliceAddressId }],
            },
          },
        }),
    },
    { name: 'GET /user/order-history', run: (b) => api('/user/order-history', { bearer: b }) },
    {
      name: 'POST /user/change-password',
      run: (b) =>
        api('/user/change-password', {
          bearer: b,
          body: { currentPassword: alice.password, newPassword: 'Hijacked123!' },
        }),
    },
    {
      name: 'GET /giftcard/store-credit-transaction',
      run: (b) => api('/giftcard/store-credit-transaction', { bearer: b }),
    },
    {
      name: 'POST /giftcard/store-credit-spending',
      run: (b) => api('/giftcard/store-credit-spending', { bearer: b, body: { amount: 50 } }),
    },
    {
      name: 'POST /wishlist/show-wishlist-history',
      run: (b) => api('/wishlist/show-wishlist-history', { bearer: b, body: { user_id: alice.id } }),
    },
    {
      name: 'POST /wishlist/remove-wishlist',
      run: (b) =>
        api('/wishlist/remove-wishlist', { bearer: b, body: { user_id: alice.id, item_id: product.id } }),
    },
    { name: 'GET /cart/pull', run: (b) => api(`/cart/pull?cartId=${aliceCart}`, { bearer: b }) },
    { name: 'GET /cart/totals', run: (b) => api(`/cart/totals?cartId=${aliceCart}`, { bearer: b }) },
    {
      name: 'POST /cart/update',
      run: (b) =>
        api(`/cart/update?cartId=${aliceCart}`, {
          bearer: b,
          body: { cartItem: { sku: product.sku, qty: 3, quoteId: aliceCart } },
        }),
    },
    {
      name: 'POST /cart/delete',
      run: (b) =>
        api(`/cart/delete?cartId=${aliceCart}`, { bearer: b, body: { cartItem: { sku: product.sku } } }),
    },
    {
      name: 'POST /cart/apply-coupon',
      run: (b) =>
        api(`/cart/apply-coupon?cartId=${aliceCart}&coupon=WELCOME10`, { bearer: b, method: 'POST' }),
    },
    { name: 'GET /cart/coupon', run: (b) => api(`/cart/coupon?cartId=${aliceCart}`, { bearer: b }) },
    {
      name: 'POST /cart/shipping-information',
      run: (b) =>
        api(`/cart/shipping-information?cartId=${aliceCart}`, {
          bearer: b,
          body: { addressInformation: { shippingAddress: address, billingAddress: address } },
        }),
    },
    {
      name: 'GET /order/get (alice order)',
      run: (b) => api(`/order/get?orderId=${aliceOrder.orderNumber}`, { bearer: b }),
    },
    {
      name: 'GET /order/get (client order id)',
      run: (b) => api(`/order/get?orderId=${encodeURIComponent(aliceOrder.order_id)}`, { bearer: b }),
    },
    {
      name: 'POST /order (replay alice order_id)',
      run: (b) =>
        api('/order', {
          bearer: b,
          body: orderBody(aliceOrder.order_id, [{ sku: product.sku, qty: 1, price: 1 }], {
            ...address,
            email: 'x@example.com',
          }),
        }),
    },
  ]
}

/** No answer to an intruder may carry alice's data. */
function expectNoAliceData(res: ApiAnswer, name: string) {
  const text = JSON.stringify(res.json)
  expect(text, name).not.toContain(alice.email)
  expect(text, name).not.toContain('1 Private Lane')
  expect(text, name).not.toContain(`"${aliceOrder.orderNumber}"`)
  expect(text, name).not.toContain(aliceOrder.order_id)
}

async function aliceState() {
  const [pwd, credit, items, wish] = await Promise.all([
    env.DB.prepare('SELECT password_hash, firstname FROM customers WHERE id = ?')
      .bind(alice.id)
      .first<Json>(),
    env.DB.prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
      .bind(alice.id)
      .first<Json>(),
    env.DB.prepare(
      'SELECT sku, qty FROM cart_items ci JOIN carts c ON c.id = ci.cart_id WHERE c.customer_id = ?',
    )
      .bind(alice.id)
      .all(),
    env.DB.prepare('SELECT product_id FROM wishlist_items WHERE customer_id = ?').bind(alice.id).all(),
  ])
  return JSON.stringify([pwd, credit, items.results, wish.results])
}

describe("another customer's ids", () => {
  it('every user-scoped endpoint answers 403/401/404 to bob and changes nothing of alice', async () => {
    const before = await aliceState()
    for (const call of calls()) {
      const res = await call.run(bob.token)
      if (
        call.name === 'GET /user/me' ||
        call.name === 'GET /user/order-history' ||
        call.name === 'GET /giftcard/store-credit-transaction'
      ) {
        // Token-scoped reads: bob gets bob's own data.
        expect(res.status, call.name).toBe(200)
      } else if (call.name === 'POST /user/change-password') {
        // Bob's own password is checked, and it is not alice's.
        expect(res.status, call.name).toBe(400)
      } else if (call.name === 'POST /giftcard/store-credit-spending') {
        expect(res.status, call.name).toBe(400)
      } else if (call.name === 'POST /order (replay alice order_id)') {
        // Someone else's order id: "already used", with no order data.
        expect(res.status, call.name).toBe(409)
      } else {
        expect([401, 403, 404], `${call.name}: ${res.status} ${JSON.stringify(res.json)}`).toContain(
          res.status,
        )
      }
      expect(res.json.code, call.name).toBe(res.status)
      expectNoAliceData(res, call.name)
    }
    expect(await aliceState()).toBe(before)
  })

  it('a guest (no token) gets 401 on customer data and cannot name a customer cart', async () => {
    for (const call of calls()) {
      const res = await call.run(undefined)
      expect(res.status, `${call.name}: ${JSON.stringify(res.json)}`).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
      expectNoAliceData(res, call.name)
    }
  })

  it('cannot read a guest cart or a guest order without its secret', async () => {
    const guestCart = (await api('/cart/create', { method: 'POST' })).json.result as string
    expect(guestCart).toMatch(/^[0-9a-f]{32}$/)
    const guess = `${guestCart.slice(0, 31)}${guestCart.endsWith('0') ? '1' : '0'}`
    expect((await api(`/cart/pull?cartId=${guess}`)).status).toBe(404)
    expect((await api(`/cart/pull?cartId=${guestCart}`)).status).toBe(200)
    const wrongKey = await api(`/order/get?orderId=${aliceOrder.orderNumber}&accessKey=${'A'.repeat(43)}`)
    expect(wrongKey.status).toBe(401)
    expectNoAliceData(wrongKey, 'order/get with wrong key')
  })
})

function tamper(token: string, edit: (claims: Json) => Json): string {
  const [h, p, s] = token.split('.') as [string, string, string]
  const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(p)))
  return `${h}.${toBase64Url(new TextEncoder().encode(JSON.stringify(edit(claims))))}.${s}`
}

describe('bad tokens', () => {
  const now = () => Math.floor(Date.now() / 1000)
  const forged = async () => ({
    'payload edited to bob→alice (old signature)': tamper(bob.token, (c) => ({
      ...c,
      sub: String(alice.id),
    })),
    'signature stripped': `${alice.token.split('.').slice(0, 2).join('.')}.`,
    'alg none': `${toBase64Url(new TextEncoder().encode('{"alg":"none","typ":"JWT"}'))}.${alice.token.split('.')[1]}.`,
    'signed with another key': await signJws('not-the-secret', {
      sub: String(alice.id),
      ver: 0,
      typ: 'access',
      iat: now(),
      exp: now() + 600,
    }),
    expired: await signJws(env.TOKEN_SECRET as string, {
      sub: String(alice.id),
      ver: 0,
      // Alice's own sign-in family: only the expiry is wrong.
      fam: JSON.parse(atob((alice.token.split('.')[1] as string).replace(/-/g, '+').replace(/_/g, '/'))).fam,
      typ: 'access',
      iat: now() - 3600,
      exp: now() - 60,
    }),
    'group token used as access token': await signJws(env.TOKEN_SECRET as string, {
      typ: 'group',
      group_id: 1,
      id: alice.id,
      sub: String(alice.id),
      exp: now() + 600,
    }),
    'refresh token used as access token': alice.refreshToken,
    garbage: 'x'.repeat(5000),
    'non-base64': '%%%.%%%.%%%',
    'empty segments': '..',
  })

  it('tampered, expired, unsigned and foreign tokens get 401 on every user-scoped endpoint', async () => {
    const before = await aliceState()
    for (const [label, token] of Object.entries(await forged())) {
      for (const call of calls()) {
        const res = await call.run(token)
        expect(res.status, `${label} → ${call.name}: ${JSON.stringify(res.json)}`).toBe(401)
        expectNoAliceData(res, `${label} → ${call.name}`)
      }
      // ?token= works the same as the header.
      const q = await api(`/user/me?token=${encodeURIComponent(token)}`)
      expect(q.status, label).toBe(401)
    }
    expect(await aliceState()).toBe(before)
  })

  it('a password change kills older access tokens; a reused refresh token revokes the family', async () => {
    const carol = await registerAndLogin('carol')
    const changed = await api('/user/change-password', {
      bearer: carol.token,
      body: { currentPassword: carol.password, newPassword: 'N3w-Secret-99' },
    })
    expect(changed.status).toBe(200)
    expect((await api('/user/me', { bearer: carol.token })).status).toBe(401)
    expect((await api('/user/refresh', { body: { refreshToken: carol.refreshToken } })).status).toBe(401)

    const dave = await registerAndLogin('dave')
    const first = await api('/user/refresh', { body: { refreshToken: dave.refreshToken } })
    expect(first.status).toBe(200)
    const reuse = await api('/user/refresh', { body: { refreshToken: dave.refreshToken } })
    expect(reuse.status).toBe(401)
    // The rotated successor is revoked too (theft detection).
    const successor = await api('/user/refresh', { body: { refreshToken: first.json.meta.refreshToken } })
    expect(successor.status).toBe(401)
  })
})

describe('rate limits', () => {
  it('login: guesses inside the slow-down spacing are refused unchecked, even with the right password', async () => {
    const erin = await registerAndLogin('erin')
    const first = await api('/user/login', {
      ip: freshIp(),
      body: { username: erin.email, password: 'wrong1' },
    })
    expect(first.status).toBe(401)
    // From new addresses, at once: refused (429 + Retry-After), not counted, no token.
    for (const password of ['wrong2', 'wrong3', erin.password]) {
      const res = await api('/user/login', { ip: freshIp(), body: { username: erin.email, password } })
      expect(res.status, password).toBe(429)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(res.json.result).toMatch(/wait \d+ seconds?/)
      expect(JSON.stringify(res.json)).not.toMatch(/eyJ/)
    }
    const row = await env.DB.prepare('SELECT failures FROM auth_throttle WHERE key = ?')
      .bind(`login:acct:${erin.email.toLowerCase()}`)
      .first<{ failures: number }>()
    expect(row?.failures).toBe(1)
  })

  it(`login: one IP is limited to ${LOGIN_LIMIT_PER_IP} attempts across accounts`, async () => {
    const ip = freshIp()
    const codes: number[] = []
    for (let i = 0; i < LOGIN_LIMIT_PER_IP + 1; i++) {
      codes.push(
        (await api('/user/login', { ip, body: { username: `nobody${i}@example.com`, password: 'x' } }))
          .status,
      )
    }
    expect(codes.slice(0, LOGIN_LIMIT_PER_IP).every((s) => s === 401)).toBe(true)
    expect(codes[LOGIN_LIMIT_PER_IP]).toBe(429)
  }, 60_000)

  it(`reset-password: the ${RESET_LIMIT_PER_ACCOUNT + 1}th request for one account is 429`, async () => {
    const frank = await registerAndLogin('frank')
    const codes: number[] = []
    for (let i = 0; i < RESET_LIMIT_PER_ACCOUNT + 1; i++) {
      codes.push((await api('/user/reset-password', { ip: freshIp(), body: { email: frank.email } })).status)
    }
    expect(codes.slice(0, RESET_LIMIT_PER_ACCOUNT)).toEqual(Array(RESET_LIMIT_PER_ACCOUNT).fill(200))
    expect(codes[RESET_LIMIT_PER_ACCOUNT]).toBe(429)
  })
})

describe('/invalidate', () => {
  it('refuses without the key or with a wrong one, and works with it', async () => {
    for (const qs of [
      '?tag=category',
      '?tag=category&key=',
      '?tag=category&key=wrong',
      `?tag=category&key=${env.INVALIDATE_KEY}x`,
    ]) {
      const res = await SELF.fetch(`https://shop.test/invalidate${qs}`)
      expect(res.status, qs).toBe(401)
      expect(await res.json()).toMatchObject({ code: 401 })
    }
    const post = await SELF.fetch('https://shop.test/invalidate?tag=category', {
      method: 'POST',
      headers: { 'x-invalidate-key': env.INVALIDATE_KEY as string },
    })
    expect(post.status).not.toBe(200)
    await post.arrayBuffer()
    const ok = await SELF.fetch('https://shop.test/invalidate?tag=category', {
      headers: { 'x-invalidate-key': env.INVALIDATE_KEY as string },
    })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ code: 200 })
  })
})
