/**
 * The catalogue query cache: results are kept locally by the hash of the request and served from
 * the cache first, within a storage quota. Keys are the hash of the request (store, entity,
 * query, size, from, sort, include/exclude, groupId — never the group token). A hit is returned
 * with `cache: true` and `offline` set from the online flag; a failed fetch returns an empty
 * result flagged offline. Every 30 s the rough size is estimated (strings 2 bytes/char) and when
 * over 4096 KB the entries with an index below 100 are purged, iterating oldest first (VSF purged
 * the first 100 keys in key order and called it LRU; ordering by storage time makes it so).
 */
import { hashValue } from '@shared/domain/cart-hash'
import { type Clock, systemClock } from './clock'
import { CATALOG_CACHE_PURGE_COUNT, CATALOG_CACHE_QUOTA_CHECK_MS, CATALOG_CACHE_QUOTA_KB } from './limits'
import type { UniversalStorage } from './universal-storage'

interface CachedEntry<R> {
  stored_at: number
  value: R
}

type CacheFlags = { cache?: boolean; offline?: boolean; noresults?: boolean }

/** Rough size in bytes of a JSON-able value: strings 2 bytes per char, numbers 8, booleans 4. */
export function roughSizeOfObject(value: unknown): number {
  let bytes = 0
  const stack: unknown[] = [value]
  const seen = new Set<object>()
  while (stack.length) {
    const v = stack.pop()
    if (typeof v === 'string') bytes += v.length * 2
    else if (typeof v === 'number') bytes += 8
    else if (typeof v === 'boolean') bytes += 4
    else if (v && typeof v === 'object' && !seen.has(v)) {
      seen.add(v)
      for (const [k, child] of Object.entries(v)) {
        bytes += k.length * 2
        stack.push(child)
      }
    }
  }
  return bytes
}

/** The cache key of a catalogue request. */
function catalogRequestKey(request: Record<string, unknown>): string {
  const { groupToken: _omit, ...rest } = request
  return hashValue(rest)
}

interface CatalogCacheOptions {
  clock?: Clock
  isOnline?: () => boolean
  quotaKB?: number
  purgeCount?: number
}

export function createCatalogCache<R extends object>(
  storage: UniversalStorage<CachedEntry<R>>,
  opts: CatalogCacheOptions = {},
) {
  const clock = opts.clock ?? systemClock
  const isOnline = opts.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine))
  const quotaBytes = (opts.quotaKB ?? CATALOG_CACHE_QUOTA_KB) * 1024
  const purgeCount = opts.purgeCount ?? CATALOG_CACHE_PURGE_COUNT

  /** Cache-first search: a stored result by request hash, else `fetcher()` stored for next time. */
  async function search(
    request: Record<string, unknown>,
    fetcher: () => Promise<R>,
    empty: () => R,
  ): Promise<R & CacheFlags> {
    const key = catalogRequestKey(request)
    const hit = await storage.getItem(key)
    if (hit) return { ...hit.value, cache: true, offline: !isOnline() }
    try {
      const value = await fetcher()
      await storage.setItem(key, { stored_at: clock.now(), value })
      return value
    } catch (err) {
      console.warn('[catalog-cache] search failed; returning an empty offline result', err)
      return { ...empty(), offline: true, noresults: true }
    }
  }

  /** Estimates the size; over quota → purge the `purgeCount` oldest entries. Returns the purged keys. */
  async function enforceQuota(): Promise<string[]> {
    const rows = await storage.entries()
    const size = rows.reduce((sum, [k, v]) => sum + k.length * 2 + roughSizeOfObject(v), 0)
    if (size <= quotaBytes) return []
    const byAge = rows.sort(([, a], [, b]) => (a?.stored_at ?? 0) - (b?.stored_at ?? 0))
    const purged = byAge.filter((_, index) => index < purgeCount).map(([k]) => k)
    for (const k of purged) await storage.removeItem(k)
    return purged
  }

  /** Starts the 30 s quota check; returns a stop function. */
  function startQuotaWatch(intervalMs = CATALOG_CACHE_QUOTA_CHECK_MS): () => void {
    const handle = clock.setInterval(() => {
      enforceQuota().catch((err) => console.warn('[catalog-cache] quota check failed', err))
    }, intervalMs)
    return () => clock.clearInterval(handle)
  }

  return { search, enforceQuota, startQuotaWatch }
}
