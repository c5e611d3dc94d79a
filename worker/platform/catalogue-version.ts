/**
 * Learning the current catalogue version, once per request, before any memoised catalogue read:
 * an import or reseed bumps the version in the same batch as its writes, so the first request
 * after it sees the new version and every memo entry read under the old one is stale for it.
 *
 * - Embedded backend: the version is the search index version in D1 (one point read per request
 *   that reads memoised catalogue data; output-cache hits never get here). The same read returns
 *   the reference-data version, which moves only when categories, attributes, tax rules, content
 *   documents, CMS blocks or size guides are written (triggers in D1): memoised reads of those
 *   survive an import of products.
 * - Upstream backend: its writes are not visible here, so both versions are a time slot of
 *   UPSTREAM_VERSION_MS: memoised upstream reads are reused for at most that long.
 * - A failed version read keeps the last known version (a D1 blip serves what the isolate has).
 */
import type { Context } from 'hono'
import { noteIndexVersion } from '../search/index-version'
import type { AppEnv } from './env'

/** How long memoised reads of an upstream catalogue are reused. */
const UPSTREAM_VERSION_MS = 60_000

const learned = new WeakMap<Request, Promise<void>>()

/** The reference-data version this isolate last read (null before any). */
let referenceVersion: number | null = null

/**
 * The reference-data version (categories, attributes, tax rules, content documents, CMS blocks, size
 * guides) this isolate last read: the version memoised reads of those are valid for.
 */
export function referenceVersionSeen(): number | null {
  return referenceVersion
}

async function readVersion(c: Context<AppEnv>): Promise<void> {
  if (c.var.config.API_UPSTREAM) {
    const slot = Math.floor(Date.now() / UPSTREAM_VERSION_MS)
    noteIndexVersion(slot)
    referenceVersion = slot
    return
  }
  try {
    const row = await c.env.DB.prepare(
      "SELECT (SELECT value FROM search_meta WHERE key = 'version') AS version, (SELECT value FROM search_meta WHERE key = 'reference') AS reference",
    ).first<{ version: number | null; reference: number | null }>()
    const version = Number(row?.version ?? 0)
    noteIndexVersion(version)
    // Without its own row (a database before the reference version), reference data follows the
    // catalogue version, as every memoised read did before.
    referenceVersion = Number(row?.reference ?? version)
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
