import { describe, expect, it } from 'vitest'
import { MAX_FILTER_VALUES, MAX_PRICE_BANDS, PRICE_RANGES } from '../../../../shared/config/catalog'
import {
  type ChosenFilters,
  canonicalListingPath,
  countChosenFilters,
  filtersFromAggregations,
  isFilterChosen,
  listingColumns,
  listingStateFromQuery,
  listingStateToQuery,
  normalizeSearchPaging,
  pageOffset,
  parsePriceRangeId,
  priceBands,
  priceRangeId,
  priceRangeLabel,
  priceRangeOptions,
  sortOption,
  sortParam,
  toggleFilter,
} from '../../../../shared/domain/filters'

const red = { id: '49', label: 'Red' }
const blue = { id: '50', label: 'Blue' }
const p0 = { id: '0-50', label: '₹0 - ₹50' }
const p1 = { id: '50-100', label: '₹50 - ₹100' }

describe('toggleFilter (category page filters)', () => {
  it.each([
    ['adds a first value', {}, 'color', red, true, { color: [red] }],
    ['multi-select adds a second value', { color: [red] }, 'color', blue, true, { color: [red, blue] }],
    ['multi-select removes a chosen value', { color: [red, blue] }, 'color', red, true, { color: [blue] }],
    ['removing the last value drops the attribute', { color: [red] }, 'color', red, true, {}],
    [
      'single-select replaces when multi-select is off',
      { color: [red] },
      'color',
      blue,
      false,
      { color: [blue] },
    ],
    ['single-select deselects', { color: [red] }, 'color', red, false, {}],
    ['price is always single-select', { price: [p0] }, 'price', p1, true, { price: [p1] }],
    ['price deselects', { price: [p0], color: [red] }, 'price', p0, true, { color: [red] }],
  ] as [string, ChosenFilters, string, { id: string; label: string }, boolean, ChosenFilters][])(
    '%s',
    (_name, chosen, attribute, value, multi, expected) => {
      const before = structuredClone(chosen)
      expect(toggleFilter(chosen, attribute, value, multi)).toEqual(expected)
      expect(chosen).toEqual(before)
    },
  )
  it('reports chosen values and counts', () => {
    const chosen = { color: [red, blue], price: [p0] }
    expect(isFilterChosen(chosen, 'color', '50')).toBe(true)
    expect(isFilterChosen(chosen, 'size', '50')).toBe(false)
    expect(countChosenFilters(chosen)).toBe(3)
  })
})

describe('price range ids', () => {
  it.each([
    [{ from: 0, to: 50 }, '0-50'],
    [{ from: 100, to: 150 }, '100-150'],
    [{ from: 150 }, '150-'],
  ])('priceRangeId(%j) = %s', (range, id) => {
    expect(priceRangeId(range)).toBe(id)
    expect(parsePriceRangeId(id)).toEqual(range)
  })
  it.each([
    ['150+', { from: 150 }],
    ['12.5-20', { from: 12.5, to: 20 }],
    ['50-10', null],
    ['abc', null],
    ['-50', null],
    ['', null],
    [null, null],
  ])('parsePriceRangeId(%j)', (id, expected) => {
    expect(parsePriceRangeId(id)).toEqual(expected)
  })
  it.each([
    [{ from: 0, to: 50 }, 'INR', '₹0 - ₹49'],
    [{ from: 150 }, 'INR', '₹150+'],
    [{ from: 100000 }, 'INR', '₹100,000+'],
    // Bands are of shown prices in the display currency: its ends as the tiles show them (whole dollars).
    [{ from: 10, to: 20 }, 'USD', '$10.00 - $19.00'],
    [{ from: 1000, to: 5000 }, 'USD', '$1,000.00 - $4,999.00'],
  ])('label %j in %s', (range, currency, label) => {
    expect(priceRangeLabel(range, currency)).toBe(label)
  })
  it('lists the configured ranges', () => {
    expect(priceRangeOptions('INR').map((o) => o.id)).toEqual(PRICE_RANGES.map(priceRangeId))
  })
})

describe('listing state ⇄ URL query', () => {
  it.each([
    [{ chosen: {}, sort: 'latest' as const }, ''],
    [{ chosen: { color: [red, blue] }, sort: 'latest' as const }, '?color=49,50'],
    [
      { chosen: { price: [p0], color: [red] }, sort: 'price-asc' as const },
      '?color=49&price=0-50&sort=price-asc',
    ],
    [
      { chosen: { price: [{ id: '150-', label: '' }] }, sort: 'price-desc' as const },
      '?price=150-&sort=price-desc',
    ],
  ])('%j ⇄ %s', (state, query) => {
    expect(listingStateToQuery(state)).toBe(query)
    const back = listingStateFromQuery(query)
    expect(back.sort).toBe(state.sort)
    expect(Object.fromEntries(Object.entries(back.chosen).map(([k, v]) => [k, v.map((x) => x.id)]))).toEqual(
      Object.fromEntries(Object.entries(state.chosen).map(([k, v]) => [k, v.map((x) => x.id)])),
    )
  })
  it('labels from available filters, ignores unknown params, bad ids and extra price ranges', () => {
    const state = listingStateFromQuery(
      '?color=49,49,%3Cx%3E&price=oops,0-50,50-100&utm_source=x&sort=random',
      {
        color: [{ id: '49', label: 'Red', count: 3 }],
      },
    )
    expect(state).toEqual({
      chosen: { color: [{ id: '49', label: 'Red' }], price: [{ id: '0-50', label: '0-50' }] },
      sort: 'latest',
    })
  })
  it('accepts URLSearchParams', () => {
    expect(listingStateFromQuery(new URLSearchParams('size=167')).chosen).toEqual({
      size: [{ id: '167', label: '167' }],
    })
  })
  it.each([
    ['/women?color=49&sort=price-asc', '/women'],
    ['/c/women#top', '/c/women'],
    ['/women', '/women'],
  ])('canonical of %s is %s', (url, expected) => {
    expect(canonicalListingPath(url)).toBe(expected)
  })
})

describe('sort options', () => {
  it.each([
    [null, 'Latest', 'created_at:desc'],
    ['latest', 'Latest', 'created_at:desc'],
    ['price-asc', 'Price: Low to high', 'final_price:asc'],
    ['price-desc', 'Price: High to low', 'final_price:desc'],
    ['bogus', 'Latest', 'created_at:desc'],
  ])('%j → %s (%s)', (id, label, param) => {
    expect(sortOption(id).label).toBe(label)
    expect(sortParam(id)).toBe(param)
  })
})

describe('filtersFromAggregations', () => {
  const attributes = [
    {
      attribute_code: 'color',
      options: [
        { value: '50', label: 'Blue' },
        { value: '49', label: 'Red' },
        { value: '51', label: 'Green' },
      ],
    },
    { attribute_code: 'size', options: [{ value: 167, label: 'S' }] },
  ]
  it('merges term and _options buckets, labels and orders by attribute options, price ranges as ids', () => {
    const aggs = {
      agg_terms_color: {
        buckets: [
          { key: 49, doc_count: 2 },
          { key: 99, doc_count: 1 },
        ],
      },
      agg_terms_color_options: {
        buckets: [
          { key: '49', doc_count: 5 },
          { key: '50', doc_count: 1 },
        ],
      },
      agg_terms_size: { buckets: [{ key: 167, doc_count: 0 }] },
      agg_terms_category: { buckets: [{ key: 21, doc_count: 4 }] },
      agg_range_price: {
        buckets: [
          { key: '20.0-50.0', from: 20, to: 50, doc_count: 0 },
          { key: '50.0-100.0', from: 50, to: 100, doc_count: 3 },
          { key: '100.0-200.0', from: 100, to: 200, doc_count: 7 },
        ],
      },
    }
    expect(
      filtersFromAggregations(aggs, attributes, 'INR', undefined, (a, id) =>
        a === 'category' && id === '21' ? 'Tops' : null,
      ),
    ).toEqual({
      color: [
        { id: '50', label: 'Blue', count: 1 },
        { id: '49', label: 'Red', count: 5 },
      ],
      category: [{ id: '21', label: 'Tops', count: 4 }],
      price: [
        { id: '50-100', label: '₹50 - ₹99', count: 3 },
        { id: '100-200', label: '₹100 - ₹199', count: 7 },
      ],
    })
  })
  it('is empty without aggregations (the page then shows the empty-filters warning)', () => {
    expect(filtersFromAggregations(undefined, attributes, 'INR')).toEqual({})
  })
})

describe('layout and paging', () => {
  it.each([
    [true, 4, { perRow: 2, width: 6 }],
    [false, 4, { perRow: 4, width: 3 }],
    [false, 3, { perRow: 3, width: 4 }],
    [false, 0, { perRow: 4, width: 3 }],
  ])('small=%s configured=%d', (small, configured, expected) => {
    expect(listingColumns(small, configured)).toEqual(expected)
  })
  it.each([
    [24, 0, { size: 24, from: 0 }],
    [0, 10, { size: 24, from: 10 }],
    [-5, -1, { size: 24, from: 0 }],
    ['48', '24', { size: 48, from: 24 }],
    [undefined, undefined, { size: 24, from: 0 }],
  ])('normalizeSearchPaging(%j, %j)', (size, from, expected) => {
    expect(normalizeSearchPaging(size, from)).toEqual(expected)
  })
  it('pageOffset', () => {
    expect(pageOffset(0)).toBe(0)
    expect(pageOffset(2)).toBe(48)
    expect(pageOffset(-1)).toBe(0)
  })
})

describe('filter properties', () => {
  it('toggling the same value twice chooses the same values again; URL round-trips ids', async () => {
    const fc = await import('fast-check')
    const attr = fc.constantFrom('color', 'size', 'gender', 'price')
    const id = fc.oneof(
      fc.integer({ min: 1, max: 999 }).map(String),
      fc.constantFrom('0-50', '50-100', '150-'),
    )
    fc.assert(
      fc.property(fc.array(fc.tuple(attr, id), { maxLength: 8 }), attr, id, (steps, a, i) => {
        let chosen: ChosenFilters = {}
        for (const [sa, si] of steps) {
          if ((sa === 'price') === /-/.test(si))
            chosen = toggleFilter(chosen, sa, { id: si, label: si }, true)
        }
        if ((a === 'price') !== /-/.test(i)) return
        const wasChosen = isFilterChosen(chosen, a, i)
        const once = toggleFilter(chosen, a, { id: i, label: i }, true)
        expect(isFilterChosen(once, a, i)).toBe(!wasChosen)
        if (a !== 'price' || wasChosen) {
          const twice = toggleFilter(once, a, { id: i, label: i }, true)
          if (wasChosen) {
            // Chosen anew, the value goes to the end of its list; the others keep their order.
            expect(twice[a]?.map((v) => v.id)).toEqual([
              ...(chosen[a] ?? []).map((v) => v.id).filter((x) => x !== i),
              i,
            ])
            expect({ ...twice, [a]: chosen[a] }).toEqual(chosen)
          } else {
            expect(twice).toEqual(chosen)
          }
        }
        const back = listingStateFromQuery(listingStateToQuery({ chosen, sort: 'price-asc' }))
        expect(back.chosen).toEqual(chosen)
      }),
      {
        numRuns: 300,
        seed: 15,
        // Deselecting and reselecting a value that was not the last one moves it to the end.
        examples: [
          [
            [
              ['gender', '891'],
              ['gender', '1'],
            ],
            'gender',
            '891',
          ],
        ],
      },
    )
  })
})

describe('price range ids: what parses', () => {
  it.each([
    [' 0 - 50 ', { from: 0, to: 50 }],
    ['12.55-20.75', { from: 12.55, to: 20.75 }],
    ['50-50', null],
    ['150 +', { from: 150 }],
    ['x0-50', null],
    ['0-50x', null],
    ['0-50 junk', null],
    ['0-5a0', null],
    ['1.-5', null],
    ['0-50-100', null],
  ])('parsePriceRangeId(%j)', (id, expected) => {
    expect(parsePriceRangeId(id)).toEqual(expected)
  })
})

describe('listing state from a URL: hostile and sloppy input', () => {
  it.each([
    ['spaces after commas', '?color=49,%2050', { color: ['49', '50'] }],
    ['empty items', '?color=49,,50,', { color: ['49', '50'] }],
    ['markup before an id', '?color=%3Cb%3E49', {}],
    ['markup after an id', '?color=49%3Cx%3E', {}],
    ['a question mark inside an id', 'color=49?', {}],
    ['only invalid ids', '?color=%3Cx%3E,%22', {}],
    ['ids with dots, dashes and underscores', '?size=x-l,1.5,a_b', { size: ['x-l', '1.5', 'a_b'] }],
    ['no leading question mark', 'color=49', { color: ['49'] }],
  ])('%s', (_name, query, expected) => {
    const state = listingStateFromQuery(query)
    expect(Object.fromEntries(Object.entries(state.chosen).map(([k, v]) => [k, v.map((x) => x.id)]))).toEqual(
      expected,
    )
  })

  it('labels each id from its own option, and falls back to the id', () => {
    const available = {
      color: [
        { id: '49', label: 'Red', count: 1 },
        { id: '50', label: 'Blue', count: 2 },
      ],
    }
    expect(listingStateFromQuery('?color=50,51', available).chosen.color).toEqual([
      { id: '50', label: 'Blue' },
      { id: '51', label: '51' },
    ])
  })

  it.each([
    ['an attribute with no values', { color: [] }],
    ['an attribute left undefined', { color: undefined as never }],
  ])('%s is not written to the URL', (_name, chosen) => {
    expect(listingStateToQuery({ chosen, sort: 'latest' })).toBe('')
  })
})

describe('filtersFromAggregations: what the panel offers', () => {
  const categories = { 21: 'Tops', 22: 'Dresses' } as Record<string, string>
  const labelFor = (_attribute: string, id: string) => categories[id] ?? null
  /** The category facet offered for these buckets, the attributes listing `attributes`. */
  const categoryFilters = (
    buckets: { key: number; doc_count: number }[],
    attributes: Parameters<typeof filtersFromAggregations>[1] = [],
  ) => filtersFromAggregations({ agg_terms_category: { buckets } }, attributes, 'INR', ['category'], labelFor)
  it('an option listed by the attribute and also named by labelFor appears once', () => {
    const result = categoryFilters(
      [{ key: 21, doc_count: 3 }],
      [{ attribute_code: 'category', options: [{ value: 21, label: 'Tops (listed)' }] }],
    )
    expect(result).toEqual({ category: [{ id: '21', label: 'Tops (listed)', count: 3 }] })
  })
  it('buckets without documents are not offered', () => {
    const result = categoryFilters([
      { key: 21, doc_count: 0 },
      { key: 22, doc_count: 2 },
    ])
    expect(result).toEqual({ category: [{ id: '22', label: 'Dresses', count: 2 }] })
  })
  it('a price bucket without a lower bound is not offered', () => {
    const result = filtersFromAggregations(
      {
        agg_range_price: {
          buckets: [
            { key: '*-50.0', to: 50, doc_count: 4 },
            { key: '50.0-100.0', from: 50, to: 100, doc_count: 1 },
          ],
        },
      },
      [],
      'INR',
      ['price'],
    )
    expect(result).toEqual({ price: [{ id: '50-100', label: '₹50 - ₹99', count: 1 }] })
  })
})

describe('a listing URL choosing more values than a facet can offer', () => {
  it('keeps the first MAX_FILTER_VALUES distinct values of a filter', () => {
    const ids = Array.from({ length: MAX_FILTER_VALUES + 50 }, (_, i) => String(i))
    const state = listingStateFromQuery(`color=${['7', ...ids].join(',')}`)
    const chosen = state.chosen.color?.map((o) => o.id) ?? []
    expect(chosen).toHaveLength(MAX_FILTER_VALUES)
    expect(chosen.slice(0, 3)).toEqual(['7', '0', '1'])
    expect(chosen).not.toContain(String(MAX_FILTER_VALUES + 10))
  })
})

describe('price bands from the catalogue’s own prices', () => {
  /** The fine buckets with the listing's prices counted in them, as the range aggregation answers. */
  function counted(prices: readonly number[]) {
    return PRICE_RANGES.map((r) => ({
      ...r,
      count: prices.filter((p) => p >= r.from && (r.to === undefined || p < r.to)).length,
    }))
  }
  const aggsFor = (prices: readonly number[]) => ({
    agg_range_price: {
      buckets: counted(prices).map((b) => ({
        key: `${b.from}-${b.to ?? '*'}`,
        from: b.from,
        ...(b.to === undefined ? {} : { to: b.to }),
        doc_count: b.count,
      })),
    },
  })
  /** Which band (by id) a price is in: [from, to). */
  const bandOf = (bands: { id: string }[], price: number) =>
    bands.filter(({ id }) => {
      const r = parsePriceRangeId(id) as { from: number; to?: number }
      return price >= r.from && (r.to === undefined || price < r.to)
    })

  it('a rupee label from ₹499 to ₹2,50,000: at most five bands, round edges, every product in exactly one', () => {
    const prices = [
      499, 899, 1299, 1999, 2499, 2625, 2800, 4999, 7999, 12999, 24999, 49999, 89999, 150000, 250000,
    ]
    const bands = filtersFromAggregations(aggsFor(prices), [], 'INR', ['price']).price ?? []
    expect(bands.length).toBeGreaterThanOrEqual(3)
    expect(bands.length).toBeLessThanOrEqual(MAX_PRICE_BANDS)
    for (const p of prices) expect(bandOf(bands, p), `₹${p}`).toHaveLength(1)
    expect(bands.reduce((n, b) => n + b.count, 0)).toBe(prices.length)
    for (const b of bands) expect(b.count).toBe(prices.filter((p) => bandOf([b], p).length).length)
    // Edges are round catalogue prices (the 1-2-5 series) and the bands follow each other.
    const ranges = bands.map((b) => parsePriceRangeId(b.id) as { from: number; to?: number })
    for (const r of ranges) expect(String(r.from)).toMatch(/^(0|[125]0*)$/)
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]?.from).toBe(ranges[i - 1]?.to)
  })

  it('a dollar catalogue of $0.49 to $390 gets a price filter too (fixed rupee bands gave it one band, so none)', () => {
    const prices = [0.49, 4.99, 12, 19.99, 39, 59, 89, 129, 249, 390]
    const bands = filtersFromAggregations(aggsFor(prices), [], 'INR', ['price']).price ?? []
    expect(bands.length).toBeGreaterThanOrEqual(3)
    for (const p of prices) expect(bandOf(bands, p), `$${p}`).toHaveLength(1)
  })

  it('edge products: a price at a band edge is in the band that starts there, and the labels say so', () => {
    const bands = priceBands(counted([999, 1000, 1999, 2000, 4999, 5000]), 3)
    // Shares of 2 products: cut once the products so far reach 2, then 4.
    expect(bands).toEqual([
      { from: 500, to: 2000, count: 3 },
      { from: 2000, to: 5000, count: 2 },
      { from: 5000, to: 10000, count: 1 },
    ])
    // ₹2,000 opens the second band and ₹5,000 the third; ₹1,999 and ₹4,999 close the ones before.
    expect(priceRangeLabel({ from: 500, to: 2000 }, 'INR')).toBe('₹500 - ₹1,999')
    expect(priceRangeLabel({ from: 2000, to: 5000 }, 'INR')).toBe('₹2,000 - ₹4,999')
  })

  it('one price range only, or no products: no band to choose', () => {
    expect(priceBands(counted([]))).toEqual([])
    expect(filtersFromAggregations(aggsFor([1500, 1800]), [], 'INR', ['price']).price).toEqual([
      { id: '1000-2000', label: '₹1,000 - ₹1,999', count: 2 },
    ])
  })

  it('a chosen band that is not a bucket is the one band offered (so it can be undone)', () => {
    const aggs = aggsFor([1500, 1800])
    aggs.agg_range_price.buckets.push({ key: '1000-5000', from: 1000, to: 5000, doc_count: 2 })
    expect(filtersFromAggregations(aggs, [], 'INR', ['price']).price).toEqual([
      { id: '1000-5000', label: '₹1,000 - ₹4,999', count: 2 },
    ])
  })
})
