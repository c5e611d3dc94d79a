// A real VSF1/Magento export imported as it is: an Elasticsearch 7 elasticdump (entity only in
// _index, Magento's numeric strings and flags, the stock array, backorders, unmanaged stock, an
// item flagged in stock at quantity 0 with counted stock and no backorders, SKUs with spaces) and the integration SDK's plain JSON files, replacing the demo catalogue in one
// batch; then listed through /api/catalog, checked through /api/stock, ordered, and shown on its
// product page with its own photograph through the image route.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { prepareRun } from '../../../scripts/catalogue/import/node-entry'
import { parseImportFile } from '../../../scripts/catalogue/import/transform'
import {
  clearCatalogueStatements,
  importStatements,
  importUrlMappings,
} from '../../../scripts/catalogue/import/write'
import { putUrlMappings } from '../../../scripts/catalogue/seed/apply'
import es7 from '../../fixtures/vsf-export/es7-catalog.ndjson?raw'
import sdkAttributes from '../../fixtures/vsf-export/sdk-attributes.json?raw'
import sdkCategories from '../../fixtures/vsf-export/sdk-categories.json?raw'
import sdkProducts from '../../fixtures/vsf-export/sdk-products.json?raw'
import { SAMPLE_JPEG } from '../../helpers/images'
import { freshEmail, orderBody, testAddress } from '../../helpers/orders'
import { api, type Json } from '../../helpers/user'

type Doc = { sku: string; stock: { is_in_stock: boolean; qty: number } }

/** Every product of a listing filtered to in-stock products (size 100). */
async function inStockListing(): Promise<Doc[]> {
  const request = {
    query: { bool: { filter: { bool: { must: [{ terms: { 'stock.is_in_stock': [true] } }] } } } },
  }
  const res = await api(
    `/catalog/vue_storefront_catalog/product/_search?size=100&request=${encodeURIComponent(JSON.stringify(request))}`,
  )
  expect(res.status).toBe(200)
  return (res.json as Json).hits.hits.map((h: { _source: Doc }) => h._source)
}

let n = 0
const address = testAddress('mara.guest@example.com')
/** An order in vue-storefront's queued-order shape, with the client's copy of each product. */
function order(products: unknown[]) {
  // A shopper of its own per order: what unpaid orders may hold is tested elsewhere.
  return orderBody(`vsf-export-${++n}-${Math.random().toString(16).slice(2, 10)}`, products, {
    ...address,
    email: freshEmail('mara.guest'),
  })
}
const stockRow = (sku: string) =>
  env.DB.prepare('SELECT qty, is_in_stock, manage_stock, backorders FROM inventory WHERE sku = ?')
    .bind(sku)
    .first<{ qty: number; is_in_stock: number; manage_stock: number; backorders: number }>()

describe('a VSF1 export imported without conversion', () => {
  beforeAll(async () => {
    const es = parseImportFile(es7, 'es7-catalog.ndjson', {})
    expect(es.errors).toEqual([])
    const sdk = [
      parseImportFile(sdkCategories, 'sdk-categories.json', { type: 'category' }),
      parseImportFile(sdkAttributes, 'sdk-attributes.json', { type: 'attribute' }),
      parseImportFile(sdkProducts, 'sdk-products.json', { type: 'product' }),
    ]
    for (const s of sdk) expect(s.errors).toEqual([])
    const records = [...es.records, ...sdk.flatMap((s) => s.records)]
    // --replace: the demo catalogue is emptied in the same batch as the writes.
    await env.DB.batch([...clearCatalogueStatements(env.DB), ...importStatements(env.DB, records)])
    await putUrlMappings(env.URL_MAPPINGS, importUrlMappings(records))
  })

  it("keeps the shop's content: the footer's pages still answer after the catalogue is replaced", async () => {
    for (const page of ['privacy-policy', 'terms-and-conditions', 'shipping-and-returns']) {
      const res = await SELF.fetch(`https://shop.test/${page}`)
      expect(res.status, page).toBe(200)
    }
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM cms_blocks').first<{ n: number }>()).not.toEqual({
      n: 0,
    })
  })

  it('takes the entity from _index when _type is _doc, and needs --type only for plain arrays', () => {
    const es = parseImportFile(es7, 'es7-catalog.ndjson', {})
    expect(es.counts).toEqual({ category: 3, attribute: 3, taxrule: 1, product: 7 })
    const untyped = parseImportFile(sdkProducts, 'sdk-products.json', {})
    expect(untyped.errors).toHaveLength(1)
    expect(untyped.errors[0]?.reason).toMatch(/neither _type nor _index names the entity; pass --type/)
    // What was converted is counted by kind and field.
    const kinds = [...es.coercions.keys()]
    expect(kinds).toEqual(
      expect.arrayContaining([
        'numeric string → number (category_ids[])',
        'numeric string → number (configurable_children[].color)',
        'numeric string → number (tax_class_id)',
        'numeric string → number (children_count)',
        'flag → boolean (is_active)',
        'comma-separated string → array (color_options)',
        'comma-separated string → array (customer_tax_class_ids)',
        'stock array → object (stock)',
        "missing → the parent's stock (configurable_children[].stock)",
        'missing → true (include_in_menu)',
        'missing → "text" (frontend_input)',
      ]),
    )
  })

  it('replaces the demo catalogue: only the imported products are listed', async () => {
    const all = await api('/catalog/vue_storefront_catalog/product/_search?size=100')
    const skus = (all.json as Json).hits.hits.map((h: { _source: Doc }) => h._source.sku).sort()
    expect(skus).toEqual(
      [
        'BWH',
        'DRIFT-CAP',
        'FOAM-VEST',
        'GULL-TEE',
        'HLT 01',
        'KELP-SHORTS',
        'REEF-SOCKS',
        'TIDE-SCARF',
      ].sort(),
    )
    const cat = await api(
      `/catalog/vue_storefront_catalog/category/_search?size=50&request=${encodeURIComponent(
        JSON.stringify({ query: { bool: { filter: { terms: { id: [810, 811, 820] } } } } }),
      )}`,
    )
    const cats = (cat.json as Json).hits.hits.map(
      (h: { _source: { id: number; include_in_menu: unknown } }) => [h._source.id, h._source.include_in_menu],
    )
    expect(cats.sort()).toEqual([
      [810, true],
      [811, false],
      [820, true],
    ])
  })

  it('lists in stock exactly what can be sold, and every listed document says so', async () => {
    const docs = await inStockListing()
    // FOAM-VEST's only variant with stock is disabled: not sellable, so not listed. KELP-SHORTS is
    // flagged in stock at quantity 0 with counted stock and no backorders: nothing to sell, sold out.
    expect(docs.map((d) => d.sku).sort()).toEqual(['BWH', 'DRIFT-CAP', 'GULL-TEE', 'HLT 01'].sort())
    for (const d of docs) expect(d.stock.is_in_stock).toBe(true)
    const stock = await api('/stock/list?skus=KELP-SHORTS,DRIFT-CAP,TIDE-SCARF,REEF-SOCKS,HLT%2001-SEA-S')
    const bySku = Object.fromEntries(
      stock.json.result.map((s: { sku: string; is_in_stock: boolean }) => [s.sku, s.is_in_stock]),
    )
    expect(bySku).toEqual({
      'KELP-SHORTS': false,
      'DRIFT-CAP': true,
      'TIDE-SCARF': false,
      'REEF-SOCKS': false,
      'HLT 01-SEA-S': true,
    })
  })

  it('accepts unmanaged stock at qty 0, backorders and SKUs with spaces; refuses in stock at qty 0 counted', async () => {
    // In stock at quantity 0, counted, no backorders: imported as sold out, so it is not oversold.
    expect(await stockRow('KELP-SHORTS')).toMatchObject({ qty: 0, manage_stock: 1, backorders: 0 })
    const soldOut = await api('/order', {
      body: order([{ sku: 'KELP-SHORTS', qty: 2, price: 45, name: 'Kelp Shorts' }]),
    })
    expect(soldOut.status).not.toBe(200)
    expect(await stockRow('KELP-SHORTS')).toMatchObject({ qty: 0 })
    const res = await api('/order', {
      body: order([
        { sku: 'DRIFT-CAP', qty: 5, price: 24, name: 'Driftwood Cap' },
        { sku: 'HLT 01-SEA-S', qty: 1, price: 39, parentSku: 'HLT 01' },
      ]),
    })
    expect(res.status).toBe(200)
    expect(res.json.result.orderNumber).toMatch(/^\d+$/)
    // Unmanaged stock is not counted; backorders go below zero.
    expect(await stockRow('HLT 01-SEA-S')).toMatchObject({ qty: 0, manage_stock: 0 })
    expect(await stockRow('DRIFT-CAP')).toMatchObject({ qty: -5, backorders: 1 })
  })

  it('refuses what counted stock cannot cover, and a sold-out product leaves the in-stock listing', async () => {
    expect((await inStockListing()).map((d) => d.sku)).toContain('GULL-TEE')
    const tooMany = await api('/order', { body: order([{ sku: 'GULL-TEE', qty: 4, price: 29 }]) })
    expect(tooMany.status).not.toBe(200)
    expect(await stockRow('GULL-TEE')).toMatchObject({ qty: 3 })
    const switchedOff = await api('/order', { body: order([{ sku: 'TIDE-SCARF', qty: 1, price: 19.5 }]) })
    expect(switchedOff.status).not.toBe(200)
    const all = await api('/order', { body: order([{ sku: 'GULL-TEE', qty: 3, price: 29 }]) })
    expect(all.status).toBe(200)
    expect(await stockRow('GULL-TEE')).toMatchObject({ qty: 0 })
    const after = await inStockListing()
    expect(after.map((d) => d.sku)).not.toContain('GULL-TEE')
    for (const d of after) expect(d.stock.is_in_stock).toBe(true)
  })

  it('renders one all-or-nothing run: a bad record in any file means nothing to write', () => {
    const bad =
      '{"_index":"vue_storefront_catalog_product_1","_type":"_doc","_id":"1","_source":{"id":1,"sku":"X","name":"n","type_id":"simple","price":"a lot","status":"1","visibility":"4","url_key":"x"}}'
    const run = prepareRun(
      [
        { text: es7, file: 'es7-catalog.ndjson' },
        { text: bad, file: 'bad.ndjson' },
      ],
      { replace: true },
    )
    expect(run.ok).toBe(false)
    expect(run).not.toHaveProperty('sql')
    if (!run.ok)
      expect(run.errors.map((e) => `${e.file}:${e.line}: ${e.reason}`)).toEqual([
        "bad.ndjson:1: invalid product 'X': price: expected a number, found text",
      ])
  })

  it('shows an imported product with its own photograph, served through the image route', async () => {
    await env.CATALOGUE_IMAGES.put('h/l/harbour-tank.jpg', SAMPLE_JPEG)
    const page = await SELF.fetch(
      'https://shop.test/coastal-tops/linen-tanks-811/harbour-linen-tank-8101.html',
    )
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('Harbour Linen Tank')
    const src = html.match(/<img[^>]+src="(\/img\/\d+\/\d+\/[^"]*h\/l\/harbour-tank\.jpg)"/)?.[1]
    expect(src, 'the product image is the imported photograph, through /img').toBeTruthy()
    const image = await SELF.fetch(`https://shop.test${src}`, { headers: { accept: 'image/webp,*/*' } })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/webp')
  })
})
