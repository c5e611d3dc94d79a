/**
 * Signed tokens, all HS256 JWTs signed and verified by `hono/jwt` with TOKEN_SECRET:
 *   access     `{sub, ver, typ:'access', iat, exp}`, valid 15 minutes; `ver` is the customer's
 *              token version, bumped on password change/reset so older tokens stop working;
 *   group      `{typ:'group', group_id, id, user}` (price tiers);
 *   link/device tokens of other modules, each with its own `typ`, so one kind is never accepted
 *              as another.
 * A token is accepted only in its one canonical encoding: every part must be unpadded base64url
 * whose unused trailing bits are zero, so a signature cannot be re-encoded into a second valid
 * token string. `hono/jwt` decodes leniently (padding and trailing bits pass), hence that check.
 * TOKEN_SECRET missing: development/test derive a per-isolate random key (warning logged);
 * anywhere else tokens are refused with a 503 envelope instead of being signed with nothing.
 */
import { sign, verify } from 'hono/jwt'
import type { JWTPayload } from 'hono/utils/jwt/types'
import type { AppConfig } from '../../platform/env'
import { fail } from '../../platform/http'
import { fromBase64Url, randomToken, toBase64Url } from './crypto'

const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
/** Longer strings are refused before any decoding (an access token is about 200 characters). */
export const MAX_TOKEN_LENGTH = 2048

let isolateSecret: string | undefined

/** The signing key, or a 503 envelope when production has none configured. */
export function tokenSecret(env: { TOKEN_SECRET?: string }, config: AppConfig): string {
  if (env.TOKEN_SECRET) return env.TOKEN_SECRET
  if (config.ENVIRONMENT === 'development' || config.ENVIRONMENT === 'test') {
    if (!isolateSecret) {
      isolateSecret = randomToken()
      console.warn('TOKEN_SECRET is not set: using a random per-isolate key (tokens die with the isolate)')
    }
    return isolateSecret
  }
  return fail(503, 'Sign-in is temporarily unavailable: the server has no TOKEN_SECRET configured.')
}

interface AccessClaims {
  sub: string
  ver: number
  typ: 'access'
  iat: number
  exp: number
}

// The secret is imported as a WebCrypto HMAC key (never handed to hono/jwt as a string, which it
// would parse as PEM if it happened to contain "PUBLIC"/"PRIVATE"). One key per secret is kept.
let cachedKey: { secret: string; key: Promise<CryptoKey> } | undefined
function hmacKey(secret: string): Promise<CryptoKey> {
  if (cachedKey?.secret !== secret) {
    cachedKey = {
      secret,
      key: crypto.subtle.importKey(
        'raw',
        new TextEncoder().encode(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      ),
    }
  }
  return cachedKey.key
}

/** True when `part` is unpadded base64url that re-encodes to itself (no padding, no stray bits). */
function isCanonicalBase64Url(part: string): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(part) || part.length % 4 === 1) return false
  try {
    return toBase64Url(fromBase64Url(part)) === part
  } catch {
    return false
  }
}

/** Signs any JSON claims as an HS256 JWT. */
export async function signJws(secret: string, claims: Record<string, unknown>): Promise<string> {
  return sign(claims as JWTPayload, await hmacKey(secret), 'HS256')
}

/**
 * Verifies an HS256 JWT (signature, `alg` pinned to HS256, `exp`/`nbf`/`iat` when present, via
 * hono/jwt) after the canonical-encoding check; returns the claims, or null for anything else.
 */
export async function verifyJws(secret: string, token: string): Promise<Record<string, unknown> | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null
  const parts = token.split('.')
  if (parts.length !== 3 || !parts.every(isCanonicalBase64Url)) return null
  try {
    const claims = await verify(token, await hmacKey(secret), { alg: 'HS256' })
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** Issues an access token for a customer (now in ms). */
export function issueAccessToken(secret: string, customerId: number, version: number, now: number) {
  const iat = Math.floor(now / 1000)
  const claims: AccessClaims = {
    sub: String(customerId),
    ver: version,
    typ: 'access',
    iat,
    exp: iat + ACCESS_TOKEN_TTL_SECONDS,
  }
  return signJws(secret, claims as unknown as Record<string, unknown>)
}

/** Returns the customer id and version of a valid, unexpired access token, else null. */
export async function verifyAccessToken(
  secret: string,
  token: string,
  now: number,
): Promise<{ customerId: number; version: number } | null> {
  const claims = await verifyJws(secret, token)
  if (claims?.typ !== 'access') return null
  const exp = claims.exp
  const sub = Number(claims.sub)
  // An access token without an expiry is not one we issued.
  if (typeof exp !== 'number' || exp * 1000 <= now) return null
  if (typeof claims.sub !== 'string' || !Number.isInteger(sub) || sub <= 0) return null
  if (typeof claims.ver !== 'number' || !Number.isInteger(claims.ver)) return null
  return { customerId: sub, version: claims.ver }
}

/**
 * Device tokens: handed out with every password sign-in and sent back with the next one from the
 * same browser. A valid one for the account moves that sign-in onto its own slow-down key, so
 * somebody guessing the account's password from elsewhere cannot keep its owner out.
 */
const DEVICE_TOKEN_TTL_SECONDS = 180 * 24 * 3600

export function issueDeviceToken(secret: string, customerId: number, now: number): Promise<string> {
  const iat = Math.floor(now / 1000)
  return signJws(secret, {
    typ: 'device',
    sub: String(customerId),
    jti: randomToken().slice(0, 22),
    iat,
    exp: iat + DEVICE_TOKEN_TTL_SECONDS,
  })
}

/** The device id of a valid device token issued to `customerId`, else null. */
export async function verifyDeviceToken(
  secret: string,
  token: string,
  customerId: number,
  now: number,
): Promise<string | null> {
  const claims = await verifyJws(secret, token)
  if (claims?.typ !== 'device' || claims.sub !== String(customerId)) return null
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null
  return typeof claims.jti === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(claims.jti) ? claims.jti : null
}
