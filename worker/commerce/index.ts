/**
 * The Commerce port: `getCommerce(c)` returns the adapter for this request. With API_UPSTREAM set
 * it is the `upstream` adapter (HTTP to vue-storefront-api with the store and price headers, 5000 ms
 * time-out); otherwise the `embedded` adapter (D1/KV in-process). Page loaders use only this.
 */
import type { Context } from 'hono'
import { readAheadOfVersion, referenceVersionSeen, syncCatalogueVersion } from '../platform/catalogue-version'
import type { AppEnv } from '../platform/env'
import { createMemo } from '../platform/memo'
import { createEmbeddedCommerce } from './embedded'
import type { Commerce } from './types'
import { createUpstreamCommerce } from './upstream'

export type * from './types'
export { createEmbeddedCommerce, createUpstreamCommerce }

const cache = new WeakMap<Context<AppEnv>, Commerce>()

/** Most memoised reads per isolate (the least recently used go first). */
const MEMO_MAX_ENTRIES = 1000

const memo = createMemo<unknown>({
  name: 'commerce reads',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: MEMO_MAX_ENTRIES,
  version: referenceVersionSeen,
})

/**
 * Per-isolate memo of an adapter read of reference data (categories, attributes, tax rules, the
 * home document, CMS blocks, size guides): reused while the reference-data version is unchanged. The request learns the
 * current one first, so the first request after a write of reference data reads afresh, while an
 * import of products alone leaves these reads in place; failed loads are not kept.
 */
async function memoised<T>(c: Context<AppEnv>, key: string, load: () => Promise<T>): Promise<T> {
  // A page may use what the isolate holds while its version read is on its way (checked before
  // the page is answered: worker/platform/catalogue-version.ts).
  const held = memo.peek(key)
  if (held !== undefined && readAheadOfVersion(c)) return held as T
  await syncCatalogueVersion(c)
  return memo.get(key, load) as Promise<T>
}

/**
 * The adapter with its rarely changing reads (attributes, tax rules, home data, CMS blocks, size
 * guides, the category tree and category lookups) memoised per isolate (key: adapter + store). Memoised values are shared
 * between requests: callers never mutate them.
 */
function withMemo(c: Context<AppEnv>, commerce: Commerce, scope: string): Commerce {
  const read = <T>(key: string, load: () => Promise<T>) => memoised(c, `${scope}|${key}`, load)
  return {
    ...commerce,
    getAttributes: (codes) =>
      read(`attributes|${codes ? JSON.stringify(codes) : '*'}`, () => commerce.getAttributes(codes)),
    getTaxRules: () => read('taxrules', () => commerce.getTaxRules()),
    getHomeData: () => read('home', () => commerce.getHomeData()),
    getCmsBlocks: (identifiers) =>
      read(`cms-blocks|${identifiers ? JSON.stringify(identifiers) : '*'}`, () =>
        commerce.getCmsBlocks(identifiers),
      ),
    ...(commerce.getSizeGuides
      ? {
          getSizeGuides: (codes?: string[]) =>
            read(`size-guides|${codes ? JSON.stringify(codes) : '*'}`, () =>
              (commerce.getSizeGuides as NonNullable<Commerce['getSizeGuides']>)(codes),
            ),
        }
      : {}),
    getCategoryTree: () => read('category-tree', () => commerce.getCategoryTree()),
    getCategoryBySlug: (slug) => read(`category-slug|${slug}`, () => commerce.getCategoryBySlug(slug)),
    getCategoryById: (id) => read(`category-id|${id}`, () => commerce.getCategoryById(id)),
    getCategoryByUrlPath: (urlPath) =>
      read(`category-path|${urlPath}`, () => commerce.getCategoryByUrlPath(urlPath)),
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
    : createEmbeddedCommerce({
        db: c.env.DB,
        storeId: store?.storeId ?? 0,
        // Listings are priced for the request's shopper: their country, currency and the tax rules.
        shopper: () =>
          getCommerce(c)
            .getTaxRules()
            .then((taxRules) => ({
              country: store?.country || c.var.config.DEFAULT_COUNTRY,
              currency: store?.currency ?? c.var.config.DEFAULT_CURRENCY,
              taxRules,
            })),
      })
  const commerce = withMemo(
    c,
    adapter,
    `${adapter.kind}|${upstream ?? ''}|${store?.storeCode ?? c.var.config.STORE_CODE}|${store?.storeId ?? 0}`,
  )
  cache.set(c, commerce)
  return commerce
}
