/**
 * The `upstream` Commerce adapter: the vue-storefront-api contract over HTTP. It builds the same
 * Elasticsearch DSL the VSF client sends (GET /api/catalog/{index}/{type}/_search?request=...),
 * sends the store and price headers (store, send-final-price, send-converted-price, country-id,
 * currency) and gives up after 5000 ms: a slow catalogue must not hold a page past the client time-out.
 */
import { CATEGORY_FETCH_SIZE, ROOT_CATEGORY_ID, SEARCH_CLIENT_TIMEOUT_MS } from '@shared/config'
import { type BuiltQuery, buildCatalogQuery, type DslClause } from '@shared/domain/search-query'
import { termsQuery } from '@shared/domain/terms-query'
import type {
  Attribute,
  Category,
  CmsBlock,
  CmsPage,
  Product,
  Review,
  StoreLocation,
  TaxRule,
} from '@shared/schemas/catalog'
import { fetchOutbound, OutboundError } from '../platform/fetch'
import type { Aggregations, Commerce, HomeData, ProductListing, UrlMapHit } from './types'

/** The catalogue index vue-storefront-api serves by default. */
const UPSTREAM_INDEX = 'vue_storefront_catalog'

interface UpstreamOptions {
  baseUrl: string
  storeName: string
  storeCode: string
  currency: string
  country: string
  /** Store view id for the CMS identifier lookups (default 0 = all store views). */
  storeId?: number
  fetcher?: typeof fetch
  timeoutMs?: number
}

interface EsHit<T> {
  _index?: string
  _type?: string
  _id?: string
  _score?: number
  _source: T
}
interface EsResponse<T> {
  hits?: { total?: number | { value: number }; hits?: EsHit<T>[] } | Array<T & { _score?: number }>
  total?: number
  aggregations?: Aggregations
}

/** Error raised when the upstream API fails or times out. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message)
    this.name = 'UpstreamError'
  }
}

/** Creates the upstream adapter. */
export function createUpstreamCommerce(opts: UpstreamOptions): Commerce {
  const base = opts.baseUrl.replace(/\/+$/, '')
  const fetcher = opts.fetcher ?? fetch
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    store: opts.storeName,
    'x-vs-store-code': opts.storeCode,
    'send-final-price': 'true',
    'send-converted-price': 'true',
    'country-id': opts.country,
    currency: opts.currency,
  }

  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    let res: Response
    try {
      res = await fetchOutbound('Upstream API', `${base}${path}`, {
        ...init,
        headers,
        fetchImpl: fetcher,
        timeoutMs: opts.timeoutMs ?? SEARCH_CLIENT_TIMEOUT_MS,
      })
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err
      if (err.kind === 'timeout') throw new UpstreamError('Upstream API timed out', 504)
      throw new UpstreamError('Upstream API is unreachable', 502)
    }
    if (res.status === 404) return null as T
    if (!res.ok)
      throw new UpstreamError(`Upstream API error (${res.status})`, res.status >= 500 ? 502 : res.status)
    return (await res.json()) as T
  }

  async function search<T>(entity: string, q: BuiltQuery): Promise<SearchHits<T>> {
    const params = new URLSearchParams({
      size: String(q.size),
      from: String(q.from),
      request: JSON.stringify(q.body),
    })
    if (q.sort) params.set('sort', q.sort)
    if (q.sourceInclude?.length) params.set('_source_include', q.sourceInclude.join(','))
    if (q.sourceExclude?.length) params.set('_source_exclude', q.sourceExclude.join(','))
    const res = await call<EsResponse<T> | null>(`/api/catalog/${UPSTREAM_INDEX}/${entity}/_search?${params}`)
    return parseHits<T>(res)
  }

  const simple = <T>(entity: string, body: DslClause, size = 50, sort = '') =>
    search<T>(entity, { body, size, from: 0, sort })

  const envelopeResult = async <T>(path: string, init?: RequestInit): Promise<T | null> => {
    const res = await call<{ code?: number; result?: T } | null>(path, init)
    if (!res || (res.code !== undefined && res.code !== 200)) return null
    return (res.result ?? null) as T | null
  }

  async function categoryTree(): Promise<Category[]> {
    const res = await simple<Category>(
      'category',
      termsQuery('is_active', [true]),
      CATEGORY_FETCH_SIZE,
      'position:asc',
    )
    return res.items.filter((c) => c.parent_id === ROOT_CATEGORY_ID)
  }
  const oneCategory = async (field: string, value: string | number) =>
    (await simple<Category>('category', termsQuery(field, [value]), 1)).items[0] ?? null

  return {
    kind: 'upstream',
    async getProduct({ parentSku, childSku }) {
      const res = await simple<Product>('product', termsQuery('sku', [parentSku]), 1)
      let product = res.items[0]
      if (!product) {
        // A child sku: find its parent through configurable_children.sku.
        const byChild = await simple<Product>(
          'product',
          termsQuery('configurable_children.sku', [parentSku]),
          1,
        )
        product = byChild.items[0]
        if (!product) return null
        const child = product.configurable_children?.find((ch) => ch.sku === parentSku)
        return child ? { product, child } : { product }
      }
      const child = childSku ? product.configurable_children?.find((ch) => ch.sku === childSku) : undefined
      return child ? { product, child } : { product }
    },
    async getProductByUrlPath(urlPath) {
      const path = urlPath.replace(/^\/+|\/+$/g, '')
      const res = await simple<Product>('product', termsQuery('url_path', [path]), 1)
      return res.items.find((p) => p.url_path === path) ?? null
    },
    async getProductsBySkus(skus) {
      if (skus.length === 0) return []
      const res = await simple<Product>('product', termsQuery('sku', skus), skus.length)
      const bySku = new Map(res.items.map((p) => [p.sku, p]))
      return skus.flatMap((s) => {
        const p = bySku.get(s)
        return p ? [p] : []
      })
    },
    async searchProducts(params): Promise<ProductListing> {
      return search<Product>('product', buildCatalogQuery(params, { priceBounds: true }))
    },
    getCategoryTree: categoryTree,
    getCategoryById: (id) => oneCategory('id', id),
    getCategoryBySlug: (slug) => oneCategory('slug', slug),
    getCategoryByUrlPath: (urlPath) => oneCategory('url_path', urlPath.replace(/^\/+|\/+$/g, '')),
    async getCmsPage(identifier) {
      return envelopeResult<CmsPage>(
        `/api/ext/cms-data/cmsPageIdentifier/${encodeURIComponent(identifier)}/storeId/${opts.storeId ?? 0}`,
      )
    },
    async getCmsBlocks(identifiers) {
      const body = identifiers ? termsQuery('identifier', identifiers) : { query: { match_all: {} } }
      return (await simple<CmsBlock>('cms_block', body, 500)).items
    },
    async getStores() {
      return (await envelopeResult<StoreLocation[]>('/api/stores/all')) ?? []
    },
    async getStore(code) {
      const all = (await envelopeResult<StoreLocation[]>('/api/stores/all')) ?? []
      return all.find((s) => s.code === code) ?? null
    },
    getHomeData: () => envelopeResult<HomeData>('/api/home/data'),
    async getAttributes(codes) {
      const body = codes ? termsQuery('attribute_code', codes) : { query: { match_all: {} } }
      return (await simple<Attribute>('attribute', body, 200)).items
    },
    async getTaxRules() {
      return (await simple<TaxRule>('taxrule', { query: { match_all: {} } }, 100)).items
    },
    async getSizeGuides(codes) {
      // POST /api/product/size-guide-collection (optional: the product loader ignores failures).
      const result = await envelopeResult<unknown[]>('/api/product/size-guide-collection', {
        method: 'POST',
        body: JSON.stringify(codes ? { codes } : {}),
      })
      return Array.isArray(result) ? result : []
    },
    async getReviews(productId) {
      const body = termsQuery('product_id', [productId], [{ terms: { review_status: [1] } }])
      return (await simple<Review>('review', body, 50)).items
    },
    async mapUrl(path): Promise<UrlMapHit | null> {
      const url = path.replace(/^\/+|\/+$/g, '')
      const hit = await call<EsHit<Record<string, unknown>> | null>('/api/url/map', {
        method: 'POST',
        body: JSON.stringify({ url, includeFields: null, excludeFields: [] }),
      })
      if (!hit || typeof hit !== 'object' || !hit._source) return null
      if (hit._type === 'product') return { type: 'product', product: hit._source as unknown as Product }
      if (hit._type === 'category') return { type: 'category', category: hit._source as unknown as Category }
      if (hit._type === 'cms_page') return { type: 'cms_page', page: hit._source as unknown as CmsPage }
      return null
    },
  }
}

interface SearchHits<T> {
  items: T[]
  total: number
  aggregations: Aggregations
}

/** Parses a standard (ES hits) or compact (hits = sources) search answer into a listing. */
function parseHits<T>(res: EsResponse<T> | null): SearchHits<T> {
  if (!res) return { items: [], total: 0, aggregations: {} }
  const hits = res.hits
  let items: T[]
  let total: number
  if (Array.isArray(hits)) {
    items = hits as T[]
    total = res.total ?? items.length
  } else {
    items = (hits?.hits ?? []).map((h) => h._source)
    const t = hits?.total
    total = typeof t === 'number' ? t : (t?.value ?? items.length)
  }
  return { items, total, aggregations: res.aggregations ?? {} }
}
