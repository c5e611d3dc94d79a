import { elasticsearch, SearchQuery } from '@vue-storefront/storefront-query-builder'
import bodybuilder from 'bodybuilder'
import { describe, expect, it } from 'vitest'
import { PRICE_RANGES } from '../../../../shared/config/catalog'
import {
  buildCatalogQuery,
  type CatalogQuery,
  catalogFilterClause,
  catalogSearchQueryString,
  catalogSearchRequest,
  fullTextQuery,
  listingAggregations,
  listingFilterClauses,
  priceRangeClause,
  termValue,
} from '../../../../shared/domain/search-query'
import { planSearch } from '../../../../worker/search'
import { searchDocsInMemory, toJsDocs } from '../../../../worker/search/memory/search-docs'
import { parseAggs } from '../../../../worker/search/request/parse-aggs'
import { parseQuery } from '../../../../worker/search/request/parse-query'
import { parseSort } from '../../../../worker/search/request/parse-sort'
import { homeShopper, resolveShownPrice } from '../../../../worker/search/request/shown-price'
import { simpleDoc } from '../../../helpers/product-fixtures'

const base = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]

describe('listingFilterClauses (the catalogue search body of /api/catalog)', () => {
  it.each([
    ['always visibility and status', {}, base],
    [
      'out-of-stock listing off adds the stock clause',
      { inStockOnly: true },
      [...base, { terms: { 'stock.is_in_stock': [true] } }],
    ],
    [
      'category and descendants',
      { categoryIds: [20, 21, 23] },
      [...base, { terms: { category_ids: [20, 21, 23] } }],
    ],
    [
      'colour filter with the configurable _options branch',
      { filters: { color: [49, 50] } },
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
      { price: { from: 50, to: 100 } },
      [...base, { range: { final_price: { gte: 50, lt: 100 } } }],
    ],
    ['open price range', { price: { from: 150 } }, [...base, { range: { final_price: { gte: 150 } } }]],
    ['an empty price range is ignored', { price: {} }, base],
    [
      'category filter uses category_ids',
      { filters: { category: [21] } },
      [...base, { terms: { category_ids: [21] } }],
    ],
    [
      'category_ids as a filter key is a plain field too',
      { filters: { category_ids: [21] } },
      [...base, { terms: { category_ids: [21] } }],
    ],
  ])('%s', (_name, opts: CatalogQuery, expected) => {
    expect(listingFilterClauses(opts)).toEqual(expected)
  })
  it('builds single clauses', () => {
    expect(priceRangeClause({ from: 0, to: 50 })).toEqual({ range: { final_price: { gte: 0, lt: 50 } } })
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
          ranges: PRICE_RANGES.map((r) => ({ ...r })),
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

describe('buildCatalogQuery', () => {
  it('category listing: page size 24, Latest sort, filters and aggregations', () => {
    const params: CatalogQuery = {
      categoryIds: [20],
      filters: { color: [49] },
      aggregations: ['color', 'price'],
    }
    const q = buildCatalogQuery(params)
    expect(q.size).toBe(24)
    expect(q.from).toBe(0)
    expect(q.sort).toBe('created_at:desc')
    expect(q.body.query).toEqual({ bool: { filter: { bool: { must: listingFilterClauses(params) } } } })
    expect(Object.keys((q.body.aggs as object) ?? {})).toContain('agg_range_price')
    expect(q.body.min_score).toBeUndefined()
  })
  it.each([
    [{ sort: { field: 'final_price', order: 'asc' }, from: 24, size: 24 }, 'final_price:asc', 24],
    [{ sort: { field: 'final_price', order: 'desc' }, from: -3, size: 0 }, 'final_price:desc', 0],
    [{ from: 2.7 }, 'created_at:desc', 2],
  ] as [CatalogQuery, string, number][])('sort/paging %j', (opts, sort, from) => {
    const q = buildCatalogQuery(opts)
    expect(q.sort).toBe(sort)
    expect(q.from).toBe(from)
    expect(q.size).toBe(24)
  })
  it('text search: fuzzy boosted match, min score 0.02, relevance order', () => {
    const req = catalogSearchRequest({ text: ' kurta ' })
    expect(req.sort).toBeUndefined()
    expect(req.request.min_score).toBe(0.02)
    expect(req.request.aggs).toBeUndefined()
    expect(req.request.query).toMatchObject({ bool: { must: fullTextQuery('kurta') } })
    expect(JSON.stringify(req.request)).toContain('"fields":["name^4","sku^2","category.name^1"]')
    expect(JSON.stringify(req.request)).toContain('"fuzziness":2')
  })
  it('final price bounds only when asked for (the Commerce port answers them) and price is faceted', () => {
    const aggs = (o?: { priceBounds: boolean }, facets = ['price']) =>
      Object.keys(buildCatalogQuery({ aggregations: facets }, o).body.aggs as object)
    expect(aggs({ priceBounds: true })).toEqual(
      expect.arrayContaining(['agg_min_final_price', 'agg_max_final_price']),
    )
    expect(aggs()).not.toContain('agg_min_final_price')
    expect(aggs({ priceBounds: true }, ['color'])).not.toContain('agg_min_final_price')
  })
  it('the out-of-stock listing setting decides unless the caller asks for in-stock only', () => {
    expect(JSON.stringify(buildCatalogQuery({}).body)).not.toContain('is_in_stock')
    expect(JSON.stringify(buildCatalogQuery({ inStockOnly: true }).body)).toContain(
      '"stock.is_in_stock":[true]',
    )
  })
  it('serialises to the GET query string', () => {
    const qs = new URLSearchParams(catalogSearchQueryString(catalogSearchRequest({ categoryIds: [2] })))
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
        inStockOnly: true,
        filters: { color: [49], category: [21] },
        price: { from: 150 },
        aggregations: ['color', 'category', 'price'],
      },
    ],
    ['text search', { text: 'silk kurta', sort: { field: 'final_price', order: 'asc' } }],
  ] as [string, CatalogQuery][])('%s', (_name, opts) => {
    const req = catalogSearchRequest(opts)
    expect(() => parseQuery(req.request.query)).not.toThrow()
    expect(() => parseAggs(req.request.aggs)).not.toThrow()
    expect(parseSort(req.sort).length).toBeLessThanOrEqual(1)
  })
})

describe('what a shopper finds (requests run by the in-memory search engine)', () => {
  const product = (id: number, extra: Record<string, unknown>) =>
    simpleDoc(id, {
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
  const find = (opts: CatalogQuery) => {
    const req = catalogSearchRequest({ aggregations: ['color', 'size', 'price'], ...opts })
    return searchDocsInMemory(
      catalogue,
      planSearch({
        entityType: 'product',
        // The shown price as the engine resolves it for a shopper at home in the base currency:
        // the catalogue price.
        body: resolveShownPrice(req.request, homeShopper(), 'final_price').body,
        size: req.size,
        from: req.from,
        sort: req.sort,
      }),
    )
  }
  const skus = (opts: CatalogQuery) =>
    find(opts)
      .hits.map((h) => h.source.sku as string)
      .sort()
  /** The params of a listing URL's filter choice (ids as the URL has them). */
  const chosen = (attribute: string, ...ids: string[]): CatalogQuery => {
    if (attribute !== 'price') return { filters: { [attribute]: ids.map(termValue) } }
    const [from, to] = (ids[0] ?? '').split('-')
    return { price: { from: Number(from), ...(to ? { to: Number(to) } : {}) } }
  }

  it.each([
    ['red: simple products and configurables offering red', chosen('color', '49'), ['P1', 'P3', 'P4']],
    ['a colour only a configurable child has', chosen('color', '51'), ['P3']],
    ['a text size value', chosen('size', 'XL'), ['P1']],
    ['a decimal size value', chosen('size', '1.25'), ['P2']],
    ['a negative size value', chosen('size', '-3'), ['P8']],
    ['an empty choice restricts nothing', { filters: { color: [] } }, ['P1', 'P2', 'P3', 'P4', 'P8']],
    ['an open price range', chosen('price', '150-'), ['P2', 'P3']],
    // [from, to): a product priced at `to` is in the band that starts there.
    ['a closed price range, its start included and its end not', chosen('price', '40-90'), ['P1']],
    [
      'a closed price range ending past a product at its former end',
      chosen('price', '40-90.01'),
      ['P1', 'P4'],
    ],
  ])('category 20, %s', (_name, filter, expected) => {
    expect(skus({ categoryIds: [20], ...filter, size: 50 })).toEqual(expected)
  })

  it('out-of-stock products are listed unless that setting is off', () => {
    expect(skus({ categoryIds: [20], ...chosen('color', '49') })).toContain('P4')
    expect(skus({ categoryIds: [20], ...chosen('color', '49'), inStockOnly: true })).not.toContain('P4')
  })

  it('a search for a variant sku finds its configurable', () => {
    expect(skus({ text: 'ZX-9931-L' })).toEqual(['P3'])
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
    const res = find({ categoryIds: [20], ...chosen('price', '40-90') })
    const buckets = (
      res.aggregations.agg_range_price as { buckets: { from?: number; to?: number; doc_count: number }[] }
    ).buckets
    expect(buckets.find((b) => b.from === 40 && b.to === 90)).toBeDefined()
  })
})

describe('request details', () => {
  it.each([
    ['a range equal to a configured one', { from: 1000, to: 2000 }, PRICE_RANGES.length],
    ['an open range equal to a configured one', { from: 1000000 }, PRICE_RANGES.length],
    ['a range sharing only its start', { from: 1000, to: 5000 }, PRICE_RANGES.length + 1],
    ['a range sharing only its end', { from: 3000, to: 5000 }, PRICE_RANGES.length + 1],
    ['an open range starting where a closed one does', { from: 500000 }, PRICE_RANGES.length + 1],
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
      from: 1000000,
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
    const clause = catalogFilterClause('size', [termValue(id)]) as { bool: { should: unknown[] } }
    expect(clause.bool.should[0]).toStrictEqual({ terms: { size: [value] } })
  })

  it.each([
    [48, 48],
    [1, 1],
    [0, 24],
    [-5, 24],
    [undefined, 24],
  ])('size %j is sent as %d (the upstream API gets no size it would reject)', (size, expected) => {
    expect(buildCatalogQuery({ size }).size).toBe(expected)
  })

  it('a text search without a sort sends no sort parameter', () => {
    const qs = new URLSearchParams(catalogSearchQueryString(catalogSearchRequest({ text: 'kurta' })))
    expect(qs.has('sort')).toBe(false)
    expect(qs.get('size')).toBe('24')
    const sorted = new URLSearchParams(
      catalogSearchQueryString(
        catalogSearchRequest({ text: 'kurta', sort: { field: 'final_price', order: 'asc' } }),
      ),
    )
    expect(sorted.get('sort')).toBe('final_price:asc')
  })
})

/**
 * Our bodies against the ones vue-storefront-api's own storefront-query-builder builds for the same
 * filters. Each row is what the storefront's client puts in its SearchQuery for a listing (default
 * scope: visibility, status, category_ids; catalog scope: the chosen filters and price, the facets
 * as available filters; the search text; the sort), given to the library's
 * `elasticsearch.buildQueryBodyFromSearchQuery` with our settings (boosts, price ranges, facet size
 * 100, `category` → category_ids). `asOurs` then applies exactly the differences
 * docs/catalogue-queries.md keeps on purpose, each named there; anything else must be equal.
 */
describe('the same bodies as storefront-query-builder, but for the kept differences', () => {
  const VSF_SETTINGS = {
    elasticsearch: {
      queryMethod: 'POST',
      searchableAttributes: { name: { boost: 4 }, sku: { boost: 2 }, 'category.name': { boost: 1 } },
    },
    products: {
      priceFilterKey: 'final_price',
      filterFieldMapping: { category: 'category_ids' },
      filterAggregationSize: { default: 100 },
      priceFilters: {
        ranges: PRICE_RANGES.map((r) => ({ ...r })),
      },
    },
  }
  // biome-ignore lint/suspicious/noExplicitAny: walks the JSON bodies of two builders
  type Body = Record<string, any>

  /** The SearchQuery the storefront's client builds for a listing or search. */
  function vsfSearchQuery(p: CatalogQuery) {
    const sq = new SearchQuery()
    sq.applyFilter({ key: 'visibility', value: { in: [2, 3, 4] } }).applyFilter({
      key: 'status',
      value: { in: [0, 1] },
    })
    if (p.categoryIds?.length) sq.applyFilter({ key: 'category_ids', value: { in: p.categoryIds } })
    for (const [attribute, ids] of Object.entries(p.filters ?? {}))
      sq.applyFilter({ key: attribute, value: { in: ids }, scope: 'catalog' })
    if (p.price)
      sq.applyFilter({
        key: 'price',
        value: { gte: p.price.from, ...(p.price.to !== undefined ? { lte: p.price.to } : {}) },
        scope: 'catalog',
      })
    for (const field of p.aggregations ?? []) sq.addAvailableFilter({ field, scope: 'catalog' })
    if (p.text) sq.setSearchText(p.text)
    if (p.sort) sq.applySort({ field: p.sort.field, options: p.sort.order })
    return sq
  }

  async function theirs(p: CatalogQuery): Promise<Body> {
    return elasticsearch.buildQueryBodyFromSearchQuery({
      config: VSF_SETTINGS as never,
      queryChain: bodybuilder(),
      searchQuery: vsfSearchQuery(p),
    })
  }

  /** Their body with our kept differences applied (names as in docs/catalogue-queries.md). */
  function asOurs(body: Body, p: CatalogQuery): Body {
    const out: Body = structuredClone(body)
    const must: Body[] = out.query.bool.filter.bool.must
    out.query.bool.filter.bool.must = must.map((c) => {
      const should = c.bool?.should
      if (!should) return c
      // "price range": a plain range on final_price instead of "range OR (range AND configurable)",
      // and its upper bound left out (lt, not lte) like a range bucket's.
      if (should[0].range) {
        const bounds = should[0].range.final_price
        if (bounds?.lte !== undefined) {
          bounds.lt = bounds.lte
          delete bounds.lte
        }
        return should[0]
      }
      // "category filter": category_ids has no _options branch.
      if (should[0].terms?.category_ids) return should[0]
      return c
    })
    if (out.query.bool.should) {
      // "text query": their text clauses are the should of the outer bool; ours sit in a
      // function_score with the minimum score (also at the top), and the multi_match has no
      // length and frequency tuning.
      const should: Body[] = out.query.bool.should
      const mm = should[0]?.multi_match
      should[0] = { multi_match: { fields: mm.fields, query: mm.query, fuzziness: 2, operator: 'or' } }
      delete out.query.bool.should
      out.query.bool.must = { function_score: { query: { bool: { should } }, min_score: 0.02 } }
      out.min_score = 0.02
    }
    if (out.aggs) {
      const aggs: Body = {}
      for (const [name, agg] of Object.entries(out.aggs as Body)) {
        // "facet names": the category facet is agg_terms_category on category_ids, no _options.
        if (name === 'agg_terms_category_options') continue
        if (name === 'agg_terms_category_ids') aggs.agg_terms_category = agg
        // "price facets": counted on final_price with a size; the applied range only when new.
        else if (name === 'agg_terms_price') aggs[name] = { terms: { field: 'final_price', size: 100 } }
        else if (name === 'agg_range_price') {
          const ranges = (agg.range.ranges as Body[]).filter(
            (r, i, all) => all.findIndex((x) => JSON.stringify(x) === JSON.stringify(r)) === i,
          )
          aggs[name] = { range: { field: 'final_price', ranges } }
        } else aggs[name] = agg
      }
      out.aggs = aggs
    }
    // "sort": sent as the URI parameter field:order (created_at:desc unless a text search), not in the body.
    const sort = out.sort
      ? Object.entries(out.sort[0] as Body).map(([f, o]) => `${f}:${o.order}`)[0]
      : p.text
        ? ''
        : 'created_at:desc'
    delete out.sort
    return { body: out, sort }
  }

  it.each([
    ['a category', { categoryIds: [20, 21] }],
    ['a colour', { categoryIds: [20], filters: { color: [49] } }],
    ['a size', { categoryIds: [20], filters: { size: [12] } }],
    ['a price range', { categoryIds: [20], price: { from: 50, to: 100 } }],
    ['an open price range', { categoryIds: [20], price: { from: 150 } }],
    ['multi-select in two attributes', { categoryIds: [20], filters: { color: [49, 51], size: [12, 13] } }],
    ['a category facet choice', { categoryIds: [20, 21], filters: { category: [21] } }],
    [
      'the facets, with an applied range that is new',
      {
        categoryIds: [20],
        price: { from: 40, to: 90 },
        aggregations: ['color', 'size', 'category', 'price'],
      },
    ],
    [
      'the facets, with a configured applied range',
      { categoryIds: [20], price: { from: 50, to: 100 }, aggregations: ['color', 'price'] },
    ],
    ['search text', { text: 'silk kurta' }],
    ['search text of a child sku', { text: 'ZX-9931-L' }],
    ['search text with a sort', { text: 'kurta', sort: { field: 'final_price', order: 'asc' } }],
    ['a sort', { categoryIds: [20], sort: { field: 'final_price', order: 'desc' } }],
    ['paging (URI parameters on both sides)', { categoryIds: [20], from: 48, size: 24 }],
  ] as [string, CatalogQuery][])('%s', async (_name, p) => {
    const ours = buildCatalogQuery(p)
    expect({ body: ours.body, sort: ours.sort }).toEqual(asOurs(await theirs(p), p))
  })
})
