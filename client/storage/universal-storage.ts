/**
 * A collection (localForage-like API) over IndexedDB that never hangs the shop (VSF's
 * UniversalStorage without its bugs): every read/write is bounded by 800 ms (iteration
 * 2000 ms); a time-out or failure is counted and a time-out recreates the database; reads are
 * disabled after 1 error and writes after 30, after which the in-memory mirror serves them so the
 * shop keeps working. QuotaExceeded clears the non-preserved collections and retries once.
 */
import { type Clock, systemClock, TimeoutError, withTimeout } from './clock'
import {
  STORAGE_ITERATION_TIMEOUT_MS,
  STORAGE_MAX_READ_ERRORS,
  STORAGE_MAX_WRITE_ERRORS,
  STORAGE_TIMEOUT_MS,
} from './limits'
import type { ShopDatabase } from './shop-database'

/** The persistence under a collection; IndexedDB in the browser, injectable in tests. */
export interface StorageBackend {
  get(key: string): Promise<unknown>
  put(key: string, value: unknown): Promise<void>
  delete(key: string): Promise<void>
  clear(): Promise<void>
  /** All [key, value] pairs in key order. */
  entries(): Promise<[string, unknown][]>
  /** Called after a time-out: recreate the underlying database. */
  recreate(): Promise<void>
}

/** StorageBackend over one object store of the shop database. */
export function idbBackend(database: ShopDatabase, collection: string): StorageBackend {
  database.addCollection(collection)
  const store = database.storeName(collection)
  return {
    async get(key) {
      return (await database.db()).get(store, key)
    },
    async put(key, value) {
      await (await database.db()).put(store, value, key)
    },
    async delete(key) {
      await (await database.db()).delete(store, key)
    },
    async clear() {
      await (await database.db()).clear(store)
    },
    async entries() {
      const db = await database.db()
      const tx = db.transaction(store, 'readonly')
      const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()])
      await tx.done
      return keys.map((k, i) => [String(k), values[i]] as [string, unknown])
    },
    recreate: () => database.recreate(),
  }
}

export interface UniversalStorageOptions {
  clock?: Clock
  timeoutMs?: number
  iterationTimeoutMs?: number
  maxReadErrors?: number
  maxWriteErrors?: number
  /** Serve reads from the memory mirror first (catalogue cache). */
  memoryFirst?: boolean
  /** Frees space when the browser reports QuotaExceeded; the write is retried once afterwards. */
  onQuotaExceeded?: () => Promise<void>
}

function isQuotaExceeded(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED'
}

export class UniversalStorage<T = unknown> {
  readonly collection: string
  private readonly backend: StorageBackend
  private readonly clock: Clock
  private readonly opts: Required<Omit<UniversalStorageOptions, 'onQuotaExceeded' | 'clock'>>
  private readonly onQuotaExceeded?: () => Promise<void>
  /** The in-memory mirror: every write lands here first. */
  private readonly memory = new Map<string, T>()
  /** Keys whose latest write has not reached IndexedDB: the mirror is authoritative for them. */
  private readonly unsaved = new Set<string>()
  /** Keys removed in memory whose removal did not reach IndexedDB. */
  private readonly removed = new Set<string>()
  private clearedInMemory = false
  readErrors = 0
  writeErrors = 0

  constructor(collection: string, backend: StorageBackend, opts: UniversalStorageOptions = {}) {
    this.collection = collection
    this.backend = backend
    this.clock = opts.clock ?? systemClock
    this.onQuotaExceeded = opts.onQuotaExceeded
    this.opts = {
      timeoutMs: opts.timeoutMs ?? STORAGE_TIMEOUT_MS,
      iterationTimeoutMs: opts.iterationTimeoutMs ?? STORAGE_ITERATION_TIMEOUT_MS,
      maxReadErrors: opts.maxReadErrors ?? STORAGE_MAX_READ_ERRORS,
      maxWriteErrors: opts.maxWriteErrors ?? STORAGE_MAX_WRITE_ERRORS,
      memoryFirst: opts.memoryFirst ?? false,
    }
  }

  get readsDisabled(): boolean {
    return this.readErrors >= this.opts.maxReadErrors
  }

  get writesDisabled(): boolean {
    return this.writeErrors >= this.opts.maxWriteErrors
  }

  private failed(kind: 'read' | 'write', err: unknown): void {
    if (kind === 'read') this.readErrors++
    else this.writeErrors++
    if (err instanceof TimeoutError) {
      console.warn(`[storage] ${this.collection}: cache not responding (${kind}); recreating the database`)
      void this.backend.recreate()
    } else {
      console.warn(`[storage] ${this.collection}: ${kind} failed`, err)
    }
  }

  private fromMemory(key: string): T | null {
    return this.memory.has(key) ? (this.memory.get(key) as T) : null
  }

  /** The value stored under `key`, or null. Never rejects and never waits more than the time-out. */
  async getItem(key: string): Promise<T | null> {
    if (this.unsaved.has(key) || this.removed.has(key) || this.clearedInMemory) return this.fromMemory(key)
    if (this.opts.memoryFirst && this.memory.has(key)) return this.fromMemory(key)
    if (this.readsDisabled) return this.fromMemory(key)
    try {
      const value = await withTimeout(this.backend.get(key), this.opts.timeoutMs, this.clock)
      if (value === undefined || value === null) return this.fromMemory(key)
      this.memory.set(key, value as T)
      return value as T
    } catch (err) {
      this.failed('read', err)
      return this.fromMemory(key)
    }
  }

  /** Stores `value`; the mirror always has it, IndexedDB when it answers. Never rejects. */
  async setItem(key: string, value: T): Promise<void> {
    this.memory.set(key, value)
    this.removed.delete(key)
    if (this.writesDisabled) {
      this.unsaved.add(key)
      return
    }
    const ok = await this.write(() => this.backend.put(key, value))
    if (ok) {
      this.unsaved.delete(key)
      // IndexedDB answers again (e.g. after a recreate): persist what only memory holds (VSF #1335).
      if (this.unsaved.size || this.removed.size) await this.flushUnsaved()
    } else this.unsaved.add(key)
  }

  /** True when IndexedDB holds the last change made to `key`: its value, or its removal. */
  hasSaved(key: string): boolean {
    return !this.unsaved.has(key) && !this.removed.has(key) && !this.clearedInMemory
  }

  private flushing = false

  /** Writes the keys only the memory mirror holds, and pending removals. */
  async flushUnsaved(): Promise<void> {
    if (this.flushing || this.writesDisabled || this.clearedInMemory) return
    this.flushing = true
    try {
      for (const key of [...this.unsaved]) {
        if (!this.memory.has(key)) continue
        const value = this.memory.get(key)
        if (await this.write(() => this.backend.put(key, value))) this.unsaved.delete(key)
        else return
      }
      for (const key of [...this.removed]) {
        if (await this.write(() => this.backend.delete(key))) this.removed.delete(key)
        else return
      }
    } finally {
      this.flushing = false
    }
  }

  async removeItem(key: string): Promise<void> {
    this.memory.delete(key)
    this.unsaved.delete(key)
    if (this.writesDisabled) {
      this.removed.add(key)
      return
    }
    const ok = await this.write(() => this.backend.delete(key))
    if (ok) this.removed.delete(key)
    else this.removed.add(key)
  }

  async clear(): Promise<void> {
    this.memory.clear()
    this.unsaved.clear()
    this.removed.clear()
    if (this.writesDisabled) {
      this.clearedInMemory = true
      return
    }
    const ok = await this.write(() => this.backend.clear())
    this.clearedInMemory = !ok
  }

  /** Drops the memory mirror only (after another party cleared IndexedDB). */
  forgetMemory(): void {
    this.memory.clear()
    this.unsaved.clear()
    this.removed.clear()
    this.clearedInMemory = false
  }

  private async write(op: () => Promise<void>, retried = false): Promise<boolean> {
    try {
      await withTimeout(op(), this.opts.timeoutMs, this.clock)
      return true
    } catch (err) {
      if (!retried && isQuotaExceeded(err) && this.onQuotaExceeded) {
        console.warn(`[storage] ${this.collection}: quota exceeded, clearing non-preserved collections`)
        await this.onQuotaExceeded()
        return this.write(op, true)
      }
      this.failed('write', err)
      return false
    }
  }

  /** All entries (IndexedDB merged with the mirror), in key order; bounded by the iteration time-out. */
  async entries(): Promise<[string, T][]> {
    const merged = new Map<string, T>()
    if (!this.readsDisabled && !this.clearedInMemory) {
      try {
        const rows = await withTimeout(this.backend.entries(), this.opts.iterationTimeoutMs, this.clock)
        for (const [k, v] of rows) if (!this.removed.has(k)) merged.set(k, v as T)
      } catch (err) {
        this.failed('read', err)
      }
    }
    for (const [k, v] of this.memory) merged.set(k, v)
    return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  }

  async keys(): Promise<string[]> {
    return (await this.entries()).map(([k]) => k)
  }

  /** localForage-style iterate: calls fn(value, key, index) for every entry. */
  async iterate(fn: (value: T, key: string, index: number) => void): Promise<void> {
    const rows = await this.entries()
    for (const [i, [k, v]] of rows.entries()) fn(v, k, i + 1)
  }
}
