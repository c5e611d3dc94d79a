/**
 * Cloudflare Access in front of the back office. When a team domain and an audience tag are
 * configured, every request must carry the `Cf-Access-Jwt-Assertion` JWT that Access adds: RS256
 * only, signed by one of the team's published keys, issued by the team, for this application's
 * audience tag, not expired and already valid. Its `email` claim is the operator's identity.
 * Anything else is refused. The team's keys are fetched through the outbound helper and kept in
 * a memo for a few minutes; a token naming a key we do not hold makes one fresh fetch (keys rotate).
 */
import { verifyWithJwks } from 'hono/jwt'
import type { HonoJsonWebKey } from 'hono/utils/jwt/jws'
import { z } from 'zod'
import { fetchOutbound } from '../platform/fetch'
import { createMemo } from '../platform/memo'

export const ACCESS_JWT_HEADER = 'cf-access-jwt-assertion'

/** How long the team's signing keys are reused before they are fetched again. */
const JWKS_TTL_MS = 10 * 60 * 1000

/** The longest assertion read (a real one is about 1 KB). */
const MAX_ASSERTION_LENGTH = 8192

export interface AccessSettings {
  /** e.g. `myteam.cloudflareaccess.com` (a scheme or trailing slash is tolerated). */
  teamDomain: string
  /** The Access application's audience (AUD) tag. */
  audience: string
}

const jwksMemo = createMemo<HonoJsonWebKey[]>({
  name: 'admin-access-jwks',
  ttlMs: JWKS_TTL_MS,
  maxEntries: 4,
  // A key set is a few kilobytes: four of them, with room to spare.
  maxBytes: 256 * 1024,
})

const JwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) })

/** The team's host name, from what an operator configured. */
function teamHost(teamDomain: string): string {
  return teamDomain
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '')
    .toLowerCase()
}

async function loadKeys(host: string, fetchImpl?: typeof fetch): Promise<HonoJsonWebKey[]> {
  const res = await fetchOutbound('Cloudflare Access', `https://${host}/cdn-cgi/access/certs`, {
    fetchImpl,
  })
  if (!res.ok) throw new Error(`Cloudflare Access keys answered ${res.status}`)
  const parsed = JwksSchema.safeParse(await res.json())
  if (!parsed.success) throw new Error('Cloudflare Access keys are not a key set')
  return parsed.data.keys as HonoJsonWebKey[]
}

function keyIdOf(token: string): string | null {
  try {
    const header = JSON.parse(atob((token.split('.')[0] ?? '').replace(/-/g, '+').replace(/_/g, '/')))
    return typeof header?.kid === 'string' ? header.kid : null
  } catch {
    return null
  }
}

const OperatorClaims = z.object({
  email: z.string().email().max(254),
  exp: z.number(),
})

/**
 * The operator e-mail an Access assertion proves, or null when the assertion is missing, malformed,
 * not RS256, signed by another key, for another audience or issuer, expired or not yet valid.
 */
export async function verifyAccessAssertion(
  token: string | undefined,
  settings: AccessSettings,
  opts: { fetchImpl?: typeof fetch } = {},
): Promise<string | null> {
  if (!token || token.length > MAX_ASSERTION_LENGTH) return null
  const host = teamHost(settings.teamDomain)
  let keys = await jwksMemo.get(host, () => loadKeys(host, opts.fetchImpl))
  const kid = keyIdOf(token)
  if (kid && !keys.some((k) => k.kid === kid)) {
    jwksMemo.delete(host)
    keys = await jwksMemo.get(host, () => loadKeys(host, opts.fetchImpl))
  }
  try {
    const payload = await verifyWithJwks(token, {
      keys,
      allowedAlgorithms: ['RS256'],
      verification: { aud: settings.audience, iss: `https://${host}`, exp: true, nbf: true },
    })
    const claims = OperatorClaims.safeParse(payload)
    return claims.success ? claims.data.email.toLowerCase() : null
  } catch {
    return null
  }
}
