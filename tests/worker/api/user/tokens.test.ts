// Access tokens as an attacker shapes them: every variant of a genuine token that is not the exact
// string we issued (re-encoded signature, padding, trailing bits, alg none/HS512, wrong key, expired,
// other token kinds) is a 401; the header and the query carry the token alike, and two different
// tokens at once are a 400; towards an upstream the proxy turns the header into ?token=.
import { env } from 'cloudflare:test'
import { Hono } from 'hono'
import { beforeAll, describe, expect, it } from 'vitest'
import { fromBase64Url, toBase64Url } from '../../../../worker/api/auth/crypto'
import {
  issueAccessToken,
  issueDeviceToken,
  signJws,
  verifyDeviceToken,
  verifyJws,
} from '../../../../worker/api/auth/tokens'
import { issueOrderLinkToken, verifyOrderLinkToken } from '../../../../worker/api/order/link'
import { proxyToUpstream } from '../../../../worker/api/proxy'
import type { AppConfig, AppEnv } from '../../../../worker/platform/env'
import { api, registerAndLogin } from '../../../helpers/user'

const SECRET = env.TOKEN_SECRET as string
const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const enc = (v: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(v)))

type User = Awaited<ReturnType<typeof registerAndLogin>>
let user: User

beforeAll(async () => {
  user = await registerAndLogin('tokens')
})

/** The same signature bytes written differently: the last character's unused low bits set. */
function withTrailingBits(token: string): string[] {
  const [h, p, s] = token.split('.') as [string, string, string]
  const last = B64URL.indexOf(s.at(-1) as string)
  // 32 bytes = 43 characters; the last one carries 4 bits, its 2 low bits are unused.
  return [1, 2, 3].map((bits) => `${h}.${p}.${s.slice(0, -1)}${B64URL[last | bits]}`)
}

async function hs512(claims: Record<string, unknown>): Promise<string> {
  const head = `${enc({ alg: 'HS512', typ: 'JWT' })}.${enc(claims)}`
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(SECRET),
    { name: 'HMAC', hash: 'SHA-512' },
    false,
    ['sign'],
  )
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(head)))
  return `${head}.${toBase64Url(sig)}`
}

describe('access token verification', () => {
  it('the issued token works through the header and the query', async () => {
    expect((await api('/user/me', { bearer: user.token })).status).toBe(200)
    expect((await api(`/user/me?token=${user.token}`)).status).toBe(200)
  })

  it('a re-encoded signature (same bytes: padding, trailing bits, standard base64) is refused', async () => {
    const [h, p, s] = user.token.split('.') as [string, string, string]
    // Sanity: each variant decodes to the very same signature bytes.
    for (const variant of withTrailingBits(user.token)) {
      expect(fromBase64Url(variant.split('.')[2] as string)).toEqual(fromBase64Url(s))
    }
    const variants = [
      `${h}.${p}.${s}=`,
      `${h}.${p}.${s}==`,
      ...withTrailingBits(user.token),
      `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}`,
      `${h}=.${p}.${s}`,
    ].filter((t) => t !== user.token)
    expect(variants.length).toBeGreaterThanOrEqual(6)
    for (const token of variants) {
      const viaHeader = await api('/user/me', { bearer: token })
      const viaQuery = await api(`/user/me?token=${encodeURIComponent(token)}`)
      expect(viaHeader.status, token).toBe(401)
      expect(viaQuery.status, token).toBe(401)
      expect(JSON.stringify(viaHeader.json)).not.toContain(user.email)
    }
  })

  it('tampered claims, alg none, HS512, a wrong key, expiry and other token kinds are refused', async () => {
    const now = Math.floor(Date.now() / 1000)
    const [h, p, s] = user.token.split('.') as [string, string, string]
    const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(p)))
    // Everything of a genuine token but the one thing each case changes (its sign-in family included).
    const claims = { sub: String(user.id), ver: 0, fam: payload.fam, typ: 'access', iat: now, exp: now + 600 }
    const cases: Record<string, string> = {
      'claims edited, old signature': `${h}.${enc({ ...payload, sub: String(user.id + 1) })}.${s}`,
      'exp extended, old signature': `${h}.${enc({ ...payload, exp: payload.exp + 3600 })}.${s}`,
      'alg none, no signature': `${enc({ alg: 'none', typ: 'JWT' })}.${enc(claims)}.`,
      'alg none, old signature': `${enc({ alg: 'none', typ: 'JWT' })}.${p}.${s}`,
      'HS512 with the right key': await hs512(claims),
      'wrong key': await signJws('another-secret-of-the-same-length-0123456789abcdef', claims),
      expired: await issueAccessToken(SECRET, user.id, 0, payload.fam, Date.now() - 16 * 60 * 1000),
      'no expiry': await signJws(SECRET, {
        sub: String(user.id),
        ver: 0,
        fam: payload.fam,
        typ: 'access',
        iat: now,
      }),
      // Signed with the right key, but beyond what an access token is issued with (15 minutes).
      'expiry in the year 33658': await signJws(SECRET, { ...claims, exp: 1e12 }),
      'expiry a day ahead': await signJws(SECRET, { ...claims, exp: now + 86_400 }),
      // The customer id in another spelling of the same number.
      'sub "<id>.0"': await signJws(SECRET, { ...claims, sub: `${user.id}.0` }),
      'sub "0<id>"': await signJws(SECRET, { ...claims, sub: `0${user.id}` }),
      'sub "+<id>"': await signJws(SECRET, { ...claims, sub: `+${user.id}` }),
      'sub " <id>"': await signJws(SECRET, { ...claims, sub: ` ${user.id}` }),
      'sub as a number': await signJws(SECRET, { ...claims, sub: user.id }),
      'no sign-in family': await signJws(SECRET, {
        sub: String(user.id),
        ver: 0,
        typ: 'access',
        iat: now,
        exp: now + 600,
      }),
      'issued in the future': await signJws(SECRET, { ...claims, iat: now + 3600, exp: now + 7200 }),
      'group token': await signJws(SECRET, { typ: 'group', sub: String(user.id), ver: 0, exp: now + 600 }),
      'device token': user.deviceToken as string,
      'crit header': `${enc({ alg: 'HS256', typ: 'JWT', crit: ['exp'] })}.${p}.${s}`,
      'four parts': `${user.token}.${s}`,
      oversized: `${h}.${enc({ ...claims, pad: 'x'.repeat(3000) })}.${s}`,
    }
    for (const [label, token] of Object.entries(cases)) {
      const res = await api('/user/me', { bearer: token })
      expect(res.status, label).toBe(401)
      expect(res.json.result, label).toContain('authorized')
    }
  })
})

describe('no token outlives its kind', () => {
  it('an expiry further ahead than the kind is issued with (plus a minute of skew) is refused', async () => {
    const nowMs = Date.now()
    const now = Math.floor(nowMs / 1000)
    const kind = { lifetimeSeconds: 900, now: nowMs }
    const token = (exp: number) => signJws(SECRET, { typ: 'x', iat: now, exp })
    expect(await verifyJws(SECRET, await token(now + 900), kind)).not.toBeNull()
    expect(await verifyJws(SECRET, await token(now + 960), kind)).not.toBeNull()
    expect(await verifyJws(SECRET, await token(now + 961), kind)).toBeNull()
    expect(await verifyJws(SECRET, await token(1e12), kind)).toBeNull()
    // A kind issued without expiry accepts a token without one.
    expect(
      await verifyJws(SECRET, await signJws(SECRET, { typ: 'x' }), { lifetimeSeconds: null }),
    ).not.toBeNull()
  })

  it('device and order-link tokens are capped at their own lifetimes (180 and 60 days)', async () => {
    const nowMs = Date.now()
    const now = Math.floor(nowMs / 1000)
    const device = await issueDeviceToken(SECRET, user.id, nowMs)
    expect(await verifyDeviceToken(SECRET, device, user.id, nowMs)).not.toBeNull()
    const deviceClaims = JSON.parse(new TextDecoder().decode(fromBase64Url(device.split('.')[1] as string)))
    const longDevice = await signJws(SECRET, { ...deviceClaims, exp: 1e12 })
    expect(await verifyDeviceToken(SECRET, longDevice, user.id, nowMs)).toBeNull()
    const config = { ENVIRONMENT: 'test' } as AppConfig
    const order = { increment_id: '000000042', client_order_id: 'order-cap-test-1' }
    const link = await issueOrderLinkToken(env, config, order, nowMs)
    expect(await verifyOrderLinkToken(env, config, link, order.increment_id, nowMs)).toBe(
      order.client_order_id,
    )
    const longLink = await signJws(SECRET, {
      typ: 'order-link',
      sub: order.increment_id,
      oid: order.client_order_id,
      exp: now + 61 * 86_400,
    })
    expect(await verifyOrderLinkToken(env, config, longLink, order.increment_id, nowMs)).toBeNull()
  })
})

describe('token transport', () => {
  it('an empty ?token= with a Bearer header is the header; a different token in each is a 400', async () => {
    expect((await api('/user/me?token=', { bearer: user.token })).status).toBe(200)
    expect((await api(`/user/me?token=${user.token}`, { bearer: user.token })).status).toBe(200)
    const other = await registerAndLogin('tokens-other')
    const both = await api(`/user/me?token=${other.token}`, { bearer: user.token })
    expect(both.status).toBe(400)
    expect(both.json.result).toContain('Send the access token once')
    expect(JSON.stringify(both.json)).not.toContain(user.email)
    expect(JSON.stringify(both.json)).not.toContain(other.email)
  })

  it('every customer endpoint takes the Bearer header (cart, order history, store credit, wishlist)', async () => {
    const cart = await api('/cart/create', { method: 'POST', bearer: user.token })
    expect(cart.status).toBe(200)
    for (const path of [
      `/cart/pull?cartId=${cart.json.result}`,
      `/cart/totals?cartId=${cart.json.result}`,
      '/user/order-history',
      '/giftcard/store-credit-transaction',
    ]) {
      const res = await api(path, { bearer: user.token })
      expect(res.status, path).toBe(200)
      expect((await api(path)).status, `${path} without a token`).not.toBe(200)
    }
    const wish = await api('/wishlist/show-wishlist-history', { bearer: user.token, body: {} })
    expect(wish.status).toBe(200)
  })
})

describe('towards a vue-storefront-api upstream', () => {
  it('the proxy hands a Bearer token on as ?token= (the upstream default) and keeps the header', async () => {
    const seen: Request[] = []
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init))
      return new Response('{"code":200,"result":{}}', { headers: { 'content-type': 'application/json' } })
    }) as typeof fetch
    const proxy = new Hono<AppEnv>()
    proxy.use('*', async (c, next) => {
      c.set('requestId', 'req-test')
      await next()
    })
    proxy.all('/api/*', (c) => proxyToUpstream(c, 'https://upstream.test', fetcher))
    await proxy.request('/api/user/me', { headers: { authorization: 'Bearer abc.def.ghi' } })
    await proxy.request('/api/cart/pull?token=&cartId=7', {
      headers: { authorization: 'Bearer abc.def.ghi' },
    })
    await proxy.request('/api/cart/pull?cartId=8')
    expect(seen.map((r) => r.url)).toEqual([
      'https://upstream.test/api/user/me?token=abc.def.ghi',
      'https://upstream.test/api/cart/pull?token=abc.def.ghi&cartId=7',
      'https://upstream.test/api/cart/pull?cartId=8',
    ])
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer abc.def.ghi')
  })
})
