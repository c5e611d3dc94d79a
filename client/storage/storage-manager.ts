/**
 * The shop's storage: one ShopDatabase per store code and one UniversalStorage per collection.
 * QuotaExceeded in any collection clears every collection except cart, user and orders.
 */
import { currentApiContext } from '../api'
import { type Clock, systemClock } from './clock'
import { PRESERVED_COLLECTIONS } from './limits'
import { ShopDatabase } from './shop-database'
import {
  idbBackend,
  type StorageBackend,
  UniversalStorage,
  type UniversalStorageOptions,
} from './universal-storage'

interface StorageManagerOptions {
  storeCode: string
  clock?: Clock
  /** Test hook: the backend of a collection (defaults to IndexedDB). */
  backendFor?: (collection: string, database: ShopDatabase) => StorageBackend
  preserved?: readonly string[]
}

export class StorageManager {
  readonly database: ShopDatabase
  private readonly clock: Clock
  private readonly collections = new Map<string, UniversalStorage<unknown>>()
  private readonly backendFor: (collection: string, database: ShopDatabase) => StorageBackend
  private readonly preserved: Set<string>

  constructor(opts: StorageManagerOptions) {
    this.clock = opts.clock ?? systemClock
    this.database = new ShopDatabase({ storeCode: opts.storeCode, clock: this.clock })
    this.backendFor = opts.backendFor ?? ((c, db) => idbBackend(db, c))
    this.preserved = new Set(opts.preserved ?? PRESERVED_COLLECTIONS)
  }

  /** The collection's storage (created once). */
  get<T = unknown>(
    collection: string,
    opts: Omit<UniversalStorageOptions, 'clock' | 'onQuotaExceeded'> = {},
  ) {
    let storage = this.collections.get(collection)
    if (!storage) {
      storage = new UniversalStorage(collection, this.backendFor(collection, this.database), {
        ...opts,
        clock: this.clock,
        onQuotaExceeded: () => this.clearNonPreserved(),
      })
      this.collections.set(collection, storage)
    }
    return storage as UniversalStorage<T>
  }

  private clearing: Promise<void> | null = null

  /** Clears every opened collection that is not preserved (cart, user, orders). */
  clearNonPreserved(): Promise<void> {
    if (!this.clearing) {
      this.clearing = (async () => {
        for (const [name, storage] of this.collections) {
          if (this.preserved.has(name)) continue
          await storage.clear()
        }
      })().finally(() => {
        this.clearing = null
      })
    }
    return this.clearing
  }
}

let defaultManager: StorageManager | null = null

/** The page's storage manager for the current store code. */
export function storageManager(): StorageManager {
  if (!defaultManager) defaultManager = new StorageManager({ storeCode: currentApiContext().storeCode })
  return defaultManager
}

/** Shorthand for `storageManager().get(collection)`. */
export function collection<T = unknown>(name: string): UniversalStorage<T> {
  return storageManager().get<T>(name, name === 'elasticCache' ? { memoryFirst: true } : {})
}
