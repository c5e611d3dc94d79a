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
 * - Each memo is bounded by entries AND by bytes; the least recently used entries go first, and an
 *   entry larger than the whole byte budget is not kept. A memo that does not say how to count its
 *   values (`sizeOf`) is counted by `approxBytes` (a walk of the value) against DEFAULT_MAX_BYTES,
 *   so no cache of the isolate can grow without a byte bound. The sum of every memo's budget keeps
 *   the isolate's heap well under the Workers memory limit (docs/caches.md lists each budget).
 *
 * `memoTable()` lists every memo of the isolate with its budget and use (docs/caches.md has the
 * table of what is cached where); a debugger attached to the isolate reaches it as
 * `globalThis[Symbol.for('memo.table')]()` (the benchmark compares it with the measured heap).
 */

interface MemoOptions<V> {
  /** Name in the caches table. */
  name: string
  /** How long an entry is reused (Infinity: until its version changes or it is evicted). */
  ttlMs: number
  maxEntries: number
  /** Byte budget (DEFAULT_MAX_BYTES when not given). */
  maxBytes?: number
  /** An entry's bytes in the isolate's heap (approxBytes when not given). */
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
  /** Every entry still valid, least recently used first (reading them changes no entry's recency). */
  entries(now?: number): [string, V][]
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
  maxBytes: number
  ttlMs: number
  versioned: boolean
}

const registry = new Map<
  string,
  { stats: () => MemoStats; clear: () => void; resize: (maxBytes: number) => void }
>()

/** Byte budget of a memo that does not set its own. */
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024

/**
 * Heap bytes of a plain value as V8 lays it out on a 64-bit isolate with compressed pointers,
 * rounded up: a string 16 + 2 per character (two-byte strings; one-byte ones take half), a heap
 * number 16, an array or object 16 + 8 per slot or property (a property's name is shared by the
 * objects of one shape, so not counted), typed arrays their buffer + 64, maps and sets 32 per entry.
 * Strings and objects met twice are counted twice (an over-count, never an under-count).
 */
export function approxBytes(value: unknown, depth = 0): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 0
  if (typeof value === 'string') return 16 + 2 * value.length
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 30 ? 0 : 16
  if (typeof value !== 'object' || depth > 64) return 16
  if (ArrayBuffer.isView(value)) return value.byteLength + 64
  if (value instanceof Map) {
    let n = 64 + 32 * value.size
    for (const [k, v] of value) n += approxBytes(k, depth + 1) + approxBytes(v, depth + 1)
    return n
  }
  if (value instanceof Set) {
    let n = 64 + 32 * value.size
    for (const v of value) n += approxBytes(v, depth + 1)
    return n
  }
  if (Array.isArray(value)) {
    let n = 16 + 8 * value.length
    for (const v of value) n += approxBytes(v, depth + 1)
    return n
  }
  let n = 16
  for (const v of Object.values(value)) n += 8 + approxBytes(v, depth + 1)
  return n
}

/** Creates (and registers) a memo. Names are unique per isolate. */
export function createMemo<V>(opts: MemoOptions<V>): Memo<V> {
  const entries = new Map<string, Entry<V>>()
  let bytes = 0
  let maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES
  const sizeOf = opts.sizeOf ?? ((v: V) => approxBytes(v))
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
    entries(now = Date.now()) {
      const out: [string, V][] = []
      for (const [key, e] of entries) if (valid(e, now)) out.push([key, e.value])
      return out
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
    // Counted once, when kept (values are not changed in place afterwards).
    const size = sizeOf(value)
    if (size > maxBytes) return
    entries.set(key, { at: now, version, value, bytes: size })
    bytes += size
    trim()
  }

  function trim() {
    for (const k of entries.keys()) {
      if (entries.size <= opts.maxEntries && bytes <= maxBytes) break
      drop(k)
    }
  }

  registry.set(opts.name, {
    clear: memo.clear,
    resize(to) {
      maxBytes = to
      trim()
    },
    stats: () => ({
      name: opts.name,
      entries: entries.size,
      maxEntries: opts.maxEntries,
      bytes,
      maxBytes,
      ttlMs: opts.ttlMs,
      versioned: Boolean(opts.version),
    }),
  })
  return memo
}

/**
 * Sets a memo's byte budget (`undefined`: back to its own), dropping the least recently used
 * entries down to it. For an isolate that must give memory back, and for tests of the bounds.
 */
const ownBudgets = new Map<string, number>()
export function resizeMemo(name: string, maxBytes: number | undefined): void {
  const m = registry.get(name)
  if (!m) throw new Error(`no memo named ${name}`)
  if (!ownBudgets.has(name)) ownBudgets.set(name, m.stats().maxBytes)
  m.resize(maxBytes ?? (ownBudgets.get(name) as number))
}

/** Every memo of this isolate with its budget and current use. */
export function memoTable(): MemoStats[] {
  return [...registry.values()].map((m) => m.stats())
}
// Reachable from a debugger attached to the isolate (never from a request): the benchmark reads it
// next to the measured heap.
;(globalThis as Record<symbol, unknown>)[Symbol.for('memo.table')] = memoTable

/** Empties every memo of this isolate (tests; a purge). */
export function clearAllMemos(): void {
  for (const m of registry.values()) m.clear()
}
