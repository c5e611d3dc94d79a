/** Terms sub-aggregations through /api/catalog, against counts made here from the demo catalogue. */
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../scripts/catalogue/seed/generate'
import { withIndexedFinalPrice } from '../../../worker/search/semantics/server-prices'

const cat = generateCatalogue()

type Bucket = { key: unknown; doc_count: number; [sub: string]: unknown }
async function search(body: unknown) {
  const res = await SELF.fetch(
    `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?size=1&request=${encodeURIComponent(JSON.stringify(body))}`,
  )
  return { status: res.status, json: (await res.json()) as { result?: string; aggregations?: unknown } }
}

describe('terms sub-aggregations', () => {
  it('counts each bucket sub-aggregations over that bucket documents', async () => {
    const { status, json } = await search({
      query: { terms: { status: [1] } },
      aggs: {
        types: {
          terms: { field: 'type_id', size: 10 },
          aggs: { colors: { terms: { field: 'color', size: 100 } }, top: { max: { field: 'final_price' } } },
        },
        plain: { terms: { field: 'visibility' } },
      },
    })
    expect(status).toBe(200)
    const aggregations = (json as { aggregations: Record<string, { buckets: Bucket[] }> }).aggregations
    expect(aggregations.plain?.buckets.length).toBeGreaterThan(0)
    const enabled = cat.products.filter((p) => p.status === 1)
    const types = aggregations.types?.buckets ?? []
    expect(types.map((b) => b.key).sort()).toEqual([...new Set(enabled.map((p) => p.type_id))].sort())
    for (const bucket of types) {
      const ofType = enabled.filter((p) => p.type_id === bucket.key)
      expect(bucket.doc_count).toBe(ofType.length)
      const colors = new Map<number, number>()
      for (const p of ofType)
        if (typeof p.color === 'number') colors.set(p.color, (colors.get(p.color) ?? 0) + 1)
      const got = (bucket.colors as { buckets: Bucket[] }).buckets
      expect(new Map(got.map((b) => [b.key as number, b.doc_count]))).toEqual(colors)
      // The index's final price: a grouped set's is its cheapest piece's, as its tile shows.
      const prices = ofType
        .map(
          (p) =>
            withIndexedFinalPrice(p as Parameters<typeof withIndexedFinalPrice>[0], Date.now()).final_price,
        )
        .filter((x): x is number => typeof x === 'number')
      expect((bucket.top as { value: number | null }).value).toBe(prices.length ? Math.max(...prices) : null)
    }
  })

  it.each([
    [
      { r: { range: { field: 'price', ranges: [{ to: 5 }] }, aggs: { x: { terms: { field: 'color' } } } } },
      /only terms aggregations/,
    ],
    [
      {
        t: {
          terms: { field: 'color' },
          aggs: { x: { terms: { field: 'size' }, aggs: { y: { max: { field: 'price' } } } } },
        },
      },
      /one level deep/,
    ],
    [
      { t: { terms: { field: 'color', size: 51 }, aggs: { x: { max: { field: 'price' } } } } },
      /at most 50 buckets/,
    ],
    [
      Object.fromEntries(
        Array.from({ length: 17 }, (_, i) => [
          `t${i}`,
          { terms: { field: 'color', size: 1 }, aggs: { x: { max: { field: 'price' } } } },
        ]),
      ),
      /Too many aggregations/,
    ],
    [{ t: { terms: { field: 'color' }, aggs: {} } }, /non-empty object/],
    [
      { t: { terms: { field: 'color' }, aggs: { x: { median: { field: 'price' } } } } },
      /Unsupported aggregation type/,
    ],
  ])('%j answers 400', async (aggs, message) => {
    const { status, json } = await search({ aggs })
    expect(status).toBe(400)
    expect(json.result).toMatch(message)
  })
})
