// The seeded demo catalogue as the shop serves it: product documents from the search API carry
// the fabric, care, size-chart code and approved-rating summary the product and listing screens
// show, every garment's size chart is served, and store documents name their map image.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../scripts/catalogue/seed/generate'

const cat = generateCatalogue()
const base = 'https://shop.test'

interface Doc {
  sku: string
  name: string
  fabric?: string
  care?: string
  size_guide?: string
  rating_summary?: number | null
  review_count?: number
}

async function search(skus: string[]): Promise<Doc[]> {
  const query = { query: { bool: { filter: { terms: { sku: skus } } } } }
  const res = await SELF.fetch(
    `${base}/api/catalog/vue_storefront_catalog/product/_search?size=50&request=${encodeURIComponent(JSON.stringify(query))}`,
  )
  expect(res.status).toBe(200)
  const body = (await res.json()) as { hits: { hits: Array<{ _source: Doc }> } }
  return body.hits.hits.map((h) => h._source)
}

describe('the seeded demo catalogue through the API', () => {
  it('serves garments with fabric, care, size chart and their approved rating', async () => {
    const reviewed = cat.products.filter(
      (p) => p.status === 1 && cat.reviews.some((r) => r.product_id === p.id && r.review_status === 1),
    )
    const picked = reviewed.slice(0, 10)
    expect(picked.length).toBeGreaterThan(3)
    const docs = await search(picked.map((p) => p.sku))
    expect(docs.length).toBe(picked.length)
    for (const doc of docs) {
      const approved = cat.reviews.filter(
        (r) => r.review_status === 1 && r.product_id === cat.products.find((p) => p.sku === doc.sku)?.id,
      )
      const stars = approved.map((r) => (r.ratings as Array<{ value: number }>)[0]?.value ?? 0)
      expect(doc.review_count, doc.sku).toBe(approved.length)
      expect(doc.rating_summary, doc.sku).toBeCloseTo(stars.reduce((a, b) => a + b, 0) / stars.length, 1)
      expect(doc.fabric, doc.sku).toBeTruthy()
      expect(doc.care, doc.sku).toBeTruthy()
      expect(doc.size_guide, doc.sku).toBeTruthy()
    }
  })

  it('answers the size chart of every garment type with measurements', async () => {
    const codes = [
      ...new Set(cat.products.map((p) => (p as { size_guide?: string }).size_guide).filter(Boolean)),
    ]
    const res = await SELF.fetch(`${base}/api/product/size-guide-collection`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ codes }),
    })
    expect(res.status).toBe(200)
    const guides = ((await res.json()) as { result: Array<{ code: string; rows: string[][] }> }).result
    expect(guides.map((g) => g.code).sort()).toEqual([...codes].sort())
    for (const g of guides)
      for (const row of g.rows) expect(row.slice(1).join(' '), g.code).toMatch(/\d+ \(\d+ cm\)/)
  })

  it('shows each store page with its own phone, its hours and its map', async () => {
    for (const store of cat.stores) {
      const res = await SELF.fetch(`${base}/store-locator/${store.code}`)
      expect(res.status, store.code).toBe(200)
      const html = await res.text()
      expect(html, store.code).toContain(store.phone as string)
      expect(html, store.code).toContain(`/b/map-${store.code}.svg`)
      for (const h of store.hours) expect(html, store.code).toContain(h)
    }
  })
})
