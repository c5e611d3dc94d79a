import { describe, expect, it } from 'vitest'
import {
  buildProductSearch,
  catalogFilterClause,
  catalogSearchQueryString,
  fullTextQuery,
  listingAggregations,
  listingFilterClauses,
  priceRangeClause,
} from '../../shared/domain/search-query'
import { parseAggs, parseQuery, parseSort } from '../../worker/backend/search/dsl'

const base = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]

describe('listingFilterClauses (vsf-api-contract §1.1)', () => {
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
