/**
 * Signed tokens, all HS256 JWTs signed and verified by `hono/jwt` with TOKEN_SECRET:
 *   access     `{sub, ver, fam, typ:'access', iat, exp}`, valid 15 minutes; `ver` is the customer's
 *              token version, bumped on password change/reset so older tokens stop working; `fam`
 *              is the sign-in's refresh-token family, so revoking the family (a refresh token
 *              used twice) ends its access tokens at once (checked in ./guard.ts);
 *   group      `{typ:'group', group_id, id, user}` (price tiers);
 *   link/device tokens of other modules, each with its own `typ`, so one kind is never accepted
 *              as another.
 * A token is accepted only in its one canonical encoding: every part must be unpadded base64url
 * whose unused trailing bits are zero, so a signature cannot be re-encoded into a second valid
 * token string. `hono/jwt` decodes leniently (padding and trailing bits pass), hence that check.
 * Every kind states its lifetime to the verifier: an `exp` further ahead than that lifetime (plus
 * a minute of clock skew) is refused, so no token outlives its kind, whatever it claims.
 * TOKEN_SECRET missing: development/test derive a per-isolate random key (warning logged);
 * anywhere else tokens are refused with a 503 envelope instead of being signed with nothing.
 */
import { sign, verify } from 'hono/jwt'
import type { JWTPayload } from 'hono/utils/jwt/types'
import type { AppConfig } from '../../platform/env'
import { fail } from '../../platform/http'
import { fromBase64Url, randomToken, toBase64Url } from './crypto'

const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
/** Clock difference tolerated between the signer and the verifier (seconds). */
const CLOCK_SKEW_SECONDS = 60
/** A customer id as a token names it: a positive decimal integer, no sign, leading zero or fraction. */
const CANONICAL_ID = /^[1-9][0-9]{0,15}$/
/** A refresh-token family id as issueRefreshToken writes it (randomToken: base64url). */
const FAMILY_ID = /^[A-Za-z0-9_-]{16,64}$/
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
  fam: string
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
 * `lifetimeSeconds` is the longest life the token's kind is issued with: an `exp` later than
 * that from `now` (plus CLOCK_SKEW_SECONDS) is refused; null for a kind issued without expiry
 * (an `exp` it carries is still checked by hono/jwt).
 */
export async function verifyJws(
  secret: string,
  token: string,
  kind: { lifetimeSeconds: number | null; now?: number },
): Promise<Record<string, unknown> | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null
  const parts = token.split('.')
  if (parts.length !== 3 || !parts.every(isCanonicalBase64Url)) return null
  let claims: Record<string, unknown>
  try {
    const verified = await verify(token, await hmacKey(secret), { alg: 'HS256' })
    if (!verified || typeof verified !== 'object') return null
    claims = verified as Record<string, unknown>
  } catch {
    return null
  }
  if (kind.lifetimeSeconds !== null && typeof claims.exp === 'number') {
    const latest = Math.floor((kind.now ?? Date.now()) / 1000) + kind.lifetimeSeconds + CLOCK_SKEW_SECONDS
    if (claims.exp > latest) return null
  }
  return claims
}

/** Issues an access token for a customer's sign-in (its refresh-token family; now in ms). */
export function issueAccessToken(
  secret: string,
  customerId: number,
  version: number,
  familyId: string,
  now: number,
) {
  const iat = Math.floor(now / 1000)
  const claims: AccessClaims = {
    sub: String(customerId),
    ver: version,
    fam: familyId,
    typ: 'access',
    iat,
    exp: iat + ACCESS_TOKEN_TTL_SECONDS,
  }
  return signJws(secret, claims as unknown as Record<string, unknown>)
}

/**
 * The customer id, token version and sign-in family of a valid, unexpired access token, else null.
 * Only what issueAccessToken writes passes: an expiry within the access lifetime, `sub` a
 * canonical positive integer ("12", never "12.0", "012" or "1e1"), an integer `ver`, a family id.
 */
export async function verifyAccessToken(
  secret: string,
  token: string,
  now: number,
): Promise<{ customerId: number; version: number; familyId: string } | null> {
  const claims = await verifyJws(secret, token, { lifetimeSeconds: ACCESS_TOKEN_TTL_SECONDS, now })
  if (claims?.typ !== 'access') return null
  const exp = claims.exp
  // An access token without an expiry is not one we issued.
  if (typeof exp !== 'number' || exp * 1000 <= now) return null
  if (typeof claims.sub !== 'string' || !CANONICAL_ID.test(claims.sub)) return null
  const sub = Number(claims.sub)
  if (!Number.isSafeInteger(sub)) return null
  if (typeof claims.ver !== 'number' || !Number.isInteger(claims.ver)) return null
  if (typeof claims.fam !== 'string' || !FAMILY_ID.test(claims.fam)) return null
  return { customerId: sub, version: claims.ver, familyId: claims.fam }
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
  const claims = await verifyJws(secret, token, { lifetimeSeconds: DEVICE_TOKEN_TTL_SECONDS, now })
  if (claims?.typ !== 'device' || claims.sub !== String(customerId)) return null
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null
  return typeof claims.jti === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(claims.jti) ? claims.jti : null
}
