// The category grid's tiles and markup are the kept ones (worker/pages/layout/grid-tiles.tsx):
// the same frozen products give the same tile objects, and a tile past the first row carries the
// markup kept for it instead of being rendered again; the first row is left to the grid.
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ProductTile } from '../../../../shared/components/catalog/product-tile'
import { LISTING_COLUMNS } from '../../../../shared/config/catalog'
import type { Product } from '../../../../shared/schemas/catalog'
import { gridMarkup, gridTiles } from '../../../../worker/pages/layout/grid-tiles'
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
