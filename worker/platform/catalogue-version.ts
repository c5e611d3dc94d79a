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
 *
 * Reads ahead of the version (page routes only): a page request does not wait for its version read
 * before using a memoised reference read the isolate holds; the read goes out at once and shares
 * the round trip of the page's first data reads (worker/platform/d1-reads.ts), so a page in the
 * steady state costs the database one round trip instead of two. The rule stays exact: before the
 * page is answered, its version read is checked, and when the reference version it relied on is
 * no longer the current one the page is built again from fresh reads (`readsAheadHeld`). The search
 * engine's own memos need none of this: every statement returns the index version it read.
 */
import type { Context } from 'hono'
import { noteIndexVersion } from '../search'
import type { AppEnv } from './env'

/** How long memoised reads of an upstream catalogue are reused. */
const UPSTREAM_VERSION_MS = 60_000

/** A request's version read: settled once it answered (or failed). */
interface Learning {
  read: Promise<number | null>
  settled: boolean
}

const learned = new WeakMap<Request, Learning>()

/**
 * Requests allowed to read ahead of their version read, and the reference version their reads
 * ahead relied on (undefined: none yet; 'mixed': reads ahead relied on two different versions).
 */
const readingAhead = new WeakMap<Request, { reliedOn: number | 'mixed' | undefined }>()

/** The reference-data version this isolate last read (null before any). */
let referenceVersion: number | null = null

/**
 * The reference-data version (categories, attributes, tax rules, content documents, CMS blocks, size
 * guides) this isolate last read: the version memoised reads of those are valid for.
 */
export function referenceVersionSeen(): number | null {
  return referenceVersion
}

/** Reads the versions and notes them for the isolate; the reference version read (null on failure). */
async function readVersion(c: Context<AppEnv>): Promise<number | null> {
  if (c.var.config.API_UPSTREAM) {
    const slot = Math.floor(Date.now() / UPSTREAM_VERSION_MS)
    noteIndexVersion(slot)
    referenceVersion = slot
    return slot
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
    return referenceVersion
  } catch (err) {
    console.error(
      JSON.stringify({ requestId: c.var.requestId, msg: 'catalogue version read failed', err: String(err) }),
    )
    return null
  }
}

function learning(c: Context<AppEnv>): Learning {
  let entry = learned.get(c.req.raw)
  if (!entry) {
    const started: Learning = { read: readVersion(c), settled: false }
    started.read.finally(() => {
      started.settled = true
    })
    entry = started
    learned.set(c.req.raw, entry)
  }
  return entry
}

/** Makes sure this request has learned the current catalogue version (one read per request). */
export async function syncCatalogueVersion(c: Context<AppEnv>): Promise<void> {
  await learning(c).read
}

/** Lets this request (a page route's) read memoised reference data ahead of its version read. */
export function allowReadsAhead(c: Context<AppEnv>): void {
  readingAhead.set(c.req.raw, { reliedOn: undefined })
}

/**
 * True when this request may use a memoised reference read now, before its version read answered:
 * it is allowed to, its version read has not answered yet, and the isolate has seen a version. The
 * version read is started (not awaited) and the version relied on is recorded for the check.
 */
export function readAheadOfVersion(c: Context<AppEnv>): boolean {
  const ahead = readingAhead.get(c.req.raw)
  const seen = referenceVersion
  if (!ahead || seen === null) return false
  if (learned.get(c.req.raw)?.settled) return false
  learning(c)
  if (ahead.reliedOn === undefined) ahead.reliedOn = seen
  else if (ahead.reliedOn !== seen) ahead.reliedOn = 'mixed'
  return true
}

/**
 * Whether what this request read ahead of its version still holds: true when it read nothing
 * ahead, or the reference version its read found is the one relied on (a failed read keeps what
 * the isolate has, as for every request). False: build the answer again.
 */
export async function readsAheadHeld(c: Context<AppEnv>): Promise<boolean> {
  const ahead = readingAhead.get(c.req.raw)
  if (!ahead || ahead.reliedOn === undefined) return true
  const read = await learning(c).read
  return read === null || read === ahead.reliedOn
}

/** Ends reading ahead for this request: its later reads wait for the version, as everywhere else. */
export function stopReadsAhead(c: Context<AppEnv>): void {
  readingAhead.delete(c.req.raw)
}
