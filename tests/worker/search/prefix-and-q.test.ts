/** prefix queries and the q parameter through /api/catalog, against the demo catalogue its own values. */
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../scripts/catalogue/seed/generate'

const cat = generateCatalogue()

async function search(body: unknown) {
  const res = await SELF.fetch(
    `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?size=100&request=${encodeURIComponent(JSON.stringify(body))}`,
  )
  return {
    status: res.status,
    json: (await res.json()) as { hits: { total: number; hits: { _source: { sku: string } }[] } },
  }
}

describe('prefix queries', () => {
  it.each(['SAR', 'KUR101', 'LEH1'])(
    'sku prefix %s finds exactly the products whose sku starts with it',
    async (prefix) => {
      const expected = cat.products
        .filter((p) => p.sku.startsWith(prefix))
        .map((p) => p.sku)
        .sort()
      expect(expected.length).toBeGreaterThan(0)
      const { status, json } = await search({ query: { prefix: { sku: prefix } } })
      expect(status).toBe(200)
      expect(json.hits.hits.map((h) => h._source.sku).sort()).toEqual(expected)
    },
  )

  it('a url_key prefix (a keyword) is case-sensitive like Elasticsearch', async () => {
    const p = cat.products[0]!
    const prefix = p.url_key.slice(0, 6)
    const expected = cat.products.filter((x) => x.url_key.startsWith(prefix)).length
    expect(
      (await search({ query: { prefix: { url_key: { value: prefix, boost: 2 } } } })).json.hits.total,
    ).toBe(expected)
    expect((await search({ query: { prefix: { url_key: prefix.toUpperCase() } } })).json.hits.total).toBe(0)
  })

  it('combines with filters', async () => {
    const body = {
      query: {
        bool: { must: [{ prefix: { sku: 'SAR' } }], filter: { terms: { type_id: ['configurable'] } } },
      },
    }
    const expected = cat.products.filter(
      (p) => p.sku.startsWith('SAR') && p.type_id === 'configurable',
    ).length
    expect((await search(body)).json.hits.total).toBe(expected)
  })

  it.each([
    [{ prefix: { sku: '' } }, /1 to 128 characters/],
    [{ prefix: { sku: 'x'.repeat(129) } }, /1 to 128 characters/],
    [{ prefix: { sku: 5 } }, /1 to 128 characters/],
    [{ prefix: { price: '1' } }, /number field/],
    [{ prefix: { sku: { value: 'S', fuzzy: true } } }, /Unsupported option in prefix/],
    [{ prefix: { 'a;b': 'S' } }, /field/i],
  ])('%j answers 400', async (query, message) => {
    const res = await SELF.fetch(
      `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?request=${encodeURIComponent(JSON.stringify({ query }))}`,
    )
    expect(res.status).toBe(400)
    expect(((await res.json()) as { result: string }).result).toMatch(message)
  })
})

describe('the q parameter', () => {
  const viaQ = async (q: string, extra = '') => {
    const res = await SELF.fetch(
      `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?size=100&q=${encodeURIComponent(q)}${extra}`,
    )
    return { status: res.status, json: (await res.json()) as { hits: { total: number }; result?: string } }
  }

  it('field values, prefixes, AND and NOT select what the catalogue holds', async () => {
    const p = cat.products
    const configurable = p.filter((x) => x.type_id === 'configurable')
    expect((await viaQ('type_id:configurable')).json.hits.total).toBe(configurable.length)
    expect((await viaQ('sku:SAR*')).json.hits.total).toBe(p.filter((x) => x.sku.startsWith('SAR')).length)
    expect((await viaQ('sku:SAR* AND type_id:configurable')).json.hits.total).toBe(
      configurable.filter((x) => x.sku.startsWith('SAR')).length,
    )
    expect((await viaQ('sku:SAR* -type_id:configurable')).json.hits.total).toBe(
      p.filter((x) => x.sku.startsWith('SAR') && x.type_id !== 'configurable').length,
    )
    expect((await viaQ('NOT type_id:configurable')).json.hits.total).toBe(p.length - configurable.length)
  })

  it('takes the place of the body query, and keeps the body aggregations', async () => {
    const body = { query: { match_none: {} }, aggs: { t: { terms: { field: 'type_id' } } } }
    const res = await SELF.fetch(
      `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?q=sku:SAR*&request=${encodeURIComponent(JSON.stringify(body))}`,
    )
    const json = (await res.json()) as {
      hits: { total: number }
      aggregations: { t: { buckets: unknown[] } }
    }
    expect(json.hits.total).toBe(cat.products.filter((x) => x.sku.startsWith('SAR')).length)
    expect(json.aggregations.t.buckets.length).toBeGreaterThan(0)
  })

  it('unsupported syntax answers 400 naming it', async () => {
    const { status, json } = await viaQ('price:[1 TO 5]')
    expect(status).toBe(400)
    expect(json.result).toMatch(/Unsupported q syntax: parentheses and ranges/)
  })
})
