/**
 * The one per-isolate memo. Every module-level cache of the worker is one of these, so they share
 * one set of rules:
 *
 * - Only SETTLED values are kept. A promise is never shared between requests: workerd ties I/O to
 *   the request that started it, and when that request ends early (an error answered, a client
 *   gone) its unfinished reads never settle — a shared promise would hang every later request.
 *   Concurrent misses of one key each load once; the last to finish is kept.
 * - Failed loads are not kept.
 * - Invalidation: an entry of catalogue data is valid only while the catalogue (search index)
 *   version it was read under is still the current one (`version: indexVersionSeen`; every
 *   catalogue write bumps it, and a request that reads catalogue data first learns the current
 *   version, see worker/platform/catalogue-version.ts). `ttlMs` is for data that is not catalogue
 *   data (Infinity for catalogue data).
 * - Each memo is bounded by entries and, when `sizeOf` is given, by bytes; the least recently used
 *   entries go first.
 *
 * `memoTable()` lists every memo of the isolate with its budget and use (docs/caches.md has the
 * table of what is cached where).
 */

interface MemoOptions<V> {
  /** Name in the caches table. */
  name: string
  /** How long an entry is reused (Infinity: until its version changes or it is evicted). */
  ttlMs: number
  maxEntries: number
  /** Byte budget, with `sizeOf` estimating an entry's bytes. */
  maxBytes?: number
  sizeOf?: (value: V) => number
  /** The version an entry is valid for (e.g. the search index version this isolate last read). */
  version?: () => number | null
}

interface Entry<V> {
  at: number
  version: number | null
  value: V
  bytes: number
}

interface Memo<V> {
  /** The kept value of `key`, or `load()` (kept when it resolves). */
  get(key: string, load: () => Promise<V>, now?: number): Promise<V>
  /** The kept value of `key` if still valid, without loading. */
  peek(key: string, now?: number): V | undefined
  set(key: string, value: V, now?: number): void
  delete(key: string): void
  clear(): void
  readonly size: number
  readonly bytes: number
}

interface MemoStats {
  name: string
  entries: number
  maxEntries: number
  bytes: number
  maxBytes: number | null
  ttlMs: number
  versioned: boolean
}

const registry = new Map<string, { stats: () => MemoStats; clear: () => void }>()

/** Creates (and registers) a memo. Names are unique per isolate. */
export function createMemo<V>(opts: MemoOptions<V>): Memo<V> {
  const entries = new Map<string, Entry<V>>()
  let bytes = 0
  const currentVersion = () => (opts.version ? opts.version() : null)

  const drop = (key: string) => {
    const e = entries.get(key)
    if (!e) return
    bytes -= e.bytes
    entries.delete(key)
  }
  const valid = (e: Entry<V>, now: number) =>
    now - e.at < opts.ttlMs && (!opts.version || e.version === currentVersion())

  const memo: Memo<V> = {
    async get(key, load, now = Date.now()) {
      const hit = memo.peek(key, now)
      if (hit !== undefined) return hit
      const version = currentVersion()
      const value = await load()
      // Kept under the version it was loaded for: a version read meanwhile makes it stale at once.
      put(key, value, now, version)
      return value
    },
    peek(key, now = Date.now()) {
      const e = entries.get(key)
      if (!e) return undefined
      if (!valid(e, now)) {
        drop(key)
        return undefined
      }
      // Recently used entries move to the end (eviction takes the front).
      entries.delete(key)
      entries.set(key, e)
      return e.value
    },
    set(key, value, now = Date.now()) {
      put(key, value, now, currentVersion())
    },
    delete: drop,
    clear() {
      entries.clear()
      bytes = 0
    },
    get size() {
      return entries.size
    },
    get bytes() {
      return bytes
    },
  }

  function put(key: string, value: V, now: number, version: number | null) {
    drop(key)
    const size = opts.sizeOf ? opts.sizeOf(value) : 0
    if (opts.maxBytes !== undefined && size > opts.maxBytes) return
    entries.set(key, { at: now, version, value, bytes: size })
    bytes += size
    for (const k of entries.keys()) {
      if (entries.size <= opts.maxEntries && (opts.maxBytes === undefined || bytes <= opts.maxBytes)) break
      drop(k)
    }
  }

  registry.set(opts.name, {
    clear: memo.clear,
    stats: () => ({
      name: opts.name,
      entries: entries.size,
      maxEntries: opts.maxEntries,
      bytes,
      maxBytes: opts.maxBytes ?? null,
      ttlMs: opts.ttlMs,
      versioned: Boolean(opts.version),
    }),
  })
  return memo
}

/** Every memo of this isolate with its budget and current use. */
export function memoTable(): MemoStats[] {
  return [...registry.values()].map((m) => m.stats())
}

/** Empties every memo of this isolate (tests; a purge). */
export function clearAllMemos(): void {
  for (const m of registry.values()) m.clear()
}
