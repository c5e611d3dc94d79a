/**
 * A message's signed link that names one thing (a cart, an address): an HS256 token of its kind
 * (`typ`) and subject (`sub`) that expires after a number of days. Read back, it gives the subject
 * only while the token is genuine, of that kind and not expired.
 */
import { signJws, tokenSecret, verifyJws } from '../api/auth/tokens'
import type { AppConfig } from '../platform/env'

/** The shop's URL `path?t=<token>` for `sub`, valid `days` from `now`. */
export async function signedLink(
  env: Env,
  config: AppConfig,
  link: { path: string; typ: string; sub: string; days: number },
  now: number,
) {
  const token = await signJws(tokenSecret(env, config), {
    typ: link.typ,
    sub: link.sub,
    exp: Math.floor(now / 1000) + link.days * 86_400,
  })
  return `${config.PUBLIC_ORIGIN}${link.path}?t=${token}`
}

/** The subject of a link's token of kind `typ`, or null (forged, of another kind, expired). */
export async function signedLinkSubject(
  env: Env,
  config: AppConfig,
  token: string,
  kind: { typ: string; days: number },
  now: number,
): Promise<string | null> {
  const claims = await verifyJws(tokenSecret(env, config), token, {
    lifetimeSeconds: kind.days * 86_400,
    now,
  })
  if (claims?.typ !== kind.typ || typeof claims.sub !== 'string') return null
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null
  return claims.sub
}
