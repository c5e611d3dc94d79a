/**
 * The `embedded` Commerce adapter: calls the embedded backend's catalogue library and search
 * engine in-process (D1 and KV bindings), no HTTP hop.
 */
import type { Product } from '@shared/schemas/catalog'
import {
  getCategoryById,
  getCategoryBySlug,
  getCategoryByUrlPath,
  getCategoryTree,
} from '../catalog/categories'
import {
  getApprovedReviews,
  getAttributes,
  getCmsBlocks,
  getCmsPageByIdentifier,
  getContentDoc,
  getSizeGuides,
  getStoreByCode,
  getStores,
  getTaxRules,
} from '../catalog/content'
import { getProductByUrlPath, getProductsBySku } from '../catalog/products'
import { mapUrlPath } from '../catalog/url-map'
import type { ShopperPricing } from '../search'
import { searchProductsEmbedded } from './embedded-search'
import type { Commerce, HomeData } from './types'

interface EmbeddedOptions {
  db: D1Database
  storeId?: number
  /** Whom listings are priced for (their price filter and bands are on the price they are shown). */
  shopper?: () => Promise<ShopperPricing>
}

/** Creates the embedded adapter over a D1 database. */
export function createEmbeddedCommerce({ db, storeId = 0, shopper }: EmbeddedOptions): Commerce {
  return {
    kind: 'embedded',
    async getProduct({ parentSku, childSku }) {
      const skus = childSku ? [parentSku, childSku] : [parentSku]
      const found = await getProductsBySku(db, skus)
      const parent = found.get(parentSku)
      if (!parent) return null
      if (childSku) {
        const child = parent.product.configurable_children.find((ch) => ch.sku === childSku)
        return child ? { product: parent.product, child } : { product: parent.product, child: parent.child }
      }
      return parent
    },
    getProductByUrlPath: (urlPath) => getProductByUrlPath(db, urlPath),
    async getProductsBySkus(skus) {
      const found = await getProductsBySku(db, skus)
      const out: Product[] = []
      const seen = new Set<string>()
      for (const sku of skus) {
        const hit = found.get(sku)
        if (hit && !hit.child && !seen.has(hit.product.sku)) {
          seen.add(hit.product.sku)
          out.push(hit.product)
        }
      }
      return out
    },
    searchProducts: (params) => searchProductsEmbedded(db, params, shopper),
    getCategoryTree: () => getCategoryTree(db),
    getCategoryById: (id) => getCategoryById(db, id),
    getCategoryBySlug: (slug) => getCategoryBySlug(db, slug),
    getCategoryByUrlPath: (urlPath) => getCategoryByUrlPath(db, urlPath),
    getCmsPage: (identifier) => getCmsPageByIdentifier(db, identifier, storeId),
    getCmsBlocks: (identifiers) => getCmsBlocks(db, identifiers),
    getStores: () => getStores(db),
    getStore: (code) => getStoreByCode(db, code),
    getHomeData: () => getContentDoc<HomeData>(db, 'home', storeId),
    getAttributes: (codes) => getAttributes(db, codes),
    getTaxRules: () => getTaxRules(db),
    getReviews: (productId) => getApprovedReviews(db, productId),
    getSizeGuides: (codes) => getSizeGuides(db, codes),
    mapUrl: (path) => mapUrlPath(db, path, storeId),
  }
}
