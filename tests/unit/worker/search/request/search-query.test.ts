/**
 * request_format=search-query: the body we build from a serialized SearchQuery against the one
 * vue-storefront-api's own storefront-query-builder builds from the same SearchQuery, with that
 * API's default settings (our boosts and price ranges). Every row must be equal as JSON.
 */
import { elasticsearch, SearchQuery } from '@vue-storefront/storefront-query-builder'
import bodybuilder from 'bodybuilder'
import { describe, expect, it } from 'vitest'
import { PRICE_RANGES, SEARCH_BOOSTS } from '../../../../../shared/config/catalog'
import { planSearch } from '../../../../../worker/search'
import { searchDocsInMemory, toJsDocs } from '../../../../../worker/search/memory/search-docs'
import { searchQueryToDsl } from '../../../../../worker/search/request/search-query'
import { simpleDoc } from '../../../../helpers/product-fixtures'

/** vue-storefront-api's config/default.json, elasticsearch and products parts (our boosts and ranges). */
const VSF_API_CONFIG = {
  elasticsearch: {
    searchScoring: {
      attributes: { attribute_code: { scoreValues: { attribute_value: { weight: 1 } } } },
      fuzziness: 2,
      cutoff_frequency: 0.01,
      max_expansions: 3,
      minimum_should_match: '75%',
      prefix_length: 2,
      boost_mode: 'multiply',
      score_mode: 'multiply',
      max_boost: 100,
      function_min_score: 1,
    },
    searchableAttributes: Object.fromEntries(
      Object.entries(SEARCH_BOOSTS).map(([f, boost]) => [f, { boost }]),
    ),
  },
  products: {
    filterFieldMapping: { 'category.name': 'category.name.keyword' },
    filterAggregationSize: { default: 10, size: 10, color: 10 },
    priceFilterKey: 'final_price',
    priceFilters: { ranges: PRICE_RANGES },
  },
}

type Filter = { attribute: string; value: unknown; scope?: string | string[] }
type Sq = {
  _appliedFilters?: Filter[]
  _availableFilters?: { field: string; scope?: string; options?: Record<string, unknown> }[]
  _appliedSort?: { field: string; options: unknown }[]
  _searchText?: string
}

const visible: Filter = { attribute: 'visibility', value: { in: [2, 3, 4] }, scope: 'default' }
const enabled: Filter = { attribute: 'status', value: { in: [0, 1] }, scope: 'default' }
const color = (...ids: number[]): Filter => ({ attribute: 'color', value: { in: ids }, scope: 'catalog' })
const size = (...ids: number[]): Filter => ({ attribute: 'size', value: { in: ids }, scope: 'catalog' })

async function theirs(sq: Sq): Promise<unknown> {
  const body = await elasticsearch.buildQueryBodyFromSearchQuery({
    config: VSF_API_CONFIG as never,
    queryChain: bodybuilder(),
    searchQuery: new SearchQuery(structuredClone(sq) as never),
  })
  return JSON.parse(JSON.stringify(body))
}

const cases: [string, Sq][] = [
  ['default filters only', { _appliedFilters: [visible, enabled] }],
  ['one catalog filter alone', { _appliedFilters: [color(49)] }],
  ['two catalog filters alone', { _appliedFilters: [color(49, 50), size(12)] }],
  ['default and catalog filters', { _appliedFilters: [visible, enabled, color(49), size(12, 13)] }],
  [
    'a catalog price range and a category',
    {
      _appliedFilters: [
        visible,
        { attribute: 'category_ids', value: { in: [20, 21] }, scope: 'default' },
        { attribute: 'price', value: { gte: 50, lte: 100 }, scope: 'catalog' },
      ],
    },
  ],
  ['a scalar default value', { _appliedFilters: [{ attribute: 'sku', value: 'KUR-010', scope: 'default' }] }],
  [
    'eq null (the field exists)',
    { _appliedFilters: [{ attribute: 'color', value: { eq: null }, scope: 'default' }] },
  ],
  [
    'nin and neq',
    {
      _appliedFilters: [
        visible,
        { attribute: 'id', value: { nin: [1, 2] }, scope: 'default' },
        { attribute: 'size', value: { neq: null }, scope: 'default' },
      ],
    },
  ],
  ['one or', { _appliedFilters: [visible, { attribute: 'color', value: { or: [49] }, scope: 'default' }] }],
  [
    'two ors (one of them must match)',
    {
      _appliedFilters: [
        visible,
        { attribute: 'color', value: { or: [49] }, scope: 'default' },
        { attribute: 'size', value: { or: null }, scope: 'default' },
      ],
    },
  ],
  [
    'nor',
    {
      _appliedFilters: [
        { attribute: 'color', value: { nor: [49] }, scope: 'default' },
        { attribute: 'size', value: { nor: null }, scope: 'default' },
      ],
    },
  ],
  [
    'orRange',
    {
      _appliedFilters: [
        visible,
        { attribute: 'final_price', value: { orGte: 150 }, scope: 'default' },
        { attribute: 'final_price', value: { orLt: 50 }, scope: 'default' },
      ],
    },
  ],
  ['a default range', { _appliedFilters: [{ attribute: 'id', value: { gte: 5, lt: 9 }, scope: 'default' }] }],
  ['an unknown operator is read as terms', { _appliedFilters: [{ attribute: 'sku', value: { like: 'A' } }] }],
  [
    'a filter scoped default and catalog',
    {
      _appliedFilters: [visible, { attribute: 'color', value: { in: [49] }, scope: ['default', 'catalog'] }],
    },
  ],
  [
    'facets: size 10, the per-filter size, the category.name mapping',
    {
      _appliedFilters: [visible],
      _availableFilters: [
        { field: 'color', scope: 'catalog' },
        { field: 'size', scope: 'catalog', options: { size: 25 } },
        { field: 'category.name', scope: 'catalog' },
        { field: 'material', scope: 'default' },
      ],
    },
  ],
  [
    'price facets with the applied range (also when it is a configured one)',
    {
      _appliedFilters: [visible, { attribute: 'price', value: { gte: 50, lte: 100 }, scope: 'catalog' }],
      _availableFilters: [{ field: 'price', scope: 'catalog' }],
    },
  ],
  [
    'price facets with an open applied range',
    {
      _appliedFilters: [visible, { attribute: 'price', value: { gte: 150 }, scope: 'catalog' }],
      _availableFilters: [
        { field: 'price', scope: 'catalog' },
        { field: 'color', scope: 'catalog' },
      ],
    },
  ],
  ['search text with the scoring functions', { _appliedFilters: [visible], _searchText: 'silk kurta' }],
  ['search text of a child sku', { _appliedFilters: [visible, color(49)], _searchText: 'ZX-9931-L' }],
  [
    'sorts in order',
    {
      _appliedFilters: [visible],
      _appliedSort: [
        { field: 'final_price', options: 'desc' },
        { field: 'created_at', options: { order: 'asc', missing: '_last' } },
      ],
    },
  ],
  [
    'filters with empty values only',
    { _appliedFilters: [{ attribute: 'x', value: {} }], _searchText: 'kurta' },
  ],
]

describe('request_format=search-query builds what vue-storefront-api builds', () => {
  it.each(cases)('%s', async (_name, sq) => {
    expect(JSON.parse(JSON.stringify(searchQueryToDsl(sq)))).toEqual(await theirs(sq))
  })

  it('a text search without filters still searches (the library builds an empty body)', async () => {
    expect(await theirs({ _searchText: 'kurta' })).toEqual({})
    expect(searchQueryToDsl({ _searchText: 'kurta' })).toHaveProperty('query.function_score')
  })

  it.each([
    ['not an object', []],
    ['filters not a list', { _appliedFilters: {} }],
    ['a filter without attribute', { _appliedFilters: [{ value: { in: [1] } }] }],
    ['a random sort', { _appliedFilters: [visible], _appliedSort: [{ field: 'random', options: 'asc' }] }],
  ])('%s answers a search error', (_name, sq) => {
    expect(() => searchQueryToDsl(sq)).toThrow()
  })
})

describe('what the built bodies find (in-memory engine)', () => {
  const doc = (id: number, extra: Record<string, unknown>) => simpleDoc(id, { final_price: 100, ...extra })
  const docs = toJsDocs(
    [
      doc(1, { color: 49, size: 12, final_price: 40 }),
      doc(2, { color: 50, size: 13, final_price: 160 }),
      doc(3, { type_id: 'configurable', color_options: [49, 51], size_options: [13] }),
      doc(4, { color: 52 }),
      doc(5, { color: 49, visibility: 1 }),
    ],
    'product',
  )
  const ids = (sq: Sq) =>
    searchDocsInMemory(docs, planSearch({ entityType: 'product', body: searchQueryToDsl(sq), size: 50 }))
      .hits.map((h) => h.id)
      .sort()

  it.each([
    ['two catalog filters: both must hold', [visible, color(49, 50), size(13)], [2, 3]],
    ['one catalog filter', [visible, color(49)], [1, 3]],
    [
      'two ors: either',
      [
        visible,
        { attribute: 'color', value: { or: [52] }, scope: 'default' },
        { attribute: 'size', value: { or: [12] }, scope: 'default' },
      ],
      [1, 4],
    ],
    [
      'orRange: either bound',
      [
        visible,
        { attribute: 'final_price', value: { orGte: 150 }, scope: 'default' },
        { attribute: 'final_price', value: { orLt: 50 }, scope: 'default' },
      ],
      [1, 2],
    ],
    [
      'nor with an or: not that colour, or that one',
      [
        visible,
        { attribute: 'color', value: { nor: [49, 50, 52] }, scope: 'default' },
        { attribute: 'color', value: { or: [52] }, scope: 'default' },
      ],
      [3, 4],
    ],
  ] as [string, Filter[], number[]][])('%s', (_name, filters, expected) => {
    expect(ids({ _appliedFilters: filters })).toEqual(expected)
  })
})
