// Google ID-token verification (signature, issuer, audience, expiry, verified e-mail) with a local
// key set injected in place of Google's published keys; TOKEN_SECRET policy.
import { HTTPException } from 'hono/http-exception'
import { describe, expect, it } from 'vitest'
import { toBase64Url } from '../../../../worker/api/auth/crypto'
import { tokenSecret } from '../../../../worker/api/auth/tokens'
import { setGoogleKeysLoader, verifyGoogleIdToken } from '../../../../worker/api/user/social'
import type { AppConfig } from '../../../../worker/platform/env'
import { rs256KeyPair } from '../../../helpers/rs256'

const CLIENT_ID = 'storefront-client.apps.googleusercontent.com'
const enc = (v: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(v)))

async function idToken(key: CryptoKey, claims: Record<string, unknown>, kid = 'k1') {
  const head = enc({ alg: 'RS256', kid, typ: 'JWT' })
  const body = enc(claims)
  const sig = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, new TextEncoder().encode(`${head}.${body}`))
  return `${head}.${body}.${toBase64Url(new Uint8Array(sig))}`
}

const statusOf = async (p: Promise<unknown>) => {
  try {
    await p
    return 200
  } catch (err) {
    return err instanceof HTTPException ? err.status : 0
  }
}

describe('Google ID token verification', () => {
  it('accepts a correctly signed token for this client and rejects every tampered variant', async () => {
    const google = await rs256KeyPair()
    const stranger = await rs256KeyPair()
    const jwk = (await crypto.subtle.exportKey('jwk', google.publicKey)) as JsonWebKey
    setGoogleKeysLoader(async () => ({ keys: [{ ...jwk, kid: 'k1' }] }))
    const now = Date.now()
    const claims = {
      iss: 'https://accounts.google.com',
      aud: CLIENT_ID,
      sub: '1234567890',
      email: 'asha@example.com',
      email_verified: true,
      exp: Math.floor(now / 1000) + 600,
    }
    const good = await verifyGoogleIdToken(await idToken(google.privateKey, claims), CLIENT_ID, now)
    expect(good).toMatchObject({ sub: '1234567890', email: 'asha@example.com' })
    const cases: [string, Promise<string>][] = [
      ['other audience', idToken(google.privateKey, { ...claims, aud: 'someone-else' })],
      ['expired', idToken(google.privateKey, { ...claims, exp: Math.floor(now / 1000) - 1 })],
      ['wrong issuer', idToken(google.privateKey, { ...claims, iss: 'https://evil.example' })],
      ['unverified e-mail', idToken(google.privateKey, { ...claims, email_verified: false })],
      ['signed by someone else', idToken(stranger.privateKey, claims)],
      ['unknown key id', idToken(google.privateKey, claims, 'k2')],
    ]
    for (const [label, token] of cases) {
      expect(await statusOf(verifyGoogleIdToken(await token, CLIENT_ID, now)), label).toBe(401)
    }
    expect(await statusOf(verifyGoogleIdToken('not.a.jwt', CLIENT_ID, now))).toBe(401)
  })

  it('refuses (503) when Google keys cannot be loaded', async () => {
    const google = await rs256KeyPair()
    setGoogleKeysLoader(async () => {
      throw new Error('offline')
    })
    const token = await idToken(google.privateKey, { iss: 'accounts.google.com', aud: CLIENT_ID, exp: 9e9 })
    expect(await statusOf(verifyGoogleIdToken(token, CLIENT_ID, Date.now()))).toBe(503)
  })
})

describe('TOKEN_SECRET policy', () => {
  const config = (ENVIRONMENT: string) => ({ ENVIRONMENT }) as AppConfig
  it('uses the configured secret, a stable per-isolate key in development/test, and refuses in production', async () => {
    expect(tokenSecret({ TOKEN_SECRET: 'configured' }, config('production'))).toBe('configured')
    const dev = tokenSecret({}, config('development'))
    expect(dev.length).toBeGreaterThan(30)
    expect(tokenSecret({}, config('test'))).toBe(dev)
    expect(await statusOf(Promise.resolve().then(() => tokenSecret({}, config('production'))))).toBe(503)
  })
})

describe('POST /api/user/social-login (configured)', () => {
  it('signs in with a verified Google token, creating the account once and linking it afterwards', async () => {
    const { createExecutionContext, env } = await import('cloudflare:test')
    const { default: app } = await import('../../../../worker/app')
    const google = await rs256KeyPair()
    const jwk = (await crypto.subtle.exportKey('jwk', google.publicKey)) as JsonWebKey
    setGoogleKeysLoader(async () => ({ keys: [{ ...jwk, kid: 'k1' }] }))
    const claims = {
      iss: 'accounts.google.com',
      aud: CLIENT_ID,
      sub: 'g-42',
      email: 'social.shopper@example.com',
      email_verified: true,
      given_name: 'Social',
      family_name: 'Shopper',
      exp: Math.floor(Date.now() / 1000) + 600,
    }
    const login = async (body: Record<string, unknown>) => {
      const res = await app.fetch(
        new Request('https://shop.test/api/user/social-login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        { ...env, SOCIAL_LOGIN_GOOGLE_CLIENT_ID: CLIENT_ID },
        createExecutionContext(),
      )
      return {
        status: res.status,
        json: (await res.json()) as { result: string; meta?: { refreshToken: string } },
      }
    }
    const token = await idToken(google.privateKey, claims)
    const first = await login({ email: claims.email, fname: 'S', lname: 'S', token, provider: 'google' })
    expect(first.status).toBe(200)
    expect(first.json.result.split('.')).toHaveLength(3)
    expect(first.json.meta?.refreshToken).toBeTruthy()
    const again = await login({ email: claims.email, token, provider: 'google' })
    expect(again.status).toBe(200)
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM customers WHERE email = ?')
      .bind(claims.email)
      .first<{ n: number }>()
    expect(rows?.n).toBe(1)
    // The token must belong to the e-mail in the body.
    const mismatch = await login({ email: 'someone.else@example.com', token, provider: 'google' })
    expect(mismatch.status).toBe(401)
  })
})
