/**
 * What the service worker may cache (pure, so the rules are unit-tested without a browser).
 * Never cache cart, order, user, gift card or wishlist calls,
 * nor checkout and account pages; catalogue GETs and images are stale-while-revalidate.
 */

/** API areas that are never cached (private or transactional). */
const PRIVATE_API = /^\/api\/(cart|order|user|giftcard|wishlist)(\/|$|\?)/
/** Pages that are never cached: checkout and the account area (optional store-code prefix). */
const PRIVATE_PAGE = /^(\/[a-z]{2})?\/(checkout|my-account)(\/|$)/

type CacheKind = 'page' | 'catalog' | 'image' | 'never' | 'none'

/** The caching rule for a same-origin GET (`document` = a navigation). */
export function cacheKindFor(pathname: string, isDocument: boolean): CacheKind {
  if (PRIVATE_API.test(pathname)) return 'never'
  if (pathname.startsWith('/api/catalog/')) return 'catalog'
  if (pathname.startsWith('/img/')) return 'image'
  if (pathname.startsWith('/api/')) return 'none'
  if (isDocument) return PRIVATE_PAGE.test(pathname) ? 'never' : 'page'
  return 'none'
}

/** Cache names carry the build id; everything else with our prefix is old and removed on activate. */
const CACHE_PREFIX = 'shop'

export function cacheNames(buildId: string) {
  return {
    pages: `${CACHE_PREFIX}-pages-${buildId}`,
    catalog: `${CACHE_PREFIX}-catalog-${buildId}`,
    images: `${CACHE_PREFIX}-images-${buildId}`,
  }
}

/** True for a cache of ours that belongs to another build (workbox precache names included). */
export function isOutdatedCache(name: string, buildId: string): boolean {
  return name.startsWith(`${CACHE_PREFIX}-`) && !name.endsWith(`-${buildId}`)
}

/** Network timeout of document navigations before the cached page is served. */
export const NAVIGATION_TIMEOUT_SECONDS = 3
/** Size limits of the runtime caches. */
export const CATALOG_CACHE_MAX_ENTRIES = 300
export const IMAGE_CACHE_MAX_ENTRIES = 400
export const PAGE_CACHE_MAX_ENTRIES = 60
export const RUNTIME_MAX_AGE_SECONDS = 14 * 24 * 60 * 60
export const OFFLINE_PAGE = '/offline.html'
/** The Background Sync queue / tag for orders. */
export const ORDER_SYNC_TAG = 'orderSync'
/** Messages between the page and the worker. */
export const SW_MESSAGES = {
  cacheUrls: 'CACHE_URLS',
  processOrders: 'process-order-queue',
} as const
/** Where the offline-order notification leads (VSF's SW extension opened the same URL). */
export const OFFLINE_ORDERS_URL = '/?order=offline'
export const OFFLINE_ORDERS_NOTIFICATION = 'You have orders waiting to be sent'
export const OFFLINE_ORDERS_NOTIFICATION_BODY = 'Open the shop to confirm or cancel them.'
