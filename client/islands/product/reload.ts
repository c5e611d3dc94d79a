/**
 * The product form's reload (a route change reloads the product, so a stale price or stock is
 * never offered): one catalogue search by sku through client/api. Resolves null when the product is gone or
 * rejected (status ≥ 2 / visibility 1), which the form answers with the out-of-stock notice and
 * a step back.
 */
import { productRejection } from '@shared/domain/availability'
import { termsQuery } from '@shared/domain/terms-query'
import type { Product } from '@shared/schemas/catalog'
import { apiRaw } from '../../api'

export const CATALOG_PRODUCT_SEARCH = 'catalog/vue_storefront_catalog/product/_search'

/** The query string of the reload request (the Elasticsearch DSL VSF clients send). */
export function productReloadQuery(sku: string): Record<string, string | number> {
  return { request: JSON.stringify(termsQuery('sku', [sku])), size: 1, from: 0 }
}

/** The product with `sku` from a search answer (ES hits or compact hits), unless rejected; else null. */
export function productFromSearch(body: unknown, sku: string): Product | null {
  if (!body || typeof body !== 'object') return null
  const b = body as { hits?: { hits?: { _source?: Product }[] } | Product[] }
  const hits = Array.isArray(b.hits) ? b.hits : (b.hits?.hits ?? []).map((h) => h._source)
  const product = hits.find((h): h is Product => !!h && typeof h === 'object' && h.sku === sku) ?? null
  return product && !productRejection(product) ? product : null
}

/** Reloads the product; null when it is gone or rejected, throws on network failure. */
export async function reloadProduct(sku: string): Promise<Product | null> {
  const { status, body } = await apiRaw(CATALOG_PRODUCT_SEARCH, { query: productReloadQuery(sku) })
  return status === 200 ? productFromSearch(body, sku) : null
}
