// The category grid's tiles, filter groups and markup are the kept ones
// (worker/pages/layout/grid-tiles.tsx): the same frozen products give the same tile objects, a tile
// past the first row carries the markup kept for it instead of being rendered again (the first row
// is left to the grid), the same frozen aggregations give the same filter groups, and the filter
// panel's markup is kept per state, a bounded number of them.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ProductTile } from '../../../../shared/components/catalog/product-tile'
import { LISTING_COLUMNS } from '../../../../shared/config/catalog'
import type { Product } from '../../../../shared/schemas/catalog'
import {
  filterPanelMarkup,
  gridFilterGroups,
  gridMarkup,
  gridTiles,
  MAX_KEPT_PANELS,
} from '../../../../worker/pages/layout/grid-tiles'
import { tileMarkup } from '../../../../worker/pages/layout/tiles'

const NOW = Date.UTC(2030, 0, 1)
const PRICING = { country: 'IN', taxRules: null }

function product(i: number): Product {
  return {
    id: 991000 + i,
    sku: `GRID-${i}`,
    name: `Grid ${i}`,
    slug: `grid-${i}`,
    type_id: 'simple',
    price: 1000 + i,
    stock: { is_in_stock: true, qty: 3 },
  } as unknown as Product
}

const PRODUCTS = Array.from({ length: LISTING_COLUMNS.configured + 3 }, (_, i) => Object.freeze(product(i)))

describe('grid tiles', () => {
  it('gives the kept tile of a frozen product, and a new one for a product built for one request', () => {
    const first = gridTiles(PRODUCTS, NOW, PRICING, {}, 'INR')
    const again = gridTiles(PRODUCTS, NOW, PRICING, {}, 'INR')
    expect(again).toHaveLength(PRODUCTS.length)
    for (const [i, tile] of again.entries()) expect(tile).toBe(first[i])
    const loose = [product(0)]
    expect(gridTiles(loose, NOW, PRICING, {}, 'INR')[0]).not.toBe(
      gridTiles(loose, NOW, PRICING, {}, 'INR')[0],
    )
  })

  it("places a tile's kept markup past the first row, and leaves the first row to the grid", () => {
    const config = {}
    const tiles = gridTiles(PRODUCTS, NOW, PRICING, {}, 'INR')
    const later = tiles[LISTING_COLUMNS.configured + 1]
    if (!later) throw new Error('no tile past the first row')
    // Kept before the page: the page must use it rather than render the tile again.
    tileMarkup(later, 'INR', config, () => '<article data-kept="">kept</article>')
    const markup = gridMarkup(tiles, 'INR', config)
    expect(markup.get(later)).toBe('<article data-kept="">kept</article>')
    for (const tile of tiles.slice(0, LISTING_COLUMNS.configured)) expect(markup.has(tile)).toBe(false)
    const other = tiles[LISTING_COLUMNS.configured] as (typeof tiles)[number]
    expect(markup.get(other)).toBe(renderToString(<ProductTile tile={other} currency="INR" />))
  })
})

const LABELS = { titles: { color: 'Colour' }, options: { color: { '49': 'Red', '50': 'Ivory' } } }

function aggregations() {
  return {
    agg_terms_color: {
      buckets: [
        { key: 49, doc_count: 3 },
        { key: 50, doc_count: 2 },
      ],
    },
  }
}

describe('grid filter groups and panel', () => {
  it('gives the same groups for the same frozen aggregations, labels, currency and filters in use', () => {
    const aggs = Object.freeze(aggregations())
    const groups = gridFilterGroups(aggs, LABELS, 'INR', {})
    expect(groups.map((g) => g.attr)).toEqual(['color'])
    expect(gridFilterGroups(aggs, LABELS, 'INR', {})).toBe(groups)
    expect(Object.isFrozen(groups[0]?.options[0])).toBe(true)
    expect(gridFilterGroups(aggs, LABELS, 'USD', {})).not.toBe(groups)
    expect(gridFilterGroups(aggs, LABELS, 'INR', { color: [{ id: '49', label: 'Red' }] })).not.toBe(groups)
    expect(gridFilterGroups(Object.freeze(aggregations()), LABELS, 'INR', {})).not.toBe(groups)
    const loose = aggregations()
    expect(gridFilterGroups(loose, LABELS, 'INR', {})).not.toBe(gridFilterGroups(loose, LABELS, 'INR', {}))
  })

  it(`gives each state and text its own panel, past the ${MAX_KEPT_PANELS} kept per groups too`, () => {
    const groups = gridFilterGroups(Object.freeze(aggregations()), LABELS, 'INR', {})
    const chosen = { chosen: { color: [{ id: '49', label: 'Red' }] }, sort: 'latest' as const }
    const first = filterPanelMarkup(groups, chosen)
    expect(first).toContain('aria-checked="true"')
    expect(filterPanelMarkup(groups, { chosen: {}, sort: 'latest' })).not.toContain('aria-checked="true"')
    // Search texts (any text, from the URL) each get their own links, however many were asked.
    for (let i = 0; i < MAX_KEPT_PANELS * 3; i++)
      expect(filterPanelMarkup(groups, chosen, `text ${i}`)).toContain(`q=text+${i}`)
    expect(filterPanelMarkup(groups, chosen)).toBe(first)
  })
})
