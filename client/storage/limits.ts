/** Limits of the browser storage: time-outs, error limits, the catalogue cache quota, the collections. */

/** "Persistent cache reads or writes not answering within 800 ms ... are counted and the cache database is recreated." */
export const STORAGE_TIMEOUT_MS = 800
/** "(iteration 2000 ms)" */
export const STORAGE_ITERATION_TIMEOUT_MS = 2000
/** "Reads are disabled after 1 error ..." */
export const STORAGE_MAX_READ_ERRORS = 1
/** "... and writes after 30." */
export const STORAGE_MAX_WRITE_ERRORS = 30
/** "Storage cache quota 4096 KB, checked every 30 s." */
export const CATALOG_CACHE_QUOTA_KB = 4096
export const CATALOG_CACHE_QUOTA_CHECK_MS = 30_000
/** "On exceed, entries with an index below 100 are purged." */
export const CATALOG_CACHE_PURGE_COUNT = 100

/** Collections kept when the browser reports QuotaExceeded (VSF's preserveCollections + orders). */
export const PRESERVED_COLLECTIONS = ['cart', 'user', 'orders'] as const

/** Every collection the shop uses; each is an object store named `<storeCode>-<collection>`. */
export const COLLECTIONS = [
  'cart',
  'user',
  'orders',
  'syncTasks',
  'checkout',
  'claims',
  'elasticCache',
  'wishlist',
  'compare',
  'recentlyViewed',
  'newsletter',
] as const

/** The object store of a collection: its name prefixed with the store code (one shop per store view). */
export function storageKey(storeCode: string, collection: string): string {
  return `${storeCode}-${collection}`
}
