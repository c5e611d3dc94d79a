/**
 * The Commerce port: the ONE typed interface page loaders use
 * for catalogue data. Two adapters implement it: `embedded` (D1/KV in-process) and `upstream`
 * (vue-storefront-api over HTTP). Page loaders never call fetch or D1 directly.
 */

import type { CatalogQuery } from '@shared/domain/search-query'
import type {
  Attribute,
  Category,
  CmsBlock,
  CmsPage,
  ConfigurableChild,
  Product,
  Review,
  StoreLocation,
  TaxRule,
} from '@shared/schemas/catalog'

/** A product resolved by parentSku/childSku: the parent (or standalone) doc and the chosen child. */
interface ProductWithChild {
  product: Product
  /** Set when childSku named one of the product's configurable_children. */
  child?: ConfigurableChild
}

/** A product listing or search request: the one catalogue query shape of shared/domain/search-query. */
export type ProductListingParams = CatalogQuery

interface AggregationBucket {
  key: string | number
  doc_count: number
  from?: number
  to?: number
}

/** Elasticsearch-shaped aggregations: agg_terms_x / agg_range_x have buckets, agg_min_x / agg_max_x a value. */
export type Aggregations = Record<string, { buckets?: AggregationBucket[]; value?: number | null }>

export interface ProductListing {
  items: Product[]
  total: number
  aggregations: Aggregations
}

/** What a URL path maps to (POST /api/url/map and the URL dispatcher). */
export type UrlMapHit =
  | { type: 'product'; product: Product }
  | { type: 'category'; category: Category }
  | { type: 'cms_page'; page: CmsPage }

/** Home data (GET /api/home/data `result`): sections, banners, popups and strips. */
export type HomeData = Record<string, unknown>

export interface Commerce {
  readonly kind: 'embedded' | 'upstream'
  /** Product by parentSku and optional childSku (a child sku as parentSku resolves to its parent). */
  getProduct(params: { parentSku: string; childSku?: string | null }): Promise<ProductWithChild | null>
  /** Product by exact url_path (leading slash ignored). */
  getProductByUrlPath(urlPath: string): Promise<Product | null>
  /** Products by sku (parents/standalone skus), in the given order; unknown skus are skipped. */
  getProductsBySkus(skus: string[]): Promise<Product[]>
  /** Product listing/search with total and aggregations. */
  searchProducts(params: ProductListingParams): Promise<ProductListing>
  /** Category tree: the children of the root category (id 2), each with children_data. */
  getCategoryTree(): Promise<Category[]>
  getCategoryById(id: number): Promise<Category | null>
  getCategoryBySlug(slug: string): Promise<Category | null>
  getCategoryByUrlPath(urlPath: string): Promise<Category | null>
  getCmsPage(identifier: string): Promise<CmsPage | null>
  /** CMS blocks by identifier (all active blocks when omitted). */
  getCmsBlocks(identifiers?: string[]): Promise<CmsBlock[]>
  getStores(): Promise<StoreLocation[]>
  getStore(code: string): Promise<StoreLocation | null>
  getHomeData(): Promise<HomeData | null>
  getAttributes(codes?: string[]): Promise<Attribute[]>
  getTaxRules(): Promise<TaxRule[]>
  /** Size guide documents by code (all when omitted); optional: adapters without them give none. */
  getSizeGuides?(codes?: string[]): Promise<unknown[]>
  /** Approved reviews of a product (first page, 50). */
  getReviews(productId: number): Promise<Review[]>
  /** Exact url_path / identifier lookup: product, then category, then CMS page. */
  mapUrl(path: string): Promise<UrlMapHit | null>
}
