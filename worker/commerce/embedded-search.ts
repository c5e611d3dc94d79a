/**
 * Product listing/search for the embedded adapter: builds the same DSL the browser and the
 * upstream adapter send (shared/domain/search-query) and runs it on the embedded search engine
 * in-process (worker/search).
 */

import { PRICE_ATTRIBUTE } from '@shared/domain/filters'
import { buildCatalogQuery } from '@shared/domain/search-query'
import type { Product } from '@shared/schemas/catalog'
import { HTTPException } from 'hono/http-exception'
import { SearchError, type ShopperPricing, searchCatalog } from '../search'
import type { Aggregations, ProductListing, ProductListingParams } from './types'

/** Runs a listing request on the embedded search engine. */
export async function searchProductsEmbedded(
  db: D1Database,
  params: ProductListingParams,
  shopper?: () => Promise<ShopperPricing>,
): Promise<ProductListing> {
  const q = buildCatalogQuery(params, { priceBounds: true, shownPrice: true })
  const priced = params.price !== undefined || params.aggregations?.includes(PRICE_ATTRIBUTE) === true
  const res = await searchCatalog(db, {
    entityType: 'product',
    ...(priced && shopper ? { shopper: shopper() } : {}),
    body: q.body,
    size: q.size,
    from: q.from,
    sort: q.sort || undefined,
    includes: q.sourceInclude,
    excludes: q.sourceExclude,
  }).catch((err: unknown) => {
    // A page whose query the engine refuses (over one of its limits) is a bad request, not a 500.
    if (err instanceof SearchError) throw new HTTPException(400, { message: err.message })
    throw err
  })
  return {
    items: res.hits.hits.map((h) => h._source as unknown as Product),
    total: res.hits.total,
    aggregations: (res.aggregations ?? {}) as unknown as Aggregations,
  }
}
