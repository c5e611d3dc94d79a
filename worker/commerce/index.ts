/**
 * The Commerce port: `getCommerce(c)` returns the adapter for this request. With API_UPSTREAM set
 * it is the `upstream` adapter (HTTP to vue-storefront-api with the store and price headers, 5000 ms
 * time-out); otherwise the `embedded` adapter (D1/KV in-process). Page loaders use only this.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../platform/env'
import { createMemo } from '../platform/memo'
import { indexVersionSeen } from '../search'
import { createEmbeddedCommerce } from './embedded'
import type { Commerce } from './types'
import { createUpstreamCommerce } from './upstream'

export type * from './types'
export { createEmbeddedCommerce, createUpstreamCommerce }

const cache = new WeakMap<Context<AppEnv>, Commerce>()

/** How long an isolate reuses rarely changing catalogue data (attributes, tax rules, home data, category lookups). */
export const MEMO_TTL_MS = 60_000

/** Most memoised reads per isolate (the memo is emptied when full). */
export const MEMO_MAX_ENTRIES = 1000

const memo = createMemo<unknown>({
  name: 'commerce reads',
  ttlMs: MEMO_TTL_MS,
  maxEntries: MEMO_MAX_ENTRIES,
  version: indexVersionSeen,
})

/**
 * Per-isolate memo of an adapter read: reused for MEMO_TTL_MS while the search index version this
 * isolate last read is unchanged (an import or reseed bumps it); failed loads are not kept.
 */
function memoised<T>(key: string, load: () => Promise<T>): Promise<T> {
  return memo.get(key, load) as Promise<T>
}

/** Drops every memoised read (tests, invalidation). */
export function clearCommerceMemo(): void {
  memo.clear()
}

/** The adapter with its rarely changing reads memoised per isolate (key: adapter + store). */
function withMemo(commerce: Commerce, scope: string): Commerce {
  return {
    ...commerce,
    getAttributes: (codes) =>
      memoised(`${scope}|attributes|${codes ? JSON.stringify(codes) : '*'}`, () =>
        commerce.getAttributes(codes),
      ),
    getTaxRules: () => memoised(`${scope}|taxrules`, () => commerce.getTaxRules()),
    getHomeData: () => memoised(`${scope}|home`, () => commerce.getHomeData()),
    getCategoryBySlug: (slug) =>
      memoised(`${scope}|category-slug|${slug}`, () => commerce.getCategoryBySlug(slug)),
    getCategoryById: (id) => memoised(`${scope}|category-id|${id}`, () => commerce.getCategoryById(id)),
    getCategoryByUrlPath: (urlPath) =>
      memoised(`${scope}|category-path|${urlPath}`, () => commerce.getCategoryByUrlPath(urlPath)),
  }
}

/** The Commerce adapter for this request (memoised per request context). */
export function getCommerce(c: Context<AppEnv>): Commerce {
  const hit = cache.get(c)
  if (hit) return hit
  const upstream = c.var.config.API_UPSTREAM
  const store = c.var.store
  const adapter = upstream
    ? createUpstreamCommerce({
        baseUrl: upstream,
        storeName: c.var.config.STORE_NAME,
        storeCode: store?.storeCode ?? c.var.config.STORE_CODE,
        currency: store?.currency ?? c.var.config.DEFAULT_CURRENCY,
        country: store?.pricingCountry ?? 'IN',
        storeId: store?.storeId ?? 0,
      })
    : createEmbeddedCommerce({ db: c.env.DB, storeId: store?.storeId ?? 0 })
  const commerce = withMemo(
    adapter,
    `${adapter.kind}|${upstream ?? ''}|${store?.storeCode ?? c.var.config.STORE_CODE}|${store?.storeId ?? 0}`,
  )
  cache.set(c, commerce)
  return commerce
}
