// Catalogue search on the seeded demo catalogue: a real VSF category query checked against an
// independent computation over the stored documents, the category tree query, and the other
// entity types.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { listedDoc, searchGet, searchPost } from '../../helpers/search-fixtures'
import { COLOUR_PRICE_AGGS, catalogScope, shopListing } from '../../helpers/search-requests.mjs'

interface Doc {
  id: number
  type_id: string
  status: number
  visibility: number
  price: number
  updated_at: string
  color?: number | null
  color_options?: number[] | null
  category_ids?: number[]
}

let products: Doc[] = []
let categories: { id: number; parent_id: number; position: number; is_active: boolean; level: number }[] = []

beforeAll(async () => {
  const p = await env.DB.prepare('SELECT doc FROM products').all<{ doc: string }>()
  products = p.results.map((r) => JSON.parse(r.doc))
  const c = await env.DB.prepare('SELECT doc FROM categories').all<{ doc: string }>()
  categories = c.results.map((r) => JSON.parse(r.doc))
})

function descendants(id: number): number[] {
  const out = [id]
  for (const c of categories) if (c.parent_id === id) out.push(...descendants(c.id))
  return out
}

function countBy(values: (number | null | undefined)[]): Map<number, number> {
  const m = new Map<number, number>()
  for (const v of values) if (typeof v === 'number') m.set(v, (m.get(v) ?? 0) + 1)
  return m
}

describe('a real VSF category query on the demo catalogue', () => {
  it('returns the right products and facet counts', async () => {
    const women = categories.find((c) => c.level === 2 && c.position === 1)
    expect(women).toBeDefined()
    const catIds = descendants(women?.id ?? 0)
    const inCategory = products.filter(
      (p) => listedDoc(p) && (p.category_ids ?? []).some((c) => catIds.includes(c)),
    )
    // The most common colour offered in the category (own colour or a configurable's option).
    const colourCounts = countBy(inCategory.flatMap((p) => [p.color, ...(p.color_options ?? [])]))
    const colour = [...colourCounts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] as number
    const expected = inCategory.filter(
      (p) => p.color === colour || ((p.color_options ?? []).includes(colour) && p.type_id === 'configurable'),
    )
    expected.sort((a, b) =>
      a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : a.id - b.id,
    )
    expect(expected.length).toBeGreaterThan(5)

    const request = {
      ...shopListing({ terms: { category_ids: catIds } }, catalogScope('color', [colour])),
      aggs: COLOUR_PRICE_AGGS,
    }
    const { status, json } = await searchGet('product', request, {
      size: '50',
      from: '0',
      sort: 'updated_at:desc',
    })
    expect(status).toBe(200)
    expect(json.hits.total).toBe(expected.length)
    expect(json.hits.hits.map((h: { _id: string }) => Number(h._id))).toEqual(
      expected.slice(0, 50).map((p) => p.id),
    )

    const byCount = (m: Map<number, number>) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
        .map(([key, doc_count]) => ({ key, doc_count }))
    expect(json.aggregations.agg_terms_color.buckets).toEqual(byCount(countBy(expected.map((p) => p.color))))
    expect(json.aggregations.agg_terms_color_options.buckets).toEqual(
      byCount(countBy(expected.flatMap((p) => [...new Set(p.color_options ?? [])]))),
    )
    const inRange = (from: number, to?: number) =>
      expected.filter((p) => p.price >= from && (to === undefined || p.price < to)).length
    expect(json.aggregations.agg_range_price.buckets).toEqual([
      { key: '0.0-50.0', from: 0, to: 50, doc_count: inRange(0, 50) },
      { key: '50.0-100.0', from: 50, to: 100, doc_count: inRange(50, 100) },
      { key: '100.0-150.0', from: 100, to: 150, doc_count: inRange(100, 150) },
      { key: '150.0-*', from: 150, doc_count: inRange(150) },
    ])
  })
})

describe('other entity types', () => {
  it('loads the category tree with size=4000 and sort=position:asc', async () => {
    const { status, json } = await searchGet(
      'category',
      { query: { bool: { filter: { bool: { must: [{ terms: { is_active: [true] } }] } } } } },
      {
        size: '4000',
        sort: 'position:asc',
        _source_include: 'id,name,position,children_data.id,children_data.name',
      },
    )
    expect(status).toBe(200)
    const active = categories
      .filter((c) => c.is_active)
      .sort((a, b) => a.position - b.position || a.id - b.id)
    expect(json.hits.total).toBe(active.length)
    expect(json.hits.hits.map((h: { _id: string }) => Number(h._id))).toEqual(active.map((c) => c.id))
    const root = json.hits.hits.find((h: { _id: string }) => h._id === '2')._source
    expect(Object.keys(root).sort()).toEqual(['children_data', 'id', 'name', 'position'])
    expect(root.children_data.map((c: { id: number }) => c.id)).toEqual(
      categories
        .filter((c) => c.parent_id === 2)
        .sort((a, b) => a.position - b.position || a.id - b.id)
        .map((c) => c.id),
    )
  })

  it('finds categories by parent, slug and url_path', async () => {
    const byParent = await searchGet(
      'category',
      { query: { bool: { filter: { bool: { must: [{ terms: { parent_id: [2] } }] } } } } },
      { size: '4000', sort: 'position:asc' },
    )
    expect(byParent.json.hits.total).toBe(categories.filter((c) => c.parent_id === 2).length)
    const slug = await searchGet('category', { query: { bool: { filter: { terms: { slug: ['sarees'] } } } } })
    expect(slug.json.hits.hits.map((h: { _source: { slug: string } }) => h._source.slug)).toEqual(['sarees'])
  })

  it('answers attribute, taxrule, review, cms_page and cms_block queries', async () => {
    const attrs = await searchGet('attribute', {
      query: { bool: { filter: { bool: { must: [{ terms: { attribute_code: ['color', 'size'] } }] } } } },
    })
    expect(
      attrs.json.hits.hits
        .map((h: { _source: { attribute_code: string } }) => h._source.attribute_code)
        .sort(),
    ).toEqual(['color', 'size'])
    const rules = await searchGet('taxrule', {})
    const ruleCount = await env.DB.prepare('SELECT COUNT(*) AS n FROM tax_rules').first<{ n: number }>()
    expect(rules.json.hits.total).toBe(ruleCount?.n)
    const review = await env.DB.prepare(
      'SELECT product_id FROM reviews WHERE review_status = 1 LIMIT 1',
    ).first<{ product_id: number }>()
    const reviews = await searchPost('review', {
      query: {
        bool: {
          filter: {
            bool: {
              must: [{ terms: { product_id: [review?.product_id] } }, { terms: { review_status: [1] } }],
            },
          },
        },
      },
    })
    const expectedReviews = await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM reviews WHERE product_id = ?1 AND review_status = 1',
    )
      .bind(review?.product_id)
      .first<{ n: number }>()
    expect(reviews.json.hits.total).toBe(expectedReviews?.n)
    const page = await searchGet('cms_page', {
      query: { bool: { filter: { terms: { identifier: ['about-us'] } } } },
    })
    expect(page.json.hits.hits[0]._source.identifier).toBe('about-us')
    const blocks = await searchGet('cms_block', {}, { size: '500' })
    const blockCount = await env.DB.prepare('SELECT COUNT(*) AS n FROM cms_blocks').first<{ n: number }>()
    expect(blocks.json.hits.total).toBe(blockCount?.n)
  })

  it('full-text searches the demo catalogue with typos', async () => {
    const sq = {
      _availableFilters: [],
      _appliedFilters: [{ attribute: 'visibility', value: { in: [3, 4] }, scope: 'default' }],
      _appliedSort: [],
      _searchText: 'organza sare',
    }
    const { status, json } = await searchGet('product', sq, { request_format: 'search-query', size: '5' })
    expect(status).toBe(200)
    expect(json.hits.total).toBeGreaterThan(0)
    expect(json.hits.hits[0]._source.name.toLowerCase()).toMatch(/organza|saree/)
  })
})
