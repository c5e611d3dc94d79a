/**
 * Purging the output cache everywhere. Every cached page carries its tags twice: in the D1 tag
 * index (./tags.ts) and in its stored `Cache-Tag` header. A purge
 *  1. deletes the pages from this location at once (tag index → Cache API delete + memory tier),
 *     which is all a local `wrangler dev` or a zone without purge credentials gets; and
 *  2. when CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN are configured, asks Cloudflare's purge API
 *     to drop every cached response carrying those tags in every location of the zone.
 * Other isolates may still hold a page in their memory tier for MEMORY_SECONDS after a purge.
 */
import { fetchOutbound, type OutboundError } from '../fetch'
import { purgeTag } from './tags'

/** Cloudflare's API root unless CLOUDFLARE_API_BASE names another (tests use a stand-in). */
const DEFAULT_API_BASE = 'https://api.cloudflare.com/client/v4'
/** Most tags one purge request may carry (the API's per-request limit is 100 operations). */
const TAGS_PER_PURGE_REQUEST = 100
/** How long a purge call may take before the purge is reported as not global. */
const PURGE_TIMEOUT_MS = 5000

interface PurgeConfig {
  CLOUDFLARE_ZONE_ID?: string
  CLOUDFLARE_API_TOKEN?: string
  CLOUDFLARE_API_BASE?: string
}

/** What a purge did: pages dropped here per tag, and whether every location was asked too. */
interface PurgeResult {
  /** Output-cache entries deleted in this location, per tag. */
  local: Record<string, number>
  /** 'purged': the purge API took every tag; 'not-configured': local only; else why it failed. */
  global: 'purged' | 'not-configured' | { failed: string }
}

/** Asks the purge API to drop every cached response carrying one of `tags` in the whole zone. */
async function purgeZoneTags(
  cfg: { zoneId: string; token: string; base?: string },
  tags: string[],
): Promise<PurgeResult['global']> {
  const base = (cfg.base || DEFAULT_API_BASE).replace(/\/+$/, '')
  const url = `${base}/zones/${encodeURIComponent(cfg.zoneId)}/purge_cache`
  for (let i = 0; i < tags.length; i += TAGS_PER_PURGE_REQUEST) {
    let res: Response
    try {
      res = await fetchOutbound('Cloudflare purge API', url, {
        method: 'POST',
        timeoutMs: PURGE_TIMEOUT_MS,
        headers: { authorization: `Bearer ${cfg.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tags: tags.slice(i, i + TAGS_PER_PURGE_REQUEST) }),
      })
    } catch (err) {
      return { failed: (err as OutboundError).message ?? String(err) }
    }
    const body = (await res.json().catch(() => null)) as {
      success?: boolean
      errors?: { code?: number; message?: string }[]
    } | null
    if (!res.ok || body?.success !== true) {
      const why = body?.errors?.map((e) => `${e.code ?? ''} ${e.message ?? ''}`.trim()).join('; ')
      return { failed: `the purge API answered ${res.status}${why ? `: ${why.slice(0, 200)}` : ''}` }
    }
  }
  return 'purged'
}

/**
 * Purges the output-cache pages carrying any of `tags`: here at once, and in every location when
 * the zone's purge credentials are configured. Never throws for the purge API (its failure is in
 * the result); a database failure is the caller's.
 */
export async function purgeCacheTags(env: Env, tags: string[]): Promise<PurgeResult> {
  const local: Record<string, number> = {}
  for (const tag of tags) local[tag] = await purgeTag(env.DB, tag)
  const cfg = env as PurgeConfig
  const global =
    cfg.CLOUDFLARE_ZONE_ID && cfg.CLOUDFLARE_API_TOKEN
      ? await purgeZoneTags(
          { zoneId: cfg.CLOUDFLARE_ZONE_ID, token: cfg.CLOUDFLARE_API_TOKEN, base: cfg.CLOUDFLARE_API_BASE },
          tags,
        )
      : 'not-configured'
  return { local, global }
}

/** How many cached entries a purge removed here (the global purge reports no count). */
export function purgedCount(result: PurgeResult): number {
  return Object.values(result.local).reduce((sum, n) => sum + n, 0)
}
