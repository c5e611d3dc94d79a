// Cloudflare Access in front of /admin: only an RS256 assertion signed by the team's published key,
// for this application's audience, issued by the team, inside its validity window, proves an
// operator; everything else is refused, and the local sign-in is off.
import { env } from 'cloudflare:test'
import { sign } from 'hono/jwt'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  AccessKeysUnavailable,
  KEY_REFETCH_INTERVAL_MS,
  verifyAccessAssertion,
} from '../../../worker/admin/access'
import { appFetch } from '../../helpers/in-isolate'
import { rs256KeyPair } from '../../helpers/rs256'

const TEAM = 'ode-test.cloudflareaccess.com'
const AUD = 'a1b2c3d4e5f6-audience-tag'
const settings = { teamDomain: TEAM, audience: AUD }

type Jwk = JsonWebKey & { kid?: string; alg?: string }
let good: { priv: Jwk; pub: Jwk }
let other: { priv: Jwk; pub: Jwk }
let certsFetched = 0

async function keyPair(kid: string) {
  const pair = await rs256KeyPair()
  const priv = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as Jwk
  const pub = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as Jwk
  return {
    priv: { ...priv, kid, alg: 'RS256' },
    pub: { kty: pub.kty, n: pub.n, e: pub.e, kid, alg: 'RS256', use: 'sig' },
  }
}

/** The team's published key set: only `good`'s public key. */
const certs: typeof fetch = async (input) => {
  const url = String(input instanceof Request ? input.url : input)
  if (url !== `https://${TEAM}/cdn-cgi/access/certs`) return new Response('not found', { status: 404 })
  certsFetched++
  return Response.json({ keys: [good.pub], public_cert: { kid: good.pub.kid, cert: '' } })
}

const nowS = () => Math.floor(Date.now() / 1000)
const claims = (over: Record<string, unknown> = {}) => ({
  aud: [AUD],
  email: 'owner@ode.test',
  iss: `https://${TEAM}`,
  sub: 'user-1',
  iat: nowS() - 10,
  nbf: nowS() - 10,
  exp: nowS() + 600,
  type: 'app',
  ...over,
})
const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')

beforeAll(async () => {
  good = await keyPair('k-good')
  other = await keyPair('k-other')
})
afterEach(() => vi.restoreAllMocks())

describe('verifyAccessAssertion', () => {
  const verify = (token: string | undefined) => verifyAccessAssertion(token, settings, { fetchImpl: certs })

  it('accepts the team-signed assertion for this audience and names its e-mail', async () => {
    expect(await verify(await sign(claims(), good.priv))).toBe('owner@ode.test')
  })
  it('refuses an assertion for another application (wrong audience)', async () => {
    expect(await verify(await sign(claims({ aud: ['another-app'] }), good.priv))).toBeNull()
  })
  it('refuses an expired assertion', async () => {
    expect(await verify(await sign(claims({ exp: nowS() - 1 }), good.priv))).toBeNull()
  })
  it('refuses an assertion that is not valid yet', async () => {
    expect(await verify(await sign(claims({ nbf: nowS() + 300 }), good.priv))).toBeNull()
  })
  it('refuses an assertion without an expiry', async () => {
    const { exp: _exp, ...rest } = claims()
    expect(await verify(await sign(rest, good.priv))).toBeNull()
  })
  it('refuses an assertion from another issuer', async () => {
    expect(
      await verify(await sign(claims({ iss: 'https://evil.cloudflareaccess.com' }), good.priv)),
    ).toBeNull()
  })
  it('refuses an assertion signed by a key the team did not publish, even under its key id', async () => {
    expect(await verify(await sign(claims(), { ...other.priv, kid: 'k-good' }))).toBeNull()
    expect(await verify(await sign(claims(), other.priv))).toBeNull()
  })
  it('refuses alg none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT', kid: 'k-good' })}.${b64(claims())}.`
    expect(await verify(token)).toBeNull()
  })
  it('refuses HS256 keyed with the public key (algorithm confusion)', async () => {
    const token = await sign(claims(), JSON.stringify(good.pub), 'HS256')
    const withKid = `${b64({ alg: 'HS256', typ: 'JWT', kid: 'k-good' })}.${token.split('.').slice(1).join('.')}`
    expect(await verify(withKid)).toBeNull()
  })
  it('refuses a forged e-mail on a genuine signature', async () => {
    const [h, , s] = (await sign(claims({ email: 'staff@ode.test' }), good.priv)).split('.')
    expect(await verify(`${h}.${b64(claims({ email: 'owner@ode.test' }))}.${s}`)).toBeNull()
  })
  it('refuses an assertion without an e-mail (a service token) and garbage', async () => {
    const { email: _e, ...rest } = claims()
    expect(await verify(await sign(rest, good.priv))).toBeNull()
    expect(await verify('a.b.c')).toBeNull()
    expect(await verify(undefined)).toBeNull()
    expect(await verify('x'.repeat(20_000))).toBeNull()
  })
})

describe('/admin behind Access', () => {
  const accessEnv = { ...env, ACCESS_TEAM_DOMAIN: TEAM, ACCESS_AUD: AUD } as Env
  async function call(path: string, init: RequestInit = {}) {
    vi.spyOn(globalThis, 'fetch').mockImplementation(certs)
    return appFetch(path, init, accessEnv)
  }

  beforeAll(async () => {
    await env.DB.batch([
      env.DB.prepare(
        "INSERT OR IGNORE INTO operators (email, role, password_hash, created_at) VALUES ('owner@ode.test', 'owner', NULL, '2026-01-01 00:00:00')",
      ),
    ])
  })

  it('lets a listed operator in with a valid assertion, and the keys are fetched once', async () => {
    const before = certsFetched
    const token = await sign(claims(), good.priv)
    for (let i = 0; i < 3; i++) {
      const res = await call('/admin/api/me', { headers: { 'cf-access-jwt-assertion': token } })
      expect(res.status).toBe(200)
      expect((await res.json<{ result: { email: string; role: string } }>()).result).toMatchObject({
        email: 'owner@ode.test',
        role: 'owner',
      })
    }
    expect(certsFetched - before).toBeLessThanOrEqual(1)
  })

  it('refuses a request without an assertion, with a forged one, and an identity that is no operator', async () => {
    expect((await call('/admin/api/me')).status).toBe(403)
    expect((await call('/admin')).status).toBe(403)
    const forged = await sign(claims(), other.priv)
    expect((await call('/admin/api/me', { headers: { 'cf-access-jwt-assertion': forged } })).status).toBe(403)
    const stranger = await sign(claims({ email: 'stranger@ode.test' }), good.priv)
    const res = await call('/admin/api/me', { headers: { 'cf-access-jwt-assertion': stranger } })
    expect(res.status).toBe(403)
    expect((await res.json<{ result: string }>()).result).toMatch(/not an operator/)
  })

  it('turns the local sign-in off', async () => {
    const res = await call('/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@ode.test', password: 'whatever-password' }),
    })
    expect(res.status).toBe(403)
    expect((await res.json<{ result: string }>()).result).toMatch(/Cloudflare Access/)
  })
})

describe('/admin outside development without Access', () => {
  it('refuses every request and the local sign-in, naming the configuration it needs', async () => {
    const productionEnv = { ...env, ENVIRONMENT: 'production', ACCESS_TEAM_DOMAIN: '', ACCESS_AUD: '' } as Env
    for (const [path, init] of [
      ['/admin/api/me', {}],
      [
        '/admin/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://shop.test' },
          body: JSON.stringify({ email: 'owner@ode.test', password: 'whatever-password' }),
        },
      ],
    ] as const) {
      const res = await appFetch(path, init, productionEnv)
      expect(res.status, path).toBe(403)
      expect(await res.text()).toContain('ACCESS_TEAM_DOMAIN and ACCESS_AUD')
    }
  })
})

describe('the team’s key set', () => {
  it('a key id the team never published refetches the key set at most once per interval', async () => {
    const team = 'kid-flood.cloudflareaccess.com'
    let fetched = 0
    const teamCerts: typeof fetch = async () => {
      fetched++
      return Response.json({ keys: [good.pub] })
    }
    const opts = (now: number) => ({ fetchImpl: teamCerts, now })
    const ours = { teamDomain: team, audience: AUD }
    const forged = await sign(claims({ iss: `https://${team}` }), { ...other.priv, kid: 'k-made-up' })
    const start = Date.now()
    for (let i = 0; i < 50; i++)
      expect(await verifyAccessAssertion(forged, ours, opts(start + i * 100))).toBeNull()
    // The first fetch, and none of the 50 unknown-key assertions within the interval fetched again.
    expect(fetched).toBe(1)
    expect(await verifyAccessAssertion(forged, ours, opts(start + KEY_REFETCH_INTERVAL_MS))).toBeNull()
    expect(fetched).toBe(2)
    // A genuine assertion is still accepted from the keys held.
    const genuine = await sign(claims({ iss: `https://${team}` }), good.priv)
    expect(await verifyAccessAssertion(genuine, ours, opts(start + KEY_REFETCH_INTERVAL_MS + 1))).toBe(
      'owner@ode.test',
    )
    expect(fetched).toBe(2)
  })

  it('an unreachable key endpoint answers 503 with Retry-After on every /admin request, and is not asked again at once', async () => {
    const team = 'down.cloudflareaccess.com'
    const downEnv = { ...env, ACCESS_TEAM_DOMAIN: team, ACCESS_AUD: AUD } as Env
    let asked = 0
    vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      asked++
      throw new TypeError('Network connection lost.')
    })
    const token = await sign(claims({ iss: `https://${team}` }), good.priv)
    for (const path of ['/admin/api/me', '/admin', '/admin/orders']) {
      const res = await appFetch(path, { headers: { 'cf-access-jwt-assertion': token } }, downEnv)
      expect(res.status, path).toBe(503)
      expect(Number(res.headers.get('retry-after')), path).toBeGreaterThan(0)
      expect(await res.text(), path).toContain('cannot check your Cloudflare Access sign-in right now')
    }
    expect(asked).toBe(1)
  })

  it('a key endpoint that answers an error, or no key set, is a 503 too', async () => {
    for (const [team, answer] of [
      ['error.cloudflareaccess.com', () => new Response('oops', { status: 500 })],
      ['garbage.cloudflareaccess.com', () => Response.json({ keys: 'none' })],
    ] as const) {
      const ours = { teamDomain: team, audience: AUD }
      const token = await sign(claims({ iss: `https://${team}` }), good.priv)
      await expect(
        verifyAccessAssertion(token, ours, { fetchImpl: async () => answer() }),
      ).rejects.toBeInstanceOf(AccessKeysUnavailable)
    }
  })
})
