/** Storage, cache and CMS limits (catalogue spec §9, transactions spec §9). */

/** "Recently viewed maximum 20." */
export const RECENTLY_VIEWED_MAX = 20
/** "Wishlist default quantity 1." */
export const WISHLIST_DEFAULT_QTY = 1
/** "Max 500 CMS blocks and 500 CMS pages." */
export const CMS_BLOCKS_MAX = 500
export const CMS_PAGES_MAX = 500
/** "Storage cache quota 4096 KB, checked every 30 s. On exceed, entries with an index below 100 are purged." */
export const STORAGE_QUOTA_KB = 4096
export const STORAGE_QUOTA_CHECK_MS = 30_000
export const STORAGE_PURGE_INDEX_BELOW = 100
/** "Persistent cache reads or writes not answering within 800 ms (iteration 2000 ms) are counted and the cache database is recreated." */
export const CACHE_OP_TIMEOUT_MS = 800
export const CACHE_ITERATION_TIMEOUT_MS = 2000
/** "Reads are disabled after 1 error and writes after 30." */
export const CACHE_READ_ERROR_LIMIT = 1
export const CACHE_WRITE_ERROR_LIMIT = 30
/** "Cookies are set with path / and optional expiry in days." */
export const COOKIE_PATH = '/'
/** "Order queue and user data are kept in local browser storage with store-code prefixes." */
export function storageKey(storeCode: string, collection: string): string {
  return `${storeCode}-${collection}`
}
