import { describe, expect, it } from 'vitest'
import { buildFilterGroups, type FacetLabels } from '../../../../../shared/components/catalog/facets'
import {
  catalogSearchQuery,
  listingParams,
  listingSearchRequest,
  textSearchRequest,
} from '../../../../../shared/components/catalog/listing-query'
import {
  clearFilters,
  EMPTY_LISTING_STATE,
  hasFilters,
  isChosen,
  listingQueryString,
  parseListingQuery,
  sameListingState,
  toggleListingFilter,
  withSort,
} from '../../../../../shared/components/catalog/listing-state'
import { buildCatalogQuery } from '../../../../../shared/domain/search-query'

describe('listing state ⇄ URL', () => {
  it('round-trips filters, the price range id and the sort', () => {
    const state = parseListingQuery('?color=49,51&price=50-100&sort=price-asc')
    expect(isChosen(state, 'color', '49')).toBe(true)
    expect(isChosen(state, 'color', '51')).toBe(true)
    expect(isChosen(state, 'price', '50-100')).toBe(true)
    expect(state.sort).toBe('price-asc')
    expect(parseListingQuery(listingQueryString(state))).toEqual(state)
  })

  it('gives the default state the empty query and drops unknown params and bad ids', () => {
    expect(listingQueryString(EMPTY_LISTING_STATE)).toBe('')
    const state = parseListingQuery('?utm_source=x&color=<script>&price=abc&sort=random')
    expect(hasFilters(state)).toBe(false)
    expect(state.sort).toBe('latest')
  })

  it('toggles attribute filters as multi-select and price as single-select', () => {
    let s = toggleListingFilter(EMPTY_LISTING_STATE, 'color', '49')
    s = toggleListingFilter(s, 'color', '51')
    expect(listingQueryString(s)).toBe('?color=49,51')
    s = toggleListingFilter(s, 'price', '0-50')
    s = toggleListingFilter(s, 'price', '50-100')
    expect(listingQueryString(s)).toBe('?color=49,51&price=50-100')
    s = toggleListingFilter(s, 'price', '50-100')
    s = toggleListingFilter(s, 'color', '49')
    expect(listingQueryString(s)).toBe('?color=51')
  })

  it('keeps the sort when filters are cleared and compares states by their URL', () => {
    const s = withSort(toggleListingFilter(EMPTY_LISTING_STATE, 'size', '12'), 'price-desc')
    expect(listingQueryString(clearFilters(s))).toBe('?sort=price-desc')
    expect(sameListingState(s, parseListingQuery(listingQueryString(s)))).toBe(true)
    expect(sameListingState(s, clearFilters(s))).toBe(false)
  })
})

describe('listing requests', () => {
  const state = parseListingQuery('?color=49&category=12&price=150-&sort=price-asc')

  it('maps the state to the port params: filters, category facet, open price range, sort, page', () => {
    const p = listingParams([3, 12], state, 24, 24)
    expect(p).toMatchObject({
      categoryIds: [3, 12],
      filters: { color: [49], category_ids: [12] },
      price: { from: 150 },
      sort: { field: 'final_price', order: 'asc' },
      from: 24,
      size: 24,
    })
    // The port builds the spec's catalog-scope clause and the final_price range from them.
    const q = buildCatalogQuery(p, { priceBounds: true })
    const must = JSON.stringify(q.body)
    expect(must).toContain('"color_options"')
    expect(must).toContain('"final_price":{"gte":150}')
    expect(q.sort).toBe('final_price:asc')
  })

  it('asks for the same aggregations on the server and in the browser (price counted on the shown price)', () => {
    for (const query of ['', '?color=49', '?price=150-', '?price=50-100&size=12']) {
      const s = parseListingQuery(query)
      // The embedded adapter's request: the price filter and bands on the price each shopper is shown.
      const server = buildCatalogQuery(listingParams([3], s, 0, 24), { priceBounds: true, shownPrice: true })
        .body.aggs as Record<string, unknown>
      const { agg_min_final_price, agg_max_final_price, ...counted } = server
      expect(agg_min_final_price).toEqual({ min: { field: 'final_price' } })
      expect(agg_max_final_price).toEqual({ max: { field: 'final_price' } })
      expect(counted, query).toEqual(listingSearchRequest([3], s, 0, 24).request.aggs)
      expect(JSON.stringify(counted)).not.toContain('"field":"price"')
    }
  })

  it("sends the browser's listing request with the shared DSL: same filters, paging reset by the caller", () => {
    const req = listingSearchRequest([3, 12], state, 0, 24)
    expect(req).toMatchObject({ size: 24, from: 0, sort: 'final_price:asc' })
    const body = JSON.stringify(req.request)
    expect(body).toContain('"category_ids":[3,12]')
    expect(body).toContain('"color_options":[49]')
    expect(body).toContain('"shown_price":{"gte":150}')
    expect(req.request.aggs).toHaveProperty('agg_terms_color')
    const { path, query } = catalogSearchQuery(req)
    expect(path).toBe('/api/catalog/vue_storefront_catalog/product/_search')
    expect(JSON.parse(String(query.request))).toEqual(req.request)
    expect(String(query._source_include)).toContain('international_flag')
  })

  it('searches text fuzzily with the spec boosts, in relevance order', () => {
    const req = textSearchRequest('sari', 0, 8)
    expect(req.sort).toBeUndefined()
    const body = JSON.stringify(req.request)
    expect(body).toContain('"fields":["name^4","sku^2","category.name^1"]')
    expect(body).toContain('"fuzziness":2')
    expect(req.request.min_score).toBe(0.02)
  })
})

describe('filter groups from aggregations', () => {
  const labels: FacetLabels = {
    titles: { color: 'Color' },
    options: { color: { '49': 'Black', '51': 'Red' }, size: { '12': 'M' }, category: { '12': 'Kurtas' } },
  }

  it('merges attr and _options counts (max), labels options, adds swatches and price ranges', () => {
    const groups = buildFilterGroups(
      {
        agg_terms_color: { buckets: [{ key: 49, doc_count: 3 }] },
        agg_terms_color_options: {
          buckets: [
            { key: 49, doc_count: 5 },
            { key: 51, doc_count: 2 },
            { key: 99, doc_count: 7 },
          ],
        },
        agg_terms_size: { buckets: [{ key: 12, doc_count: 0 }] },
        agg_terms_category: { buckets: [{ key: 12, doc_count: 4 }] },
        agg_range_price: {
          buckets: [
            { key: '0.0-50.0', from: 0, to: 50, doc_count: 0 },
            { key: '150.0-*', from: 150, doc_count: 9 },
          ],
        },
      },
      labels,
      'INR',
      { category: [{ id: '12' }], price: [{ id: '150-' }] },
    )
    expect(groups.map((g) => g.attr)).toEqual(['color', 'category', 'price'])
    const color = groups[0]
    expect(color?.label).toBe('Color')
    expect(color?.kind).toBe('swatch')
    expect(color?.options).toEqual([
      { id: '49', label: 'Black', count: 5, swatch: '#000000' },
      { id: '51', label: 'Red', count: 2, swatch: '#c62828' },
    ])
    expect(groups[1]?.options).toEqual([{ id: '12', label: 'Kurtas', count: 4 }])
    expect(groups[2]?.options.map((o) => o.id)).toEqual(['150-'])
    expect(groups[2]?.label).toBe('Price')
  })

  it('leaves out groups that cannot narrow the listing: one option, or the options of a group before it', () => {
    const twoCats = { '12': 'Kurtas', '13': 'Sarees' }
    const aggs = {
      agg_terms_category_product: {
        buckets: [
          { key: 1, doc_count: 4 },
          { key: 2, doc_count: 3 },
        ],
      },
      agg_terms_color: { buckets: [{ key: 49, doc_count: 7 }] },
      agg_terms_size: {
        buckets: [
          { key: 12, doc_count: 2 },
          { key: 13, doc_count: 5 },
        ],
      },
      agg_terms_category: {
        buckets: [
          { key: 12, doc_count: 4 },
          { key: 13, doc_count: 3 },
        ],
      },
    }
    const withDup: FacetLabels = {
      titles: {},
      options: {
        category_product: { '1': 'Sarees', '2': 'Kurtas' },
        color: { '49': 'Black' },
        size: { '12': 'M', '13': 'L' },
        category: twoCats,
      },
    }
    const shown = buildFilterGroups(aggs, withDup, 'INR')
    // Colour has one option; the category facet repeats the product types (same names).
    expect(shown.map((g) => g.attr)).toEqual(['category_product', 'size'])
    // A group in use stays so its choice can be undone where it was made.
    const chosen = buildFilterGroups(aggs, withDup, 'INR', { color: [{ id: '49' }] })
    expect(chosen.map((g) => g.attr)).toEqual(['category_product', 'color', 'size'])
  })

  it('has no groups (the empty-filters warning) without aggregations', () => {
    expect(buildFilterGroups({}, labels, 'INR')).toEqual([])
    expect(buildFilterGroups(null, labels, 'INR')).toEqual([])
  })
})
