/**
 * One IndexedDB database per store (`<storeCode>-shop`), one object store per collection named
 * with the store-code prefix (`<storeCode>-cart`, ...). Opening is lazy; a collection the open
 * database lacks is created by reopening with version+1. `recreate()` is what the storage wrapper
 * calls when IndexedDB stops answering (VSF #1335): close, reopen with version+1, and if even that
 * fails or hangs, delete the database and open it fresh.
 */
import { deleteDB, type IDBPDatabase, openDB } from 'idb'
import { type Clock, systemClock, withTimeout } from './clock'
import { COLLECTIONS, STORAGE_TIMEOUT_MS, storageKey } from './limits'

interface ShopDatabaseOptions {
  storeCode: string
  collections?: readonly string[]
  clock?: Clock
  /** Bound for opening the database (an open can be blocked by another tab forever). */
  openTimeoutMs?: number
}

export class ShopDatabase {
  readonly name: string
  readonly storeCode: string
  private readonly collections: Set<string>
  private readonly clock: Clock
  private readonly openTimeoutMs: number
  private opening: Promise<IDBPDatabase> | null = null
  private handle: IDBPDatabase | null = null
  /** How many times the database was recreated after a time-out (for diagnostics and tests). */
  recreations = 0

  constructor(opts: ShopDatabaseOptions) {
    this.storeCode = opts.storeCode
    this.name = `${opts.storeCode}-shop`
    this.collections = new Set(opts.collections ?? COLLECTIONS)
    this.clock = opts.clock ?? systemClock
    this.openTimeoutMs = opts.openTimeoutMs ?? STORAGE_TIMEOUT_MS * 4
  }

  /** The object store name of a collection: the store code prefixes it. */
  storeName(collection: string): string {
    return storageKey(this.storeCode, collection)
  }

  /** Registers a collection; it is created on the next open if the database lacks it. */
  addCollection(collection: string): void {
    if (this.collections.has(collection)) return
    this.collections.add(collection)
    if (this.handle && !this.handle.objectStoreNames.contains(this.storeName(collection))) {
      this.closeHandle()
    }
  }

  /** The open database, opening (and upgrading) it when needed. */
  db(): Promise<IDBPDatabase> {
    if (this.handle) return Promise.resolve(this.handle)
    if (!this.opening) {
      this.opening = withTimeout(this.open(), this.openTimeoutMs, this.clock).then(
        (db) => {
          this.opening = null
          this.handle = db
          return db
        },
        (err) => {
          this.opening = null
          throw err
        },
      )
    }
    return this.opening
  }

  private async open(version?: number): Promise<IDBPDatabase> {
    const wanted = [...this.collections].map((c) => this.storeName(c))
    const callbacks = {
      upgrade: (db: IDBPDatabase) => {
        for (const name of wanted) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name)
      },
      // Another tab wants to upgrade: let it, we reopen lazily.
      blocking: () => this.closeHandle(),
      terminated: () => {
        this.handle = null
      },
    }
    const db = await openDB(this.name, version, callbacks)
    const missing = wanted.some((name) => !db.objectStoreNames.contains(name))
    if (!missing) return db
    const next = db.version + 1
    db.close()
    return openDB(this.name, next, callbacks)
  }

  private closeHandle(): void {
    const h = this.handle
    this.handle = null
    try {
      h?.close()
    } catch {
      /* already closed */
    }
  }

  private recreating: Promise<void> | null = null

  /** Recreates the database after a time-out: version+1, else delete and reopen. Never rejects. */
  recreate(): Promise<void> {
    if (this.recreating) return this.recreating
    this.recreations++
    this.recreating = (async () => {
      const previous = this.handle
      this.closeHandle()
      this.opening = null
      try {
        const version = (previous?.version ?? 1) + 1
        this.handle = await withTimeout(this.open(version), this.openTimeoutMs, this.clock)
      } catch (err) {
        console.warn(`[storage] reopening ${this.name} failed, deleting it`, err)
        try {
          await withTimeout(deleteDB(this.name), this.openTimeoutMs, this.clock)
          this.handle = await withTimeout(this.open(), this.openTimeoutMs, this.clock)
        } catch (err2) {
          console.error(`[storage] ${this.name} could not be recreated; using memory only`, err2)
        }
      } finally {
        this.recreating = null
      }
    })()
    return this.recreating
  }

  /** Closes the connection (tests, page unload). */
  close(): void {
    this.closeHandle()
  }
}
