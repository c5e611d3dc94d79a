import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../../scripts/catalogue/seed/generate'

const cat = generateCatalogue()
const base = 'https://shop.test'
const get = (path: string, init?: RequestInit) => SELF.fetch(`${base}${path}`, init)
const post = (path: string, body: unknown) =>
  SELF.fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
type Env<T = unknown> = { code: number; result: T }
const json = async <T = unknown>(res: Response) => (await res.json()) as Env<T>

const configurable = cat.products.find(
  (p) =>
    p.type_id === 'configurable' && p.status === 1 && p.configurable_children.some((c) => c.stock.qty > 0),
)!
const child = configurable.configurable_children.find((c) => c.stock.qty > 0)!
const simple = cat.products.find((p) => p.type_id === 'simple')!

async function expect400(res: Response, pattern: RegExp) {
  expect(res.status).toBe(400)
  const body = await json<string>(res)
  expect(body.code).toBe(400)
  expect(body.result).toMatch(pattern)
}

describe('/api/stock', () => {
  it('checks one sku by query or path, GET or POST', async () => {
    for (const res of [
      await get(`/api/stock/check?sku=${encodeURIComponent(child.sku)}`),
      await get(`/api/stock/check/${encodeURIComponent(child.sku)}`),
      await SELF.fetch(`${base}/api/stock/check?sku=${encodeURIComponent(child.sku)}`, { method: 'POST' }),
    ]) {
      expect(res.status).toBe(200)
      const body = await json<{
        qty: number
        is_in_stock: boolean
        product_id: number
        manage_stock: boolean
      }>(res)
      expect(body.result).toMatchObject({
        qty: child.stock.qty,
        is_in_stock: true,
        product_id: child.id,
        manage_stock: true,
      })
    }
  })

  it('reports live quantities after an order-style decrement', async () => {
    await env.DB.prepare('UPDATE inventory SET qty = qty - ? WHERE sku = ? AND qty >= ?')
      .bind(child.stock.qty, child.sku, child.stock.qty)
      .run()
    const body = await json<{ qty: number; is_in_stock: boolean }>(
      await get(`/api/stock/check?sku=${encodeURIComponent(child.sku)}`),
    )
    expect(body.result.qty).toBe(0)
    expect(body.result.is_in_stock).toBe(false)
  })

  it('lists stock items for up to 100 skus, omitting unknown ones', async () => {
    const skus = [simple.sku, configurable.configurable_children[0]!.sku, 'UNKNOWN-SKU']
    const body = await json<Array<{ sku: string }>>(
      await get(`/api/stock/list?skus=${skus.map(encodeURIComponent).join(',')}`),
    )
    expect(body.result.map((i) => i.sku)).toEqual(skus.slice(0, 2))
    // A configurable parent sku aggregates its children.
    const parent = await json<{ qty: number }>(await get(`/api/stock/check?sku=${configurable.sku}`))
    expect(typeof parent.result.qty).toBe('number')
  })

  it('rejects missing and too many skus with a 400 envelope; unknown single sku is 404', async () => {
    await expect400(await get('/api/stock/check'), /Missing sku/)
    await expect400(await get('/api/stock/list'), /Missing skus/)
    const many = Array.from({ length: 101 }, (_, i) => `S${i}`).join(',')
    await expect400(await get(`/api/stock/list?skus=${many}`), /At most 100/)
    expect((await get('/api/stock/check?sku=NOPE')).status).toBe(404)
    expect((await get(`/api/stock/check?sku=${encodeURIComponent("' OR 1=1 --")}`)).status).toBe(404)
  })
})

describe('/api/product', () => {
  it('render-list returns price info converted to the currency, with tax adjustments', async () => {
    const res = await get(`/api/product/render-list?skus=${simple.sku},NOPE&currencyCode=USD&storeId=1`, {
      headers: { 'country-id': 'IN' },
    })
    expect(res.status).toBe(200)
    const body = await json<{
      items: Array<{ sku: string; currency_code: string; price_info: Record<string, unknown> }>
    }>(res)
    expect(body.result.items).toHaveLength(1)
    const item = body.result.items[0]!
    expect(item.sku).toBe(simple.sku)
    expect(item.currency_code).toBe('USD')
    // Catalogue prices include India's GST (since 22 Sep 2025: jewellery, HSN chapter 71, 3 %;
    // apparel 5 % on a piece up to ₹2,500 before tax, 18 % above): without it, converted.
    const apparel = simple.price / 1.05 <= 2500 ? 5 : 18
    const gst = String(simple.hsn_code ?? '').startsWith('71') ? 3 : apparel
    expect(item.price_info.regular_price as number).toBeCloseTo((simple.price / (1 + gst / 100)) * 0.01429, 2)
    const adjustments = (
      item.price_info.extension_attributes as { tax_adjustments: { regular_price: number } }
    ).tax_adjustments
    // With it: the price India pays, converted and rounded to whole dollars as it is charged.
    expect(adjustments.regular_price).toBe(Math.round(simple.price * 0.01429))
  })

  it('render-list validates its query', async () => {
    await expect400(await get('/api/product/render-list'), /Missing skus/)
    await expect400(await get(`/api/product/render-list?skus=${simple.sku}&currencyCode=XXX`), /currencyCode/)
    await expect400(await get(`/api/product/render-list?skus=${simple.sku}&storeId=abc`), /storeId/)
  })

  it('size-guide-collection answers guides by product sku, codes or all', async () => {
    const withGuide = cat.products.find((p) => typeof p.size_guide === 'string')!
    const bySku = await json<Array<{ code: string }>>(
      await post('/api/product/size-guide-collection', { sku: withGuide.sku }),
    )
    expect(bySku.result.map((g) => g.code)).toEqual([withGuide.size_guide])
    const all = await json<unknown[]>(await post('/api/product/size-guide-collection', ''))
    expect(all.result.length).toBe(cat.sizeGuides.length)
    await expect400(await post('/api/product/size-guide-collection', '{bad'), /malformed JSON/)
    await expect400(await post('/api/product/size-guide-collection', { codes: 'kurta' }), /codes/)
  })

  it('search-content answers per term with a default', async () => {
    const saree = await json<{ term: string }>(await post('/api/product/search-content', { term: 'Saree' }))
    expect(saree.result.term).toBe('saree')
    const other = await json<{ term: string }>(await post('/api/product/search-content', { term: 'zzz' }))
    expect(other.result.term).toBe('')
    await expect400(await post('/api/product/search-content', { term: 5 }), /term/)
  })
})

describe('content endpoints', () => {
  it('/api/stores/all lists the stores', async () => {
    const body = await json<Array<{ code: string }>>(await get('/api/stores/all'))
    expect(body.result.map((s) => s.code)).toEqual(cat.stores.map((s) => s.code))
  })

  it('/api/home/data and /api/home/common-config', async () => {
    const home = await json<{ sections: unknown[]; popups: Array<{ type: string }> }>(
      await get('/api/home/data'),
    )
    expect(home.code).toBe(200)
    expect(home.result.sections.length).toBeGreaterThan(0)
    expect(home.result.popups.map((p) => p.type)).toContain('strip')
    const config = await json<{ free_shipping_threshold: number }>(await get('/api/home/common-config'))
    expect(config.result.free_shipping_threshold).toBe(2999)
  })

  it('/api/misc/otw-data answers POST and rejects a non-object body', async () => {
    const otw = await json<{ skus: string[] }>(await post('/api/misc/otw-data', {}))
    expect(otw.result.skus.length).toBeGreaterThan(0)
    await expect400(await post('/api/misc/otw-data', '[1,2]'), /request body/)
  })
})

describe('/api/ext/cms-data', () => {
  const about = cat.cmsPages.find((p) => p.identifier === 'about-us')!
  const block = cat.cmsBlocks.find((b) => b.identifier === 'footer-links')!

  it('finds pages and blocks by id and by identifier/store', async () => {
    expect(
      (await json<{ identifier: string }>(await get(`/api/ext/cms-data/cmsPage/${about.id}`))).result
        .identifier,
    ).toBe('about-us')
    expect(
      (await json<{ identifier: string }>(await get(`/api/ext/cms-data/cmsBlock/${block.id}`))).result
        .identifier,
    ).toBe('footer-links')
    const byIdent = await json<{ id: number }>(
      await get('/api/ext/cms-data/cmsPageIdentifier/about-us/storeId/1'),
    )
    expect(byIdent.result.id).toBe(about.id)
    const blockByIdent = await json<{ id: number }>(
      await get('/api/ext/cms-data/cmsBlockIdentifier/footer-links/storeId/0'),
    )
    expect(blockByIdent.result.id).toBe(block.id)
  })

  it('answers the spec messages for missing or inactive entries and 400 for bad ids', async () => {
    const missing = await get('/api/ext/cms-data/cmsPage/9999')
    expect(missing.status).toBe(404)
    expect((await json(missing)).result).toBe('CMS query returned empty result')
    const inactive = await get('/api/ext/cms-data/cmsBlockIdentifier/inactive-block/storeId/0')
    expect((await json(inactive)).result).toBe('CMS block query returned empty result')
    await expect400(await get('/api/ext/cms-data/cmsPage/abc'), /id must be a number/)
    await expect400(await get('/api/ext/cms-data/cmsPageIdentifier/about-us/storeId/x'), /storeId/)
    await expect400(
      await get(`/api/ext/cms-data/cmsPageIdentifier/${encodeURIComponent("a' OR '1'='1")}/storeId/0`),
      /identifier/,
    )
  })
})

describe('/api/url/map', () => {
  it('returns the raw hit for a product, category or CMS page url', async () => {
    const product = cat.products.find((p) => p.status === 1 && p.visibility === 4)!
    const hit = (await (await post('/api/url/map', { url: product.url_path })).json()) as Record<
      string,
      unknown
    >
    expect(hit).toMatchObject({ _type: 'product', _id: String(product.id), _source: { sku: product.sku } })
    expect(hit).not.toHaveProperty('code')
    const cathit = (await (await post('/api/url/map', { url: '/women/sarees/' })).json()) as Record<
      string,
      unknown
    >
    expect(cathit).toMatchObject({ _type: 'category', _source: { id: 10, slug: 'sarees' } })
    const page = (await (await post('/api/url/map', { url: 'about-us' })).json()) as Record<string, unknown>
    expect(page).toMatchObject({ _type: 'cms_page', _source: { identifier: 'about-us' } })
  })

  it('applies includeFields / excludeFields', async () => {
    const product = cat.products[0]!
    const hit = (await (
      await post('/api/url/map', { url: product.url_path, includeFields: ['sku', 'name', 'stock.qty'] })
    ).json()) as {
      _source: Record<string, unknown>
    }
    expect(Object.keys(hit._source).sort()).toEqual(['name', 'sku', 'stock'])
    const ex = (await (
      await post('/api/url/map', { url: product.url_path, excludeFields: ['configurable_children'] })
    ).json()) as {
      _source: Record<string, unknown>
    }
    expect(ex._source).not.toHaveProperty('configurable_children')
  })

  it('answers null for no exact match and 400 for a missing url', async () => {
    const product = cat.products[0]!
    for (const url of [`${product.url_path}-nope`, product.url_path.slice(0, -2), 'women/sar']) {
      const res = await post('/api/url/map', { url })
      expect(res.status).toBe(200)
      expect(await res.json()).toBeNull()
    }
    await expect400(await post('/api/url/map', {}), /Missing url/)
    await expect400(await post('/api/url/map', '{"url":'), /malformed JSON/)
  })

  it('KV URL mappings were seeded in the documented format', async () => {
    const product = cat.products.find((p) => p.status === 1 && p.visibility === 4)!
    const value = await env.URL_MAPPINGS.get(product.url_path, 'json')
    expect(value).toMatchObject({ type: 'product', sku: product.sku, slug: product.slug })
    expect(await env.URL_MAPPINGS.get('women/sarees', 'json')).toMatchObject({
      type: 'category',
      slug: 'sarees',
    })
  })
})
