import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../scripts/catalogue/seed/generate'
import { buildCatalogQuery } from '../../../shared/domain/search-query'
import { createEmbeddedCommerce, createUpstreamCommerce, getCommerce } from '../../../worker/commerce'
import { UpstreamError } from '../../../worker/commerce/upstream'

const cat = generateCatalogue()
const commerce = createEmbeddedCommerce({ db: env.DB })
const listed = cat.products.filter((p) => [2, 3, 4].includes(p.visibility) && p.status <= 1)

describe('embedded Commerce adapter', () => {
  it('loads a product by parentSku, with a childSku, and by a child sku alone', async () => {
    const p = cat.products.find((x) => x.type_id === 'configurable' && x.status === 1)!
    const child = p.configurable_children[1]!
    expect((await commerce.getProduct({ parentSku: p.sku }))?.product.sku).toBe(p.sku)
    const withChild = await commerce.getProduct({ parentSku: p.sku, childSku: child.sku })
    expect(withChild?.child?.sku).toBe(child.sku)
    const byChild = await commerce.getProduct({ parentSku: child.sku })
    expect(byChild?.product.sku).toBe(p.sku)
    expect(byChild?.child?.sku).toBe(child.sku)
    expect(await commerce.getProduct({ parentSku: 'NOPE' })).toBeNull()
    expect((await commerce.getProductByUrlPath(`/${p.url_path}`))?.sku).toBe(p.sku)
    const skus = [cat.products[3]!.sku, cat.products[1]!.sku, 'NOPE']
    expect((await commerce.getProductsBySkus(skus)).map((x) => x.sku)).toEqual(skus.slice(0, 2))
  })

  it('lists a category with filters, sort, paging and facets', async () => {
    const inSarees = listed.filter((p) => p.category_ids.includes(10))
    const res = await commerce.searchProducts({
      categoryIds: [10],
      size: 5,
      sort: { field: 'price', order: 'asc' },
      aggregations: ['color', 'price'],
    })
    expect(res.total).toBe(inSarees.length)
    expect(res.items).toHaveLength(5)
    const prices = res.items.map((p) => p.price)
    expect([...prices].sort((a, b) => a - b)).toEqual(prices)
    expect(res.items.every((p) => p.category_ids.includes(10))).toBe(true)
    const colorOptions = res.aggregations.agg_terms_color_options?.buckets ?? []
    const red = colorOptions.find((b) => String(b.key) === '51')
    expect(red?.doc_count ?? 0).toBe(inSarees.filter((p) => p.color_options?.includes(51)).length)

    const filtered = await commerce.searchProducts({ categoryIds: [10], filters: { color: [51] }, size: 100 })
    expect(filtered.total).toBe(inSarees.filter((p) => p.color_options?.includes(51)).length)
  })

  it('searches text with typo tolerance', async () => {
    const res = await commerce.searchProducts({ text: 'sareee', size: 10 })
    expect(res.total).toBeGreaterThan(0)
    expect(res.items[0]?.name).toMatch(/Saree/)
  })

  it('serves categories, CMS, stores, home, attributes, tax rules, reviews and url map', async () => {
    const tree = await commerce.getCategoryTree()
    expect(tree.map((c) => c.id)).toEqual(expect.arrayContaining([3, 4, 189, 190]))
    const positions = tree.map((c) => c.position)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(tree.find((c) => c.id === 3)?.children_data.map((c) => c.slug)).toContain('sarees')
    expect((await commerce.getCategoryBySlug('sarees'))?.id).toBe(10)
    expect((await commerce.getCategoryByUrlPath('/men/shirts'))?.id).toBe(20)
    expect((await commerce.getCategoryById(189))?.name).toBe('Performance Fabrics')
    expect(await commerce.getCategoryBySlug('nope')).toBeNull()
    // Inactive categories are invisible to the storefront.
    expect(await commerce.getCategoryBySlug('retired-collection')).toBeNull()
    expect(tree.map((c) => c.id)).not.toContain(16)
    expect(await commerce.mapUrl('retired-collection')).toBeNull()
    expect((await commerce.getCmsPage('ode-to-handloom'))?.title).toBeTruthy()
    expect(await commerce.getCmsPage('nope')).toBeNull()
    expect(
      (await commerce.getCmsBlocks(['footer-links', 'inactive-block'])).map((b) => b.identifier),
    ).toEqual(['footer-links'])
    expect((await commerce.getStores()).length).toBe(cat.stores.length)
    expect((await commerce.getStore(cat.stores[0]!.code))?.name).toBe(cat.stores[0]!.name)
    expect(((await commerce.getHomeData()) as { sections: unknown[] }).sections.length).toBeGreaterThan(0)
    const [color] = await commerce.getAttributes(['color'])
    expect(color?.options.every((o) => typeof o.swatch === 'string')).toBe(true)
    expect((await commerce.getTaxRules()).length).toBe(cat.taxRules.length)
    const reviewed = cat.reviews.find((r) => r.review_status === 1)!
    const reviews = await commerce.getReviews(reviewed.product_id)
    expect(reviews.length).toBe(
      cat.reviews.filter((r) => r.product_id === reviewed.product_id && r.review_status === 1).length,
    )
    expect(reviews.every((r) => r.review_status === 1)).toBe(true)
    const hit = await commerce.mapUrl('women/sarees')
    expect(hit?.type).toBe('category')
    expect(await commerce.mapUrl('women/sarees/none')).toBeNull()
  })
})

describe('upstream Commerce adapter', () => {
  function fakeUpstream(answer: (url: URL, init: RequestInit) => unknown) {
    const calls: Array<{ url: URL; init: RequestInit }> = []
    const fetcher = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input))
      calls.push({ url, init })
      const body = answer(url, init)
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
    }) as typeof fetch
    const adapter = createUpstreamCommerce({
      baseUrl: 'https://api.example.test/',
      storeName: 'Shop',
      storeCode: 'default',
      currency: 'USD',
      country: 'US',
      fetcher,
    })
    return { adapter, calls }
  }

  it('reads size guides through POST /api/product/size-guide-collection, as the embedded adapter does', async () => {
    // The upstream adapter against this worker's own embedded backend (a vue-storefront-api).
    const upstream = createUpstreamCommerce({
      baseUrl: 'https://shop.test',
      storeName: 'Shop',
      storeCode: 'default',
      currency: 'INR',
      country: 'IN',
      fetcher: ((input: RequestInfo | URL, init?: RequestInit) =>
        SELF.fetch(String(input), init)) as typeof fetch,
    })
    const codes = cat.sizeGuides.slice(0, 2).map((g) => g.code)
    expect(codes.length).toBe(2)
    const viaUpstream = await upstream.getSizeGuides?.(codes)
    expect(viaUpstream?.length).toBe(2)
    expect(viaUpstream).toEqual(await commerce.getSizeGuides?.(codes))
    expect(await upstream.getSizeGuides?.(['no-such-guide'])).toEqual([])
  })

  it('sends the VSF catalogue query with the store and price headers and parses hits and aggregations', async () => {
    const doc = cat.products[0]!
    const { adapter, calls } = fakeUpstream(() => ({
      took: 1,
      hits: {
        total: { value: 42, relation: 'eq' },
        hits: [{ _index: 'x', _type: 'product', _id: '1', _score: 1, _source: doc }],
      },
      aggregations: { agg_terms_color: { buckets: [{ key: 49, doc_count: 3 }] } },
    }))
    const res = await adapter.searchProducts({
      categoryIds: [10, 11],
      filters: { color: [49] },
      aggregations: ['color'],
      size: 12,
    })
    expect(res.total).toBe(42)
    expect(res.items[0]?.sku).toBe(doc.sku)
    expect(res.aggregations.agg_terms_color?.buckets?.[0]?.doc_count).toBe(3)
    const { url, init } = calls[0]!
    expect(url.pathname).toBe('/api/catalog/vue_storefront_catalog/product/_search')
    expect(url.searchParams.get('size')).toBe('12')
    expect(url.searchParams.get('sort')).toBe('created_at:desc')
    const request = JSON.parse(url.searchParams.get('request')!)
    expect(request).toEqual(
      buildCatalogQuery({ categoryIds: [10, 11], filters: { color: [49] }, aggregations: ['color'] }).body,
    )
    const headers = init.headers as Record<string, string>
    expect(headers).toMatchObject({
      'send-final-price': 'true',
      'send-converted-price': 'true',
      'country-id': 'US',
      currency: 'USD',
      store: 'Shop',
    })
  })

  it('maps urls through POST /api/url/map and reads envelopes', async () => {
    const { adapter } = fakeUpstream((url) =>
      url.pathname === '/api/url/map'
        ? {
            _index: 'x',
            _type: 'category',
            _id: '10',
            _score: 1,
            _source: cat.categories.find((c) => c.id === 10),
          }
        : { code: 200, result: cat.stores },
    )
    expect((await adapter.mapUrl('/women/sarees'))?.type).toBe('category')
    expect((await adapter.getStores()).length).toBe(cat.stores.length)
  })

  it('gives up after the time-out with a 504 UpstreamError', async () => {
    const fetcher = ((_: unknown, init: RequestInit) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason))
      })) as typeof fetch
    const adapter = createUpstreamCommerce({
      baseUrl: 'https://api.example.test',
      storeName: 'Shop',
      storeCode: 'default',
      currency: 'INR',
      country: 'IN',
      fetcher,
      timeoutMs: 50,
    })
    const err = await adapter.getHomeData().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UpstreamError)
    expect((err as UpstreamError).status).toBe(504)
  })

  it('getCommerce picks the adapter from API_UPSTREAM', () => {
    const ctx = (upstream: string) =>
      ({
        env,
        var: {
          config: {
            API_UPSTREAM: upstream,
            STORE_NAME: 'Shop',
            STORE_CODE: 'default',
            DEFAULT_CURRENCY: 'INR',
          },
          store: { storeCode: 'default', storeId: 1, currency: 'INR', country: 'IN', pricingCountry: 'IN' },
        },
      }) as never
    expect(getCommerce(ctx('')).kind).toBe('embedded')
    expect(getCommerce(ctx('https://api.example.test')).kind).toBe('upstream')
  })
})
