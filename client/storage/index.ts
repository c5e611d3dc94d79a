/** Client persistence: IndexedDB collections that never hang, the catalogue cache, claims, cookies. */
export { catalogRequestKey, createCatalogCache, roughSizeOfObject } from './catalog-cache'
export { type Claim, createClaims } from './claims'
export { type Clock, systemClock } from './clock'
export { getCookie, setCookie } from './cookies'
export { ShopDatabase } from './shop-database'
export { collection, StorageManager, setStorageManager, storageManager } from './storage-manager'
export { idbBackend, type StorageBackend, UniversalStorage } from './universal-storage'
