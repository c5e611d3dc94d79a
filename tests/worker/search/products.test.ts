// Catalogue search over products, on a hand-made fixture catalogue (tests/helpers/search-fixtures.ts).
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { PRICE_RANGES } from '../../../shared/config/catalog'
import { searchDocsInMemory, toJsDocs } from '../../../worker/search/memory/search-docs'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import {
  FIXTURE_PRODUCTS,
  ids,
  searchGet,
  searchPost,
  seedSearchFixtures,
} from '../../helpers/search-fixtures'
import { COLOUR_PRICE_AGGS, catalogScope, SHOP_LISTED, shopListing } from '../../helpers/search-requests.mjs'

beforeAll(async () => {
  await seedSearchFixtures()
})

describe('catalogue search: filters', () => {
  it('filters with terms on visibility, status and category_ids', async () => {
    const { status, json } = await searchGet('product', shopListing({ terms: { category_ids: [20, 22] } }), {
      sort: 'id:asc',
    })
    expect(status).toBe(200)
    expect(ids(json)).toEqual([1, 2, 9, 12])
    expect(json.hits.total).toBe(4)
    expect(json.hits.hits[0]).toMatchObject({ _index: 'vue_storefront_catalog', _type: 'product', _id: '1' })
  })

  it('applies range, term, match, exists, must_not and nested fields', async () => {
    const cases: [unknown, number[]][] = [
      [shopListing({ range: { final_price: { gte: 50, lt: 100 } } }), [1, 8, 9, 12]],
      [shopListing({ range: { price: { gt: 100 } } }), [3, 7, 11]],
      [shopListing({ term: { sku: 'KUR-010' } }), [10]],
      [shopListing({ match: { type_id: 'configurable' } }), [1, 2, 3, 11]],
      [shopListing({ terms: { 'category.category_id': [23] } }), [3, 11]],
      [shopListing({ terms: { 'configurable_children.sku': ['SAR-001-50-11'] } }), [1]],
      [shopListing({ terms: { 'stock.is_in_stock': [false] } }), [7]],
      [shopListing({ exists: { field: 'color_options' } }), [1, 2, 3, 11]],
      [shopListing({ bool: { must_not: [{ terms: { color: [49, 50] } }] } }), [3, 7, 8, 9, 12]],
      [shopListing({ terms: { url_path: ['p/jac-007'] } }), [7]],
      [shopListing({ terms: { id: ['12'] } }), [12]],
      [
        {
          query: {
            bool: {
              must: [{ range: { visibility: { gte: 2, lte: 4 } } }, { match_phrase: { name: 'silk saree' } }],
            },
          },
        },
        [1],
      ],
    ]
    for (const [body, expected] of cases) {
      const { status, json } = await searchGet('product', body, { sort: 'id:asc' })
      expect(status, JSON.stringify(body)).toBe(200)
      expect(ids(json), JSON.stringify(body)).toEqual(expected)
    }
  })

  it('answers the catalog-scope colour filter: own colour OR a configurable offering it', async () => {
    const { json } = await searchGet('product', shopListing(catalogScope('color', [49])), { sort: 'id:asc' })
    // 1 (red), 3 (configurable offering 49), 4 (red shirt), 11; 5 hidden, 6 disabled.
    expect(ids(json)).toEqual([1, 3, 4, 11])
  })
})

describe('catalogue search: facets', () => {
  it('counts terms, *_options, price ranges, min and max over the whole filtered set', async () => {
    const body = {
      ...shopListing({ terms: { category_ids: [20, 21, 22, 23] } }),
      aggs: {
        ...COLOUR_PRICE_AGGS,
        agg_min_price: { min: { field: 'final_price' } },
        agg_max_price: { max: { field: 'final_price' } },
      },
    }
    // Page size 1: the aggregations must still cover all 6 matching products (1, 2, 3, 9, 11, 12).
    const { json } = await searchGet('product', body, { size: '1' })
    expect(json.hits.total).toBe(6)
    expect(json.hits.hits).toHaveLength(1)
    expect(json.aggregations.agg_terms_color.buckets).toEqual([
      { key: 49, doc_count: 2 },
      { key: 50, doc_count: 1 },
      { key: 51, doc_count: 1 },
      { key: 52, doc_count: 1 },
      { key: 54, doc_count: 1 },
    ])
    expect(json.aggregations.agg_terms_color_options.buckets).toEqual([
      { key: 49, doc_count: 3 },
      { key: 50, doc_count: 2 },
      { key: 51, doc_count: 1 },
      { key: 52, doc_count: 1 },
    ])
    expect(json.aggregations.agg_range_price.buckets).toEqual([
      { key: '0.0-50.0', from: 0, to: 50, doc_count: 1 },
      { key: '50.0-100.0', from: 50, to: 100, doc_count: 2 },
      { key: '100.0-150.0', from: 100, to: 150, doc_count: 1 },
      { key: '150.0-*', from: 150, doc_count: 2 },
    ])
    expect(json.aggregations.agg_min_price).toEqual({ value: 40 })
    expect(json.aggregations.agg_max_price).toEqual({ value: 450 })
  })

  it('honours a terms aggregation size', async () => {
    const { json } = await searchGet('product', {
      ...shopListing(),
      aggs: { agg_terms_color: { terms: { field: 'color', size: 2 } } },
    })
    expect(json.aggregations.agg_terms_color.buckets).toEqual([
      { key: 49, doc_count: 3 },
      { key: 50, doc_count: 2 },
    ])
  })
})

describe('catalogue search: sorting and paging', () => {
  it('sorts by URI sort strings and body sorts', async () => {
    const latest = await searchGet('product', shopListing(), { sort: 'created_at:desc' })
    expect(ids(latest.json)).toEqual([12, 11, 10, 3, 9, 7, 8, 1, 2, 4])
    const cheap = await searchGet('product', shopListing(), { sort: 'final_price' })
    expect(ids(cheap.json)).toEqual([10, 4, 2, 8, 9, 1, 12, 3, 7, 11])
    const body = await searchPost('product', {
      ...shopListing(),
      sort: [{ final_price: { order: 'desc' } }, 'id'],
    })
    expect(ids(body.json)).toEqual([11, 7, 3, 12, 1, 9, 8, 2, 4, 10])
    const multi = await searchGet('product', shopListing(), { sort: 'type_id:asc,price:desc' })
    expect(ids(multi.json)).toEqual([11, 3, 1, 2, 7, 12, 9, 8, 4, 10])
  })

  it('pages with from and size; size not above 0 means 24, negative from means 0', async () => {
    const all = ids((await searchGet('product', shopListing(), { sort: 'id:asc' })).json)
    const page2 = await searchGet('product', shopListing(), { sort: 'id:asc', from: '3', size: '3' })
    expect(ids(page2.json)).toEqual(all.slice(3, 6))
    expect(page2.json.hits.total).toBe(all.length)
    const zero = await searchGet('product', shopListing(), { sort: 'id:asc', size: '0', from: '-5' })
    expect(ids(zero.json)).toEqual(all)
    const negative = await searchGet('product', shopListing(), { sort: 'id:asc', size: '-3' })
    expect(negative.status).toBe(200)
    expect(ids(negative.json)).toEqual(all)
  })
})

describe('catalogue search: source filtering and formats', () => {
  it('applies _source_include and _source_exclude (and their aliases)', async () => {
    const inc = await searchGet('product', shopListing({ terms: { id: [1] } }), {
      _source_include: 'sku,name,configurable_children.sku,stock',
    })
    expect(inc.json.hits.hits[0]._source).toEqual({
      sku: 'SAR-001',
      name: 'Ruby Silk Saree',
      stock: expect.objectContaining({ is_in_stock: true }),
      configurable_children: [
        { sku: 'SAR-001-49-10' },
        { sku: 'SAR-001-49-11' },
        { sku: 'SAR-001-50-10' },
        { sku: 'SAR-001-50-11' },
      ],
    })
    const exc = await searchGet('product', shopListing({ terms: { id: [1] } }), {
      _sourceExclude: 'configurable_children,description,media_*',
    })
    const src = exc.json.hits.hits[0]._source
    expect(src.sku).toBe('SAR-001')
    expect(src.configurable_children).toBeUndefined()
    expect(src.description).toBeUndefined()
    expect(src.media_gallery).toBeUndefined()
  })

  it('answers response_format=compact with renamed product fields', async () => {
    const { json } = await searchGet(
      'product',
      { ...shopListing({ terms: { id: [12] } }), aggs: { agg_terms_color: { terms: { field: 'color' } } } },
      { response_format: 'compact', _source_include: 'sku,name,price,final_price,status' },
    )
    expect(json).toEqual({
      hits: [{ sku: 'SAR-012', nm: 'Chanderi Saree', p: 95, fp: 95, s: 1, _score: expect.any(Number) }],
      total: 1,
      aggregations: { agg_terms_color: { buckets: [{ key: 54, doc_count: 1 }] } },
    })
    expect(json.took).toBeUndefined()
  })

  it('merges live stock from inventory into returned documents', async () => {
    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE sku = ?1').bind('KUR-010').run()
    const { json } = await searchGet('product', shopListing({ terms: { id: [10] } }))
    expect(json.hits.hits[0]._source.stock).toMatchObject({ qty: 0, is_in_stock: false })
    await env.DB.prepare('UPDATE inventory SET qty = 5 WHERE sku = ?1').bind('KUR-010').run()
  })

  it('accepts request_format=search-query and builds the same listing', async () => {
    const sq = {
      _availableFilters: [
        { field: 'color', scope: 'catalog', options: {} },
        { field: 'price', scope: 'catalog', options: {} },
      ],
      _appliedFilters: [
        { attribute: 'visibility', value: { in: [2, 3, 4] }, scope: 'default' },
        { attribute: 'status', value: { in: [0, 1] }, scope: 'default' },
        { attribute: 'category_ids', value: { in: [20, 21, 22, 23] }, scope: 'default' },
        { attribute: 'color', value: { in: [49] }, scope: 'catalog' },
      ],
      _appliedSort: [{ field: 'final_price', options: 'asc' }],
      _searchText: '',
    }
    const { status, json } = await searchGet('product', sq, { request_format: 'search-query' })
    expect(status).toBe(200)
    expect(ids(json)).toEqual([1, 3, 11])
    expect(json.aggregations.agg_terms_color_options.buckets).toEqual([
      { key: 49, doc_count: 3 },
      { key: 50, doc_count: 1 },
      { key: 52, doc_count: 1 },
    ])
    // One bucket per configured price bucket, [from, to), counting the three products' prices.
    const prices = json.hits.hits.map((h: { _source: { price: number } }) => h._source.price)
    expect(json.aggregations.agg_range_price.buckets.map((b: { doc_count: number }) => b.doc_count)).toEqual(
      PRICE_RANGES.map(
        (r) => prices.filter((p: number) => p >= r.from && (r.to === undefined || p < r.to)).length,
      ),
    )
  })
})

describe('catalogue search: full text', () => {
  const search = (text: string) => ({
    query: {
      bool: {
        must: {
          function_score: {
            functions: [{ filter: { match: { attribute_code: 'attribute_value' } }, weight: 1 }],
            score_mode: 'multiply',
            boost_mode: 'multiply',
            max_boost: 100,
            min_score: 1,
            query: {
              bool: {
                should: [
                  {
                    multi_match: {
                      fields: ['name^4', 'sku^2', 'category.name^1'],
                      query: text,
                      fuzziness: '2',
                      operator: 'or',
                      cutoff_frequency: '0.01',
                      max_expansions: '3',
                      prefix_length: '1',
                      minimum_should_match: '75%25',
                      tie_breaker: '1',
                    },
                  },
                  {
                    bool: {
                      should: [
                        { terms: { 'configurable_children.sku': text.split('-') } },
                        { match_phrase: { sku: { query: text, boost: 1 } } },
                        { match_phrase: { 'configurable_children.sku': { query: text, boost: 1 } } },
                      ],
                    },
                  },
                ],
              },
            },
          },
        },
        filter: { bool: { must: SHOP_LISTED } },
      },
    },
    min_score: 0.02,
  })

  it('ranks a name match above a sku match above a category-name match', async () => {
    const { json } = await searchGet('product', search('kurta'))
    const got = ids(json)
    // Names containing 'kurta': 2 (Emerald Kurta, also in Kurtas), 10 (Cotton Kurta); sku 'KURTA': 8;
    // category 'Kurtas' only: 9. Hidden 5 is filtered out.
    expect(new Set(got.slice(0, 2))).toEqual(new Set([2, 10]))
    expect(got.slice(2)).toEqual([8, 9])
    const scores = json.hits.hits.map((h: { _score: number }) => h._score)
    expect([...scores].sort((a, b) => b - a)).toEqual(scores)
  })

  it('tolerates typos (kurat finds kurtas, lehnga finds lehengas)', async () => {
    expect(
      ids((await searchGet('product', search('kurat'))).json)
        .slice(0, 2)
        .sort(),
    ).toEqual([10, 2])
    const lehenga = ids((await searchGet('product', search('lehnga'))).json)
    expect(new Set(lehenga)).toEqual(new Set([3, 11]))
  })

  it('finds a product by a child sku and by its own sku', async () => {
    expect(ids((await searchGet('product', search('SAR-001-50-11'))).json)[0]).toBe(1)
    expect(ids((await searchGet('product', search('JAC-007'))).json)[0]).toBe(7)
  })

  it('returns nothing for an unrelated word', async () => {
    const { json } = await searchGet('product', search('zzzzqqq'))
    expect(json.hits.total).toBe(0)
    expect(json.hits.hits).toEqual([])
  })

  it('agrees with the in-memory backend on scores, order and facets', async () => {
    const docs = toJsDocs(FIXTURE_PRODUCTS as unknown as Record<string, unknown>[], 'product')
    const bodies = [
      {
        ...search('kurta'),
        aggs: {
          c: { terms: { field: 'color' } },
          r: { range: { field: 'price', ranges: [{ to: 60 }, { from: 60 }] } },
        },
      },
      { ...search('lehnga saree'), aggs: { m: { max: { field: 'price' } } } },
      {
        ...shopListing({ bool: { should: [{ match: { name: 'saree' } }, { terms: { color: [50] } }] } }),
        sort: ['_score', { price: 'desc' }],
      },
      shopListing({
        bool: {
          should: [{ terms: { color: [49] } }, { terms: { color: [54] } }, { range: { price: { lt: 50 } } }],
          minimum_should_match: 2,
        },
      }),
    ]
    for (const body of bodies) {
      const plan = planSearch({ entityType: 'product', body })
      const sql = await searchProducts(env.DB, plan)
      const js = searchDocsInMemory(docs, plan)
      expect(sql.hits.map((h) => h.id)).toEqual(js.hits.map((h) => h.id))
      expect(sql.total).toBe(js.total)
      for (const [i, h] of sql.hits.entries()) expect(h.score).toBeCloseTo(js.hits[i]?.score ?? Number.NaN, 6)
      expect(sql.aggregations).toEqual(js.aggregations)
    }
  })
})
