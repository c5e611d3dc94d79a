/**
 * Writing prepared seed output into a shop's stores from inside workerd: SQL into D1 in atomic
 * batches, URL mappings into KV. Kept apart from the generator so a caller that already holds the
 * SQL (the worker tests, given it as a binding) loads nothing else.
 */
import type { UrlMapping } from '../../../worker/catalog/url-map'

/** Runs SQL statements in D1 batches of at most about 1 MB (each batch is atomic). */
export async function runSql(db: D1Database, sql: readonly string[]): Promise<void> {
  let batch: D1PreparedStatement[] = []
  let bytes = 0
  for (const s of sql) {
    if (batch.length && bytes + s.length > 1_000_000) {
      await db.batch(batch)
      batch = []
      bytes = 0
    }
    batch.push(db.prepare(s))
    bytes += s.length
  }
  if (batch.length) await db.batch(batch)
}

/** Writes KV URL mappings (key = path without slashes, value = JSON; see catalog/url-map.ts). */
export async function putUrlMappings(
  kv: KVNamespace,
  mappings: ReadonlyArray<readonly [string, UrlMapping]>,
): Promise<void> {
  const CONCURRENCY = 50
  for (let i = 0; i < mappings.length; i += CONCURRENCY) {
    await Promise.all(mappings.slice(i, i + CONCURRENCY).map(([k, v]) => kv.put(k, JSON.stringify(v))))
  }
}
