/**
 * /api/catalog answers products with the price fields vue-storefront-api's tax processor adds, for
 * the visitor's country, on the product and every variant; a product stored without final_price is
 * found by the price filter and sorted by price. Expected amounts are computed here from the stored
 * price and the tax rules in D1 (catalogue prices include the Indian GST of the product's class).
 */
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../scripts/catalogue/seed/generate'
import { productStatements } from '../../../scripts/catalogue/seed/write'
import type { Product } from '../../../shared/schemas/catalog'

interface Doc {
  [field: string]: unknown
  sku: string
  price: number
  price_incl_tax: number
  price_tax: number
  original_price: number
  original_price_incl_tax: number
  special_price_incl_tax: number
  final_price: number
  final_price_incl_tax: number
  pit?: number
  op?: number
  configurable_children?: Doc[]
}

const cat = generateCatalogue()
const now = Date.now()
const running = (p: Product) =>
  !!p.special_price &&
  p.special_price < (p.price ?? 0) &&
  (!p.special_to_date || Date.parse(p.special_to_date) > now + 86_400_000) &&
  (!p.special_from_date || Date.parse(p.special_from_date) < now - 86_400_000)
const simple = cat.products.find(
  (p) => p.type_id === 'simple' && p.status === 1 && (p.tax_class_id ?? 0) > 0 && !p.special_price,
)!
const onSale = cat.products.find((p) => p.type_id === 'simple' && p.status === 1 && running(p))
const configurable = cat.products.find(
  (p) => p.type_id === 'configurable' && p.status === 1 && p.configurable_children.length > 1,
)!

async function search(body: unknown, country?: string, params = '') {
  const res = await SELF.fetch(
    `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?request=${encodeURIComponent(JSON.stringify(body))}${params}`,
    country ? { headers: { cookie: `country=${country}` } } : {},
  )
  expect(res.status).toBe(200)
  return (await res.json()) as { hits: { total: number; hits: { _source: Doc }[] } }
}
const bySku = async (sku: string, country?: string) =>
  (await search({ query: { terms: { sku: [sku] } } }, country)).hits.hits[0]?._source as Doc

/**
 * The rate (percent) of a product's tax for a country, read from the stored tax rules: the first rule
 * of its class whose HSN prefixes (if any) match, and of that rule's rates for the country the first
 * slab whose bound holds for the value without the tax (GST of 5 % up to ₹2,500, 18 % above).
 */
async function rate(
  product: { tax_class_id?: number | null; hsn_code?: unknown },
  country: string,
  valueInclTax: number,
): Promise<number> {
  const rows = await env.DB.prepare('SELECT doc FROM tax_rules').all<{ doc: string }>()
  const hsn = String(product.hsn_code ?? '')
  for (const { doc } of rows.results) {
    const rule = JSON.parse(doc) as {
      product_tax_class_ids: number[]
      hsn_prefixes?: string[]
      rates: { tax_country_id: string; rate: number; max_value?: number | null }[]
    }
    if (!rule.product_tax_class_ids.includes(product.tax_class_id ?? 0)) continue
    if (rule.hsn_prefixes?.length && !rule.hsn_prefixes.some((p) => p && hsn.startsWith(p))) continue
    const slabs = rule.rates
      .filter((r) => r.tax_country_id === country)
      .sort((a, b) => (a.max_value ?? Infinity) - (b.max_value ?? Infinity))
    const hit = slabs.find((r) => valueInclTax / (1 + r.rate / 100) <= (r.max_value ?? Infinity) + 0.005)
    return (hit ?? slabs[slabs.length - 1])?.rate ?? 0
  }
  return 0
}

describe('server-side price fields', () => {
  it('India: the catalogue price is the price including GST; the net and the tax split it', async () => {
    const gst = await rate(simple, 'IN', simple.price as number)
    expect(gst).toBeGreaterThan(0)
    const doc = await bySku(simple.sku, 'IN')
    const gross = simple.price as number
    expect(doc.price).toBe(gross)
    expect(doc.price_incl_tax).toBeCloseTo(gross, 2)
    expect(doc.original_price_incl_tax).toBeCloseTo(gross, 2)
    expect(doc.original_price).toBeCloseTo(gross / (1 + gst / 100), 2)
    expect(doc.price_tax).toBeCloseTo(gross - gross / (1 + gst / 100), 2)
    expect(doc.special_price_incl_tax).toBe(0)
    expect(doc.final_price_incl_tax).toBeCloseTo(gross, 2)
  })

  it('the UK: GST taken out, VAT put in', async () => {
    const gst = await rate(simple, 'IN', simple.price as number)
    const net = (simple.price as number) / (1 + gst / 100)
    const vat = await rate(simple, 'GB', net)
    const doc = await bySku(simple.sku, 'GB')
    expect(doc.price_incl_tax).toBeCloseTo(net * (1 + vat / 100), 2)
    expect(doc.price_tax).toBeCloseTo(net * (vat / 100), 2)
    expect(doc.original_price).toBeCloseTo(net, 2)
  })

  it('a running special price is the price charged and the special price incl. tax', async () => {
    if (!onSale) return
    const doc = await bySku(onSale.sku, 'IN')
    expect(doc.price_incl_tax).toBeCloseTo(onSale.special_price as number, 2)
    expect(doc.special_price_incl_tax).toBeCloseTo(onSale.special_price as number, 2)
    expect(doc.original_price_incl_tax).toBeCloseTo(onSale.price as number, 2)
  })

  it('every variant has its own fields; the configurable shows its cheapest variant', async () => {
    const doc = await bySku(configurable.sku, 'IN')
    const children = doc.configurable_children ?? []
    expect(children.length).toBe(configurable.configurable_children.length)
    for (const ch of children) {
      // The slab of what is charged for the piece, and of its price before a special price.
      const gst = await rate(configurable, 'IN', ch.price_incl_tax)
      const listGst = await rate(configurable, 'IN', ch.price)
      expect(ch.original_price_incl_tax).toBeCloseTo(ch.price, 2)
      expect(ch.price_tax).toBeCloseTo((ch.price_incl_tax * gst) / (100 + gst), 1)
      expect(ch.original_price).toBeCloseTo(ch.price / (1 + listGst / 100), 2)
    }
    const cheapest = Math.min(...children.map((ch) => ch.price_incl_tax))
    expect(doc.price_incl_tax).toBeGreaterThanOrEqual(cheapest - 0.01)
    expect(doc.price_incl_tax).toBeLessThanOrEqual(
      Math.max(...children.map((ch) => ch.price_incl_tax)) + 0.01,
    )
  })

  it('compact answers carry the fields under vue-storefront-api short names', async () => {
    const res = await search({ query: { terms: { sku: [simple.sku] } } }, 'IN', '&response_format=compact')
    const hit = (res as unknown as { hits: Doc[] }).hits[0] as Doc
    expect(hit.pit).toBeCloseTo(simple.price as number, 2)
    expect(hit.op).toBeGreaterThan(0)
    expect(hit.price_incl_tax).toBeUndefined()
  })

  it('compact variants leave out the price fields equal to the product own and rename the rest', async () => {
    const full = await bySku(configurable.sku, 'IN')
    const res = await search(
      { query: { terms: { sku: [configurable.sku] } } },
      'IN',
      '&response_format=compact',
    )
    const hit = (res as unknown as { hits: Doc[] }).hits[0] as Doc
    const variants = hit.configurable_children ?? []
    ;(full.configurable_children ?? []).forEach((ch, i) => {
      const compact = variants[i] as Doc
      expect(compact.sku).toBe(ch.sku)
      if (ch.price_incl_tax === full.price_incl_tax) expect(compact.pit).toBeUndefined()
      else expect(compact.pit).toBe(ch.price_incl_tax)
      expect(compact.price).toBeUndefined()
    })
    expect(variants.some((v) => v.pit === undefined)).toBe(true)
  })
})

describe('a product stored without final_price', () => {
  it('is found by the price filter and sorted by price, with final_price in the answer', async () => {
    const base = structuredClone(simple) as Product & { final_price?: number }
    const product = {
      ...base,
      id: 990_001,
      sku: 'NO-FINAL-1',
      url_key: 'no-final-1',
      url_path: 'no-final-1',
      slug: 'no-final-1',
      price: 12_345,
      special_price: null,
      category_ids: [987_654],
    } as Product
    delete (product as { final_price?: number }).final_price
    await env.DB.batch(productStatements(env.DB, product))
    const found = await search({
      query: {
        bool: {
          filter: {
            bool: {
              must: [
                { terms: { category_ids: [987_654] } },
                { range: { final_price: { gte: 12_000, lte: 13_000 } } },
              ],
            },
          },
        },
      },
    })
    expect(found.hits.total).toBe(1)
    expect(found.hits.hits[0]?._source.final_price).toBe(12_345)
    const sorted = await search(
      { query: { range: { final_price: { gte: 12_300, lte: 12_400 } } } },
      'IN',
      '&sort=final_price:desc',
    )
    expect(sorted.hits.hits.map((h) => h._source.sku)).toContain('NO-FINAL-1')
  })
})
