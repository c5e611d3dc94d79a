// An imported product the export gave no dates keeps them empty: it sorts last by date either
// way (it is not "newest"), and its sitemap entry has no lastmod.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseImportFile } from '../../../scripts/catalogue/import/transform'
import { importStatements } from '../../../scripts/catalogue/import/write'
import catalogNdjson from '../../fixtures/import/catalog.ndjson?raw'

// In the fixture, category 500 holds IMP-SHAWL (id 9001, created 2025-10-01, changed 2025-10-02) and IMP-STOLE
// (id 9002, no dates).
const idsSortedBy = async (sort: string): Promise<number[]> => {
  const request = JSON.stringify({
    query: { bool: { filter: { bool: { must: [{ terms: { category_ids: [500] } }] } } } },
  })
  const res = await SELF.fetch(
    `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?sort=${sort}&request=${encodeURIComponent(request)}`,
  )
  expect(res.status).toBe(200)
  const json = (await res.json()) as {
    hits: { hits: Array<{ _id: string; _source: Record<string, unknown> }> }
  }
  return json.hits.hits.map((h) => Number(h._id))
}

describe('an imported product without dates', () => {
  beforeAll(async () => {
    const parsed = parseImportFile(catalogNdjson, 'catalog.ndjson', {})
    expect(parsed.errors).toEqual([])
    await env.DB.batch(importStatements(env.DB, parsed.records))
  })

  it('is stored without dates and read back with null dates', async () => {
    const row = await env.DB.prepare(
      "SELECT created_at, updated_at, json_extract(doc, '$.created_at') AS doc_created FROM products WHERE id = 9002",
    ).first<{ created_at: string; updated_at: string; doc_created: string | null }>()
    expect(row).toEqual({ created_at: '', updated_at: '', doc_created: null })
  })

  it('sorts last by date, newest first and oldest first', async () => {
    expect(await idsSortedBy('created_at:desc')).toEqual([9001, 9002])
    expect(await idsSortedBy('created_at:asc')).toEqual([9001, 9002])
    expect(await idsSortedBy('updated_at:desc')).toEqual([9001, 9002])
  })

  it('has no lastmod in the product sitemap; a dated product keeps its own', async () => {
    // Ids 9001–9002 are on the tenth sitemap file (1,000 ids a file).
    const res = await SELF.fetch('https://shop.test/sitemaps/products-10.xml')
    expect(res.status).toBe(200)
    const xml = await res.text()
    const entry = (slug: string) => xml.split('<url>').find((u) => u.includes(slug)) ?? ''
    expect(entry('imported-silk-stole')).toContain('<loc>')
    expect(entry('imported-silk-stole')).not.toContain('<lastmod>')
    expect(entry('imported-pashmina-shawl')).toContain('<lastmod>2025-10-02</lastmod>')
  })
})
