/**
 * The Commerce port: `getCommerce(c)` returns the adapter for this request. With API_UPSTREAM set
 * it is the `upstream` adapter (HTTP to vue-storefront-api with the spec's headers, 5000 ms
 * time-out); otherwise the `embedded` adapter (D1/KV in-process). Page loaders use only this.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../env'
import { createEmbeddedCommerce } from './embedded'
import type { Commerce } from './types'
import { createUpstreamCommerce } from './upstream'

export { buildProductQuery } from './query'
export type * from './types'
export { createEmbeddedCommerce, createUpstreamCommerce }

const cache = new WeakMap<Context<AppEnv>, Commerce>()

/** The Commerce adapter for this request (memoised per request context). */
export function getCommerce(c: Context<AppEnv>): Commerce {
  const hit = cache.get(c)
  if (hit) return hit
  const upstream = c.var.config.API_UPSTREAM
  const store = c.var.store
  const commerce = upstream
    ? createUpstreamCommerce({
        baseUrl: upstream,
        storeName: c.var.config.STORE_NAME,
        storeCode: store?.storeCode ?? c.var.config.STORE_CODE,
        currency: store?.currency ?? c.var.config.DEFAULT_CURRENCY,
        country: store?.pricingCountry ?? 'IN',
        storeId: store?.storeId ?? 0,
      })
    : createEmbeddedCommerce({ db: c.env.DB, storeId: store?.storeId ?? 0 })
  cache.set(c, commerce)
  return commerce
}
