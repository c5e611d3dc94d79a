/**
 * The output cache's tag index in D1: which cached page carries which tag (the page type and its
 * entities, P{sku} / C{id}), so a purge by tag reaches every copy, and rows older than a page can
 * live are pruned now and then.
 */
import { edgeCache } from '../runtime'
import { keyRequest } from './key'
import { FRESH_SECONDS, STALE_SECONDS } from './lifetimes'
import { forgetPage } from './memory'

/**
 * Records that the page stored under `key` carries `tags`, and answers whether one of them was
 * purged at or after `renderedFrom` (when the page's render began): such a page may hold what the
 * purge was for, so the caller drops it. Marks and purges are ordered in D1 (see purgeTag): a purge
 * either finds this page's rows and deletes the page, or was marked before they were written and
 * is seen here.
 */
export async function recordTags(
  db: D1Database,
  key: string,
  tags: string[],
  now: number,
  renderedFrom: number = now,
): Promise<boolean> {
  const results = await db.batch([
    ...tags.map((tag) =>
      db
        .prepare(
          'INSERT INTO output_cache_tags (tag, cache_key, created_at) VALUES (?, ?, ?) ON CONFLICT (tag, cache_key) DO UPDATE SET created_at = excluded.created_at',
        )
        .bind(tag, key, now),
    ),
    db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM output_cache_purges WHERE purged_at >= ?1 AND tag IN (SELECT value FROM json_each(?2))) AS purged`,
      )
      .bind(renderedFrom, JSON.stringify(tags)),
  ])
  // Every distinct URL (search terms, filter combinations, tracking parameters) adds rows: now and
  // then, drop those whose pages the Cache API has expired anyway.
  if (Math.random() < PRUNE_PROBABILITY) await pruneTagIndex(db, now)
  return (results[tags.length]?.results[0] as { purged?: number } | undefined)?.purged === 1
}

/** Share of cache stores that also prune the tag index. */
const PRUNE_PROBABILITY = 0.01

/**
 * Deletes tag rows older than a cached page can live (FRESH + STALE), and purge marks older than
 * that (no render still running began before them); returns how many tag rows went.
 */
export async function pruneTagIndex(db: D1Database, now = Date.now()): Promise<number> {
  const before = now - (FRESH_SECONDS + STALE_SECONDS) * 1000
  const [res] = await db.batch([
    db.prepare('DELETE FROM output_cache_tags WHERE created_at < ?').bind(before),
    db.prepare('DELETE FROM output_cache_purges WHERE purged_at < ?').bind(before),
  ])
  return res?.meta.changes ?? 0
}

/**
 * Deletes every cached page carrying `tag`; returns how many entries were purged. The purge is
 * marked first, in the same batch that lists the pages, so a page whose render is still running
 * is either listed here or sees the mark when it is stored (recordTags) and is not kept.
 */
export async function purgeTag(db: D1Database, tag: string): Promise<number> {
  const [, listed] = await db.batch([
    db
      .prepare(
        'INSERT INTO output_cache_purges (tag, purged_at) VALUES (?1, ?2) ON CONFLICT (tag) DO UPDATE SET purged_at = max(purged_at, excluded.purged_at)',
      )
      .bind(tag, Date.now()),
    db.prepare('SELECT cache_key FROM output_cache_tags WHERE tag = ?').bind(tag),
  ])
  const results = (listed?.results ?? []) as { cache_key: string }[]
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
