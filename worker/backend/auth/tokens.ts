/**
 * Access tokens: compact JWS (HS256) `{sub, ver, typ:'access', iat, exp}` signed with TOKEN_SECRET,
 * valid 15 minutes; `ver` is the customer's token version, bumped on password change/reset so
 * older tokens stop working. Group tokens (price tiers) use the same format with typ 'group'.
 * TOKEN_SECRET missing: development/test derive a per-isolate random key (warning logged);
 * anywhere else tokens are refused with a 503 envelope instead of being signed with nothing.
 */
import type { AppConfig } from '../../env'
import { fromBase64Url, hmacSign, hmacVerify, randomToken, toBase64Url } from './crypto'
import { fail } from './http'

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60
const HEADER = toBase64Url(new TextEncoder().encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })))

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

export interface AccessClaims {
  sub: string
  ver: number
  typ: 'access'
  iat: number
  exp: number
}

/** Signs any JSON claims as an HS256 compact JWS. */
export async function signJws(secret: string, claims: Record<string, unknown>): Promise<string> {
  const payload = toBase64Url(new TextEncoder().encode(JSON.stringify(claims)))
  return `${HEADER}.${payload}.${await hmacSign(secret, `${HEADER}.${payload}`)}`
}

/** Verifies the signature (HS256 header only) and returns the claims, or null. */
export async function verifyJws(secret: string, token: string): Promise<Record<string, unknown> | null> {
  const parts = token.split('.')
  if (parts.length !== 3 || parts[0] !== HEADER) return null
  const [header, payload, signature] = parts as [string, string, string]
  if (!(await hmacVerify(secret, `${header}.${payload}`, signature))) return null
  try {
    const claims = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)))
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
  if (claims?.typ !== 'access' || !claims) return null
  const exp = claims.exp
  const sub = Number(claims.sub)
  if (typeof exp !== 'number' || exp * 1000 <= now) return null
  if (!Number.isInteger(sub) || sub <= 0 || typeof claims.ver !== 'number') return null
  return { customerId: sub, version: claims.ver }
}
