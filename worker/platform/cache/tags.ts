/**
 * The output cache's tag index in D1: which cached page carries which tag (the page type and its
 * entities, P{sku} / C{id}), so a purge by tag reaches every copy, and rows older than a page can
 * live are pruned now and then.
 */
import { edgeCache } from '../runtime'
import { keyRequest } from './key'
import { FRESH_SECONDS, STALE_SECONDS } from './lifetimes'
import { forgetPage } from './memory'

/** Records that the page stored under `key` carries `tags`. */
export async function recordTags(db: D1Database, key: string, tags: string[], now: number): Promise<void> {
  await db.batch(
    tags.map((tag) =>
      db
        .prepare(
          'INSERT INTO output_cache_tags (tag, cache_key, created_at) VALUES (?, ?, ?) ON CONFLICT (tag, cache_key) DO UPDATE SET created_at = excluded.created_at',
        )
        .bind(tag, key, now),
    ),
  )
  // Every distinct URL (search terms, filter combinations, tracking parameters) adds rows: now and
  // then, drop those whose pages the Cache API has expired anyway.
  if (Math.random() < PRUNE_PROBABILITY) await pruneTagIndex(db, now)
}

/** Share of cache stores that also prune the tag index. */
const PRUNE_PROBABILITY = 0.01

/** Deletes tag rows older than a cached page can live (FRESH + STALE); returns how many. */
export async function pruneTagIndex(db: D1Database, now = Date.now()): Promise<number> {
  const res = await db
    .prepare('DELETE FROM output_cache_tags WHERE created_at < ?')
    .bind(now - (FRESH_SECONDS + STALE_SECONDS) * 1000)
    .run()
  return res.meta.changes ?? 0
}

/** Deletes every cached page carrying `tag`; returns how many entries were purged. */
export async function purgeTag(db: D1Database, tag: string): Promise<number> {
  const { results } = await db
    .prepare('SELECT cache_key FROM output_cache_tags WHERE tag = ?')
    .bind(tag)
    .all<{ cache_key: string }>()
  const keys = results.map((r) => r.cache_key)
  for (const k of keys) forgetPage(k)
  await Promise.all(keys.map((k) => edgeCache().delete(keyRequest(k))))
  if (keys.length) {
    // A purged page is gone under every tag it had.
    for (let i = 0; i < keys.length; i += 50) {
      const chunk = keys.slice(i, i + 50)
      await db
        .prepare(`DELETE FROM output_cache_tags WHERE cache_key IN (${chunk.map(() => '?').join(',')})`)
        .bind(...chunk)
        .run()
    }
  }
  return keys.length
}
