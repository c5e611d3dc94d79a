import { describe, expect, it } from 'vitest'
import {
  buildProductSearch,
  catalogFilterClause,
  catalogSearchQueryString,
  fullTextQuery,
  listingAggregations,
  listingFilterClauses,
  priceRangeClause,
} from '../../../../shared/domain/search-query'
import { planSearch } from '../../../../worker/search'
import { parseAggs, parseQuery, parseSort } from '../../../../worker/search/dsl'
import { searchDocsInMemory, toJsDocs } from '../../../../worker/search/evaluate-js'

const base = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]

describe('listingFilterClauses (the catalogue search body of /api/catalog)', () => {
  it.each([
    ['always visibility and status', {}, base],
    [
      'out-of-stock listing off adds the stock clause',
      { listOutOfStock: false },
      [...base, { terms: { 'stock.is_in_stock': [true] } }],
    ],
    [
      'category and descendants',
      { categoryIds: [20, 21, 23] },
      [...base, { terms: { category_ids: [20, 21, 23] } }],
    ],
    [
      'colour filter with the configurable _options branch',
      {
        chosen: {
          color: [
            { id: '49', label: 'Red' },
            { id: '50', label: 'Blue' },
          ],
        },
      },
      [
        ...base,
        {
          bool: {
            should: [
              { terms: { color: [49, 50] } },
              {
                bool: {
                  must: [{ terms: { color_options: [49, 50] } }, { match: { type_id: 'configurable' } }],
                },
              },
            ],
          },
        },
      ],
    ],
    [
      'price range on final_price',
      { chosen: { price: [{ id: '50-100', label: '' }] } },
      [...base, { range: { final_price: { gte: 50, lte: 100 } } }],
    ],
    [
      'open price range',
      { chosen: { price: [{ id: '150-', label: '' }] } },
      [...base, { range: { final_price: { gte: 150 } } }],
    ],
    ['bad price id ignored', { chosen: { price: [{ id: 'x', label: '' }] } }, base],
    [
      'category filter uses category_ids',
      { chosen: { category: [{ id: '21', label: 'Tops' }] } },
      [...base, { terms: { category_ids: [21] } }],
    ],
  ])('%s', (_name, opts, expected) => {
    expect(listingFilterClauses(opts)).toEqual(expected)
  })
  it('builds single clauses', () => {
    expect(priceRangeClause({ from: 0, to: 50 })).toEqual({ range: { final_price: { gte: 0, lte: 50 } } })
    expect(catalogFilterClause('size', ['XL'])).toMatchObject({
      bool: { should: [{ terms: { size: ['XL'] } }, expect.anything()] },
    })
  })
})

describe('listingAggregations', () => {
  it('emits agg_terms_<attr>, _options (size 100) and the price ranges', () => {
    const aggs = listingAggregations(['color', 'category', 'price'])
    expect(aggs).toEqual({
      agg_terms_color: { terms: { field: 'color', size: 100 } },
      agg_terms_color_options: { terms: { field: 'color_options', size: 100 } },
      agg_terms_category: { terms: { field: 'category_ids', size: 100 } },
      agg_terms_price: { terms: { field: 'final_price', size: 100 } },
      agg_range_price: {
        range: {
          field: 'final_price',
          ranges: [{ from: 0, to: 50 }, { from: 50, to: 100 }, { from: 100, to: 150 }, { from: 150 }],
        },
      },
    })
  })
  it('adds the applied price range when it is not configured', () => {
    const aggs = listingAggregations(['price'], { from: 10, to: 20 })
    expect((aggs.agg_range_price as { range: { ranges: unknown[] } }).range.ranges).toContainEqual({
      from: 10,
      to: 20,
    })
  })
})

describe('buildProductSearch', () => {
  it('category listing: page size 24, Latest sort, filters and aggregations', () => {
    const req = buildProductSearch({ categoryIds: [20], chosen: { color: [{ id: '49', label: 'Red' }] } })
    expect(req.size).toBe(24)
    expect(req.from).toBe(0)
    expect(req.sort).toBe('created_at:desc')
    expect(req.request.query).toEqual({
      bool: {
        filter: {
          bool: {
            must: listingFilterClauses({
              categoryIds: [20],
              chosen: { color: [{ id: '49', label: 'Red' }] },
            }),
          },
        },
      },
    })
    expect(Object.keys(req.request.aggs ?? {})).toContain('agg_range_price')
    expect(req.request.min_score).toBeUndefined()
  })
  it.each([
    [{ sort: 'price-asc', from: 24, size: 24 }, 'final_price:asc', 24],
    [{ sort: 'price-desc', from: -3, size: 0 }, 'final_price:desc', 0],
    [{ sort: 'nonsense' }, 'created_at:desc', 0],
  ])('sort/paging %j', (opts, sort, from) => {
    const req = buildProductSearch(opts)
    expect(req.sort).toBe(sort)
    expect(req.from).toBe(from)
    expect(req.size).toBe(24)
  })
  it('text search: fuzzy boosted match, min score 0.02, relevance order', () => {
    const req = buildProductSearch({ searchText: ' kurta ', aggregations: false })
    expect(req.sort).toBeUndefined()
    expect(req.request.min_score).toBe(0.02)
    expect(req.request.aggs).toBeUndefined()
    expect(req.request.query).toMatchObject({ bool: { must: [fullTextQuery('kurta')] } })
    expect(JSON.stringify(req.request)).toContain('"fields":["name^4","sku^2","category.name^1"]')
    expect(JSON.stringify(req.request)).toContain('"fuzziness":2')
  })
  it('serialises to the GET query string', () => {
    const qs = new URLSearchParams(
      catalogSearchQueryString(buildProductSearch({ categoryIds: [2], aggregations: false })),
    )
    expect(qs.get('size')).toBe('24')
    expect(qs.get('sort')).toBe('created_at:desc')
    expect(JSON.parse(qs.get('request') ?? '')).toHaveProperty('query.bool.filter.bool.must')
  })
})

describe('the embedded search engine accepts what we build', () => {
  it.each([
    [
      'listing with every filter kind',
      {
        categoryIds: [20, 21],
        listOutOfStock: false,
        chosen: {
          color: [{ id: '49', label: '' }],
          price: [{ id: '150-', label: '' }],
          category: [{ id: '21', label: '' }],
        },
      },
    ],
    ['text search', { searchText: 'silk kurta', sort: 'price-asc' }],
  ])('%s', (_name, opts) => {
    const req = buildProductSearch(opts)
    expect(() => parseQuery(req.request.query)).not.toThrow()
    expect(() => parseAggs(req.request.aggs)).not.toThrow()
    expect(parseSort(req.sort).length).toBeLessThanOrEqual(1)
  })
})

describe('what a shopper finds (requests run by the in-memory search engine)', () => {
  const product = (id: number, extra: Record<string, unknown>) => ({
    id,
    sku: `P${id}`,
    name: `Product ${id}`,
    type_id: 'simple',
    visibility: 4,
    status: 1,
    final_price: 100 + id,
    created_at: `2026-01-${String((id % 28) + 1).padStart(2, '0')} 10:00:00`,
    category_ids: [20],
    stock: { is_in_stock: true },
    ...extra,
  })
  const catalogue = toJsDocs(
    [
      product(1, { name: 'Silk Kurta', color: 49, size: 'XL', final_price: 40 }),
      product(2, { name: 'Cotton Kurta', color: 50, size: '1.25', final_price: 160 }),
      product(3, {
        name: 'Anarkali',
        type_id: 'configurable',
        color: null,
        color_options: [49, 51],
        configurable_children: [{ sku: 'ZX-9931-L' }, { sku: 'ZX-9931-M' }],
        final_price: 150,
      }),
      product(4, { name: 'Sold-out Saree', color: 49, stock: { is_in_stock: false }, final_price: 90 }),
      product(5, { name: 'Hidden Stole', color: 49, visibility: 1 }),
      product(6, { name: 'Disabled Shawl', color: 49, status: 2 }),
      product(7, { name: 'Other Category', color: 49, category_ids: [30] }),
      product(8, { name: 'Numbered', size: '-3', final_price: 10 }),
      ...Array.from({ length: 40 }, (_, i) => product(100 + i, { name: `Plain ${i}`, category_ids: [40] })),
    ],
    'product',
  )
  const find = (opts: Parameters<typeof buildProductSearch>[0]) => {
    const req = buildProductSearch(opts)
    return searchDocsInMemory(
      catalogue,
      planSearch({
        entityType: 'product',
        body: req.request,
        size: req.size,
        from: req.from,
        sort: req.sort,
      }),
    )
  }
  const skus = (opts: Parameters<typeof buildProductSearch>[0]) =>
    find(opts)
      .hits.map((h) => h.source.sku as string)
      .sort()
  const chosen = (attribute: string, ...ids: string[]) => ({
    [attribute]: ids.map((id) => ({ id, label: id })),
  })

  it.each([
    ['red: simple products and configurables offering red', chosen('color', '49'), ['P1', 'P3', 'P4']],
    ['a colour only a configurable child has', chosen('color', '51'), ['P3']],
    ['a text size value', chosen('size', 'XL'), ['P1']],
    ['a decimal size value', chosen('size', '1.25'), ['P2']],
    ['a negative size value', chosen('size', '-3'), ['P8']],
    ['an empty choice restricts nothing', { color: [] }, ['P1', 'P2', 'P3', 'P4', 'P8']],
    ['an open price range', chosen('price', '150-'), ['P2', 'P3']],
    ['a closed price range, bounds included', chosen('price', '40-90'), ['P1', 'P4']],
  ])('category 20, %s', (_name, filter, expected) => {
    expect(skus({ categoryIds: [20], chosen: filter, size: 50 })).toEqual(expected)
  })

  it('out-of-stock products are listed unless that setting is off', () => {
    expect(skus({ categoryIds: [20], chosen: chosen('color', '49') })).toContain('P4')
    expect(skus({ categoryIds: [20], chosen: chosen('color', '49'), listOutOfStock: false })).not.toContain(
      'P4',
    )
  })

  it('a search for a variant sku finds its configurable', () => {
    expect(skus({ searchText: 'ZX-9931-L' })).toEqual(['P3'])
  })

  it.each([
    [{ categoryIds: [40], size: 5 }, 5, 40],
    [{ categoryIds: [40], size: 48 }, 40, 40],
    [{ categoryIds: [40], size: 0 }, 24, 40],
    [{ categoryIds: [40], size: -5 }, 24, 40],
    [{ categoryIds: [40], size: 30, from: 25 }, 15, 40],
  ])('paging %j → %d hits of %d', (opts, hits, total) => {
    const res = find(opts)
    expect(res.hits).toHaveLength(hits)
    expect(res.total).toBe(total)
  })

  it('an applied price range that is not configured gets its own count', () => {
    const res = find({ categoryIds: [20], chosen: chosen('price', '40-90') })
    const buckets = (
      res.aggregations.agg_range_price as { buckets: { from?: number; to?: number; doc_count: number }[] }
    ).buckets
    expect(buckets.find((b) => b.from === 40 && b.to === 90)).toBeDefined()
  })
})

describe('request details', () => {
  it.each([
    ['a range equal to a configured one', { from: 0, to: 50 }, 4],
    ['an open range equal to a configured one', { from: 150 }, 4],
    ['a range sharing only its start', { from: 0, to: 100 }, 5],
    ['a range sharing only its end', { from: 10, to: 50 }, 5],
    ['an open range starting where a closed one does', { from: 100 }, 5],
  ])('the applied price range: %s', (_name, applied, count) => {
    const aggs = listingAggregations(['price'], applied)
    const ranges = (aggs.agg_range_price as { range: { ranges: unknown[] } }).range.ranges
    expect(ranges).toHaveLength(count)
    expect(ranges).toContainEqual(applied)
  })

  it('an open range has no upper bound at all (not an undefined one)', () => {
    expect(priceRangeClause({ from: 150 })).toStrictEqual({ range: { final_price: { gte: 150 } } })
    const aggs = listingAggregations(['price'])
    expect((aggs.agg_range_price as { range: { ranges: unknown[] } }).range.ranges).toContainEqual({
      from: 150,
    })
    expect(JSON.stringify(aggs)).not.toContain('"to":null')
    expect(
      Object.keys(
        (aggs.agg_range_price as { range: { ranges: Record<string, unknown>[] } }).range.ranges.at(-1) ?? {},
      ),
    ).toEqual(['from'])
  })

  it.each([
    ['12', 12],
    ['-3', -3],
    ['1.25', 1.25],
    ['XL', 'XL'],
    ['x12', 'x12'],
    ['12x', '12x'],
    ['1.', '1.'],
    ['1.5x', '1.5x'],
  ])('term value %j → %j', (id, value) => {
    const clause = catalogFilterClause('size', [id]) as { bool: { should: unknown[] } }
    expect(clause.bool.should[0]).toStrictEqual({ terms: { size: [value] } })
  })

  it.each([
    [48, 48],
    [1, 1],
    [0, 24],
    [-5, 24],
    [undefined, 24],
  ])('size %j is sent as %d (the upstream API gets no size it would reject)', (size, expected) => {
    expect(buildProductSearch({ size }).size).toBe(expected)
  })

  it('a text search without a sort sends no sort parameter', () => {
    const qs = new URLSearchParams(catalogSearchQueryString(buildProductSearch({ searchText: 'kurta' })))
    expect(qs.has('sort')).toBe(false)
    expect(qs.get('size')).toBe('24')
    const sorted = new URLSearchParams(
      catalogSearchQueryString(buildProductSearch({ searchText: 'kurta', sort: 'price-asc' })),
    )
    expect(sorted.get('sort')).toBe('final_price:asc')
  })
})
