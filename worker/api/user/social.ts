/**
 * POST /api/user/social-login: Google only. Refused (400) unless SOCIAL_LOGIN_GOOGLE_CLIENT_ID is
 * configured. When configured, the Google ID token is verified fully: RS256 signature against
 * Google's published keys (fetched from GOOGLE_CERTS_URL and cached per isolate), issuer,
 * audience = the configured client id, expiry, email_verified, and the email must equal the
 * body's. Without network access to Google's keys the login is refused (503), never trusted.
 */

import type { SocialLoginBodySchema } from '@shared/schemas/user'
import type { Context } from 'hono'
import type { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fetchOutbound } from '../../platform/fetch'
import { fail } from '../../platform/http'
import { fromBase64Url } from '../auth/crypto'
import { type CustomerRow, findCustomerByEmail, findCustomerById, magentoDate } from './repo'

const GOOGLE_CERTS_URL = 'https://www.googleapis.com/oauth2/v3/certs'
const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com']

type JwkSet = { keys: (JsonWebKey & { kid?: string })[] }
let keysLoader: () => Promise<JwkSet> = async () => {
  const res = await fetchOutbound('Google sign-in keys', GOOGLE_CERTS_URL)
  if (!res.ok) throw new Error(`Google certs answered ${res.status}`)
  return (await res.json()) as JwkSet
}
let cached: { keys: JwkSet; until: number } | undefined

/** Replaces how Google's signing keys are loaded (tests inject a local key set). */
export function setGoogleKeysLoader(loader: () => Promise<JwkSet>): void {
  keysLoader = loader
  cached = undefined
}

async function googleKeys(now: number): Promise<JwkSet> {
  if (cached && cached.until > now) return cached.keys
  const keys = await keysLoader()
  cached = { keys, until: now + 3600_000 }
  return keys
}

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(new TextDecoder().decode(fromBase64Url(part)))
    return value && typeof value === 'object' ? value : null
  } catch {
    return null
  }
}

/** Verifies a Google ID token; returns its claims or throws a 401/503 envelope. */
export async function verifyGoogleIdToken(token: string, clientId: string, now: number) {
  const invalid = 'The Google sign-in token is invalid or expired.'
  const parts = token.split('.')
  if (parts.length !== 3) fail(401, invalid)
  const [h, p, s] = parts as [string, string, string]
  const header = decodeJson(h)
  const claims = decodeJson(p)
  if (!header || !claims || header.alg !== 'RS256' || typeof header.kid !== 'string') fail(401, invalid)
  let keys: JwkSet
  try {
    keys = await googleKeys(now)
  } catch {
    return fail(503, 'Google sign-in is temporarily unavailable (cannot load Google signing keys).')
  }
  const jwk = keys.keys.find((k) => k.kid === header.kid)
  if (!jwk) fail(401, invalid)
  const key = await crypto.subtle.importKey(
    'jwk',
    { kty: jwk.kty, n: jwk.n, e: jwk.e },
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
    false,
    ['verify'],
  )
  let signature: Uint8Array
  try {
    signature = fromBase64Url(s)
  } catch {
    return fail(401, invalid)
  }
  const valid = await crypto.subtle.verify(
    'RSASSA-PKCS1-v1_5',
    key,
    signature as BufferSource,
    new TextEncoder().encode(`${h}.${p}`),
  )
  if (!valid) fail(401, invalid)
  if (!GOOGLE_ISSUERS.includes(String(claims.iss))) fail(401, invalid)
  const aud = claims.aud
  if (aud !== clientId && !(Array.isArray(aud) && aud.includes(clientId))) fail(401, invalid)
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) fail(401, invalid)
  if (claims.email_verified !== true && claims.email_verified !== 'true') {
    fail(401, 'The Google account e-mail address is not verified.')
  }
  if (typeof claims.sub !== 'string' || typeof claims.email !== 'string') fail(401, invalid)
  return claims as { sub: string; email: string; given_name?: string; family_name?: string }
}

/** Finds or creates the customer of a verified social identity. */
export async function socialLogin(
  c: Context<AppEnv>,
  body: z.output<typeof SocialLoginBodySchema>,
): Promise<CustomerRow> {
  const provider = body.provider.toLowerCase()
  if (provider !== 'google') fail(400, `Social login with ${body.provider} is not supported.`)
  const clientId = c.env.SOCIAL_LOGIN_GOOGLE_CLIENT_ID
  if (!clientId) fail(400, 'Social login with Google is not configured for this store.')
  const now = Date.now()
  const claims = await verifyGoogleIdToken(body.token, clientId, now)
  if (claims.email.toLowerCase() !== body.email.toLowerCase()) {
    fail(401, 'The Google sign-in token does not belong to this e-mail address.')
  }
  const db = c.env.DB
  const linked = await db
    .prepare('SELECT customer_id FROM social_identities WHERE provider = ? AND subject = ?')
    .bind('google', claims.sub)
    .first<{ customer_id: number }>()
  if (linked) {
    const row = await findCustomerById(db, linked.customer_id)
    if (row) return row
  }
  // Google verified the address, so an existing account with it is linked.
  let row = await findCustomerByEmail(db, claims.email)
  if (!row) {
    const stamp = magentoDate(now)
    await db
      .prepare(
        `INSERT OR IGNORE INTO customers (email, firstname, lastname, password_hash, store_id, created_at, updated_at)
         VALUES (?, ?, ?, NULL, ?, ?, ?)`,
      )
      .bind(
        claims.email,
        (body.fname || claims.given_name || '-').slice(0, 100),
        (body.lname || claims.family_name || '-').slice(0, 100),
        c.var.config.STORE_ID,
        stamp,
        stamp,
      )
      .run()
    row = await findCustomerByEmail(db, claims.email)
  }
  if (!row) fail(500, 'Could not create the account.')
  await db
    .prepare('INSERT OR IGNORE INTO social_identities (provider, subject, customer_id) VALUES (?, ?, ?)')
    .bind('google', claims.sub, row.id)
    .run()
  return row
}
