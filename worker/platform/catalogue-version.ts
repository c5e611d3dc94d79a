/**
 * Learning the current catalogue version, once per request, before any memoised catalogue read:
 * an import or reseed bumps the version in the same batch as its writes, so the first request
 * after it sees the new version and every memo entry read under the old one is stale for it.
 *
 * - Embedded backend: the version is the search index version in D1 (one point read per request
 *   that reads memoised catalogue data; output-cache hits never get here).
 * - Upstream backend: its writes are not visible here, so the version is a time slot of
 *   UPSTREAM_VERSION_MS: memoised upstream reads are reused for at most that long.
 * - A failed version read keeps the last known version (a D1 blip serves what the isolate has).
 */
import type { Context } from 'hono'
import { noteIndexVersion } from '../search/index-version'
import type { AppEnv } from './env'

/** How long memoised reads of an upstream catalogue are reused. */
const UPSTREAM_VERSION_MS = 60_000

const learned = new WeakMap<Request, Promise<void>>()

async function readVersion(c: Context<AppEnv>): Promise<void> {
  if (c.var.config.API_UPSTREAM) {
    noteIndexVersion(Math.floor(Date.now() / UPSTREAM_VERSION_MS))
    return
  }
  try {
    const row = await c.env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first<{
      value: number
    }>()
    noteIndexVersion(Number(row?.value ?? 0))
  } catch (err) {
    console.error(
      JSON.stringify({ requestId: c.var.requestId, msg: 'catalogue version read failed', err: String(err) }),
    )
  }
}

/** Makes sure this request has learned the current catalogue version (one read per request). */
export function syncCatalogueVersion(c: Context<AppEnv>): Promise<void> {
  let pending = learned.get(c.req.raw)
  if (!pending) {
    pending = readVersion(c)
    learned.set(c.req.raw, pending)
  }
  return pending
}
