// The category grid's tiles, filter groups and markup are the kept ones
// (worker/pages/layout/grid-tiles.tsx): the same frozen products give the same tile objects, a tile
// past the first row carries the markup kept for it instead of being rendered again (the first row
// is left to the grid), and the same frozen aggregations give the same filter groups and panel,
// per currency, state and search text, within the panels' byte budget.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ProductTile } from '../../../../shared/components/catalog/product-tile'
import { LISTING_COLUMNS } from '../../../../shared/config/catalog'
import type { Product } from '../../../../shared/schemas/catalog'
import { gridFilters, gridMarkup, gridTiles } from '../../../../worker/pages/layout/grid-tiles'
import { tileMarkup } from '../../../../worker/pages/layout/tiles'
import { memoTable } from '../../../../worker/platform/memo'

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
    expect(markup.get(later)?.html).toBe('<article data-kept="">kept</article>')
    for (const tile of tiles.slice(0, LISTING_COLUMNS.configured)) expect(markup.has(tile)).toBe(false)
    const other = tiles[LISTING_COLUMNS.configured] as (typeof tiles)[number]
    expect(markup.get(other)?.html).toBe(renderToString(<ProductTile tile={other} currency="INR" />))
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

const LISTING = { chosen: {}, sort: 'latest' as const }
const RED = { chosen: { color: [{ id: '49', label: 'Red' }] }, sort: 'latest' as const }

describe('grid filter groups and panel', () => {
  it('gives the same groups and panel for the same frozen aggregations, labels, currency, state and text', () => {
    const aggs = Object.freeze(aggregations())
    const kept = gridFilters(aggs, LABELS, 'INR', LISTING)
    expect(kept.groups.map((g) => g.attr)).toEqual(['color'])
    expect(kept.panel.html).toContain('data-testid="filter-option"')
    expect(gridFilters(aggs, LABELS, 'INR', LISTING)).toBe(kept)
    expect(Object.isFrozen(kept.groups[0]?.options[0])).toBe(true)
    expect(gridFilters(aggs, LABELS, 'USD', LISTING)).not.toBe(kept)
    expect(gridFilters(Object.freeze(aggregations()), LABELS, 'INR', LISTING)).not.toBe(kept)
    const loose = aggregations()
    expect(gridFilters(loose, LABELS, 'INR', LISTING)).not.toBe(gridFilters(loose, LABELS, 'INR', LISTING))
  })

  it('gives each state and search text its own panel', () => {
    const aggs = Object.freeze(aggregations())
    expect(gridFilters(aggs, LABELS, 'INR', RED).panel.html).toContain('aria-checked="true"')
    expect(gridFilters(aggs, LABELS, 'INR', LISTING).panel.html).not.toContain('aria-checked="true"')
    for (let i = 0; i < 40; i++)
      expect(gridFilters(aggs, LABELS, 'INR', RED, `text ${i}`).panel.html).toContain(`q=text+${i}`)
  })

  it('keeps panels within their byte budget, however many listings are asked for', () => {
    for (let i = 0; i < 200; i++) gridFilters(Object.freeze(aggregations()), LABELS, 'INR', LISTING)
    const memo = memoTable().find((m) => m.name === 'listing filter panels')
    expect(memo?.entries).toBeGreaterThan(0)
    expect(memo?.bytes).toBeLessThanOrEqual(memo?.maxBytes ?? 0)
    expect(memo?.maxBytes).toBeLessThanOrEqual(144 * 1024)
  })
})
