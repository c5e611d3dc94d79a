/**
 * Cloudflare Access in front of the back office. When a team domain and an audience tag are
 * configured, every request must carry the `Cf-Access-Jwt-Assertion` JWT that Access adds: RS256
 * only, signed by one of the team's published keys, issued by the team, for this application's
 * audience tag, not expired and already valid. Its `email` claim is the operator's identity.
 * Anything else is refused. The team's keys are fetched through the outbound helper and kept in
 * a memo for a few minutes. A token naming a key we do not hold makes one fresh fetch (keys
 * rotate), but at most one per KEY_REFETCH_INTERVAL_MS per team: an assertion with a made-up key
 * id cannot make every request fetch the key set. When the key set cannot be read (the endpoint
 * is unreachable or answers no key set) and none is held, verification throws
 * AccessKeysUnavailable (the caller answers 503 with Retry-After, never 500); the failed attempt
 * is remembered for KEY_RETRY_AFTER_MS, and requests inside that time are answered without another
 * fetch. A refetch for an unknown key that fails keeps the keys already held.
 */
import { verifyWithJwks } from 'hono/jwt'
import type { HonoJsonWebKey } from 'hono/utils/jwt/jws'
import { z } from 'zod'
import { fetchOutbound } from '../platform/fetch'
import { createMemo } from '../platform/memo'

export const ACCESS_JWT_HEADER = 'cf-access-jwt-assertion'

/** How long the team's signing keys are reused before they are fetched again. */
const JWKS_TTL_MS = 10 * 60 * 1000
/** Fewest milliseconds between two fetches of a team's key set for a key id it did not hold. */
export const KEY_REFETCH_INTERVAL_MS = 60 * 1000
/** How long a failed fetch of the key set is answered from memory (no new fetch), and Retry-After. */
const KEY_RETRY_AFTER_MS = 10 * 1000

/** The team's key set could not be read and none is held: the back office is briefly unavailable. */
export class AccessKeysUnavailable extends Error {
  constructor(
    message: string,
    /** Seconds until the next fetch may be tried. */
    readonly retryAfterSeconds: number,
  ) {
    super(message)
    this.name = 'AccessKeysUnavailable'
  }
}

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

/** Per team host: when its key set was last fetched (or tried), and why that failed, if it did. */
const lastFetch = new Map<string, { at: number; failed?: string }>()

const JwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) })

/** The team's host name, from what an operator configured. */
function teamHost(teamDomain: string): string {
  return teamDomain
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '')
    .toLowerCase()
}

/**
 * Fetches the team's key set into the memo, recording the attempt. Within KEY_RETRY_AFTER_MS of a
 * failed attempt it throws AccessKeysUnavailable without fetching.
 */
async function fetchKeys(host: string, now: number, fetchImpl?: typeof fetch): Promise<HonoJsonWebKey[]> {
  const last = lastFetch.get(host)
  if (last?.failed && now - last.at < KEY_RETRY_AFTER_MS)
    throw new AccessKeysUnavailable(last.failed, Math.ceil((last.at + KEY_RETRY_AFTER_MS - now) / 1000))
  lastFetch.set(host, { at: now })
  try {
    const keys = await loadKeys(host, fetchImpl)
    jwksMemo.set(host, keys, now)
    return keys
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    lastFetch.set(host, { at: now, failed: why })
    throw new AccessKeysUnavailable(why, Math.ceil(KEY_RETRY_AFTER_MS / 1000))
  }
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
  opts: { fetchImpl?: typeof fetch; now?: number } = {},
): Promise<string | null> {
  if (!token || token.length > MAX_ASSERTION_LENGTH) return null
  const host = teamHost(settings.teamDomain)
  const now = opts.now ?? Date.now()
  let keys = jwksMemo.peek(host, now) ?? (await fetchKeys(host, now, opts.fetchImpl))
  const kid = keyIdOf(token)
  const last = lastFetch.get(host)
  if (kid && !keys.some((k) => k.kid === kid) && (!last || now - last.at >= KEY_REFETCH_INTERVAL_MS)) {
    // A rotated key: fetch once more; when that fails the keys held still decide.
    keys = await fetchKeys(host, now, opts.fetchImpl).catch(() => keys)
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
