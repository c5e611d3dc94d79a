import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { PLACEHOLDER_IMAGE } from '../../../../../shared/components/catalog/images'
import { ProductTile } from '../../../../../shared/components/catalog/product-tile'
import {
  type TileData,
  toTileData,
  usableImage,
  visibleTiles,
} from '../../../../../shared/components/catalog/tile-data'
import { MSG } from '../../../../../shared/i18n/messages'
import type { Product } from '../../../../../shared/schemas/catalog'

const NOW = Date.UTC(2026, 10, 22)

function product(over: Partial<Product> = {}): Product {
  return {
    id: 1,
    sku: 'KUR-1',
    name: 'Ivory Chanderi Kurta',
    type_id: 'simple',
    price: 4000,
    special_price: null,
    tier_prices: [],
    status: 1,
    visibility: 4,
    created_at: '2026-01-01 00:00:00',
    updated_at: '2026-01-01 00:00:00',
    image: '/p/kurta-ivory.svg',
    hover_image: '/p/kurta-ivory-back.svg',
    media_gallery: [],
    url_key: 'ivory-chanderi-kurta',
    url_path: 'women/kurtas/ivory-chanderi-kurta',
    slug: 'ivory-chanderi-kurta',
    category: [],
    category_ids: [3, 12],
    product_links: [],
    stock: { qty: 5, is_in_stock: true, stock_status: 1 },
    configurable_options: [],
    configurable_children: [],
    custom_options: [],
    bundle_options: [],
    ...over,
  } as Product
}

function tile(over: Partial<TileData> = {}): TileData {
  return { ...toTileData(product(), NOW), ...over }
}

const render = (t: TileData, currency = 'INR', eager = false) =>
  renderToString(<ProductTile tile={t} currency={currency} eager={eager} />)

describe('toTileData', () => {
  it('applies a special price inside its window and computes the discount', () => {
    const t = toTileData(
      product({ special_price: 3000, special_from_date: '2026-01-01', special_to_date: '2027-01-01' }),
      NOW,
    )
    expect(t.finalPrice).toBe(3000)
    expect(t.regularPrice).toBe(4000)
    expect(t.discountPercent).toBe(25)
  })

  it('ignores a special price outside its window', () => {
    const t = toTileData(product({ special_price: 3000, special_to_date: '2025-01-01' }), NOW)
    expect(t.finalPrice).toBe(4000)
    expect(t.discountPercent).toBe(0)
  })

  it('shows a configurable at its cheapest variant and is out of stock when no child is', () => {
    const child = (sku: string, price: number, qty: number) => ({
      sku,
      id: price,
      price,
      status: 1,
      stock: { qty, is_in_stock: qty > 0, stock_status: qty > 0 ? 1 : 0 },
    })
    const p = product({
      type_id: 'configurable',
      configurable_children: [child('A', 5000, 0), child('B', 4500, 0)],
    })
    const t = toTileData(p, NOW)
    expect(t.finalPrice).toBe(4500)
    expect(t.inStock).toBe(false)
  })

  it('links to the product page and reads flags', () => {
    const t = toTileData(product({ sale: '1', new: 1, rts_qty: 2, international_flag: '1' }), NOW)
    expect(t.url).toBe('/p/KUR-1/ivory-chanderi-kurta')
    expect(t).toMatchObject({ sale: true, isNew: true, readyToShip: true, international: true })
  })

  it('treats no_selection and empty images as missing', () => {
    expect(usableImage('/p/no_selection')).toBeNull()
    expect(usableImage('')).toBeNull()
    expect(
      toTileData(product({ image: 'no_selection', small_image: null, hover_image: null }), NOW).image,
    ).toBeNull()
  })
})

describe('tile visibility', () => {
  it('hides international products unless the currency is INR', () => {
    const tiles = [tile({ sku: 'A' }), tile({ sku: 'B', international: true })]
    expect(visibleTiles(tiles, 'INR').map((t) => t.sku)).toEqual(['A', 'B'])
    expect(visibleTiles(tiles, 'USD').map((t) => t.sku)).toEqual(['A'])
    expect(visibleTiles(tiles, 'GBP').map((t) => t.sku)).toEqual(['A'])
  })
})

describe('ProductTile', () => {
  it('renders sale and new labels only when set', () => {
    expect(render(tile({ sale: true, isNew: true }))).toMatch(
      /tile__label--sale">Sale<.*tile__label--new">New</,
    )
    const plain = render(tile())
    expect(plain).not.toContain('tile__label--sale')
    expect(plain).not.toContain('tile__label--new')
    // No empty label box on a tile without labels.
    expect(plain).not.toContain('tile__labels')
  })

  it('strikes through the regular price and shows the discount when on special', () => {
    const html = render(tile({ finalPrice: 3000, regularPrice: 4000, discountPercent: 25 }))
    expect(html).toContain('<span class="price price--special">₹3,000</span>')
    expect(html).toMatch(/<s class="price price--old">.*₹4,000<\/s>/)
    expect(html).toContain('>25% off</span>')
  })

  it('formats prices in the current currency (converted from INR, rounded to whole dollars as charged)', () => {
    const html = render(tile({ finalPrice: 3500, regularPrice: 3500 }), 'USD')
    // 3500 × 0.01429 = 50.015 → $50.
    expect(html).toContain('$50.00')
    expect(html).not.toContain('₹')
  })

  it("replaces the price with 'Show Interest' (with the product link) when out of stock", () => {
    const html = render(tile({ inStock: false }))
    expect(html).toContain(`>${MSG.showInterest}</button>`)
    expect(html).toContain('data-show-interest=""')
    expect(html).toContain('data-product-url="/p/KUR-1/ivory-chanderi-kurta"')
    expect(html).not.toContain('tile__price')
  })

  it('shows the ready-to-ship marker', () => {
    expect(render(tile({ readyToShip: true }))).toContain('Ready to ship')
    expect(render(tile({ readyToShip: false }))).not.toContain('Ready to ship')
  })

  it('lazy tiles show the placeholder and carry the real srcset in data attributes', () => {
    const html = render(tile())
    expect(html).toContain(`src="${PLACEHOLDER_IMAGE.replace(/&/g, '&amp;')}"`)
    expect(html).toContain('data-src="/img/280/419/p/kurta-ivory.svg"')
    expect(html).toContain(
      'data-srcset="/img/280/419/p/kurta-ivory.svg 280w, /img/400/600/p/kurta-ivory.svg 400w, /img/585/878/p/kurta-ivory.svg 585w"',
    )
    expect(html).toContain('width="280" height="419"')
    expect(html).toContain('data-lazy="main"')
    expect(html).toContain('data-lazy="hover"')
  })

  it('eager (first row) tiles load the image at once with fetchpriority=high', () => {
    const html = render(tile(), 'INR', true)
    expect(html).toContain('src="/img/280/419/p/kurta-ivory.svg"')
    expect(html).toContain('srcSet="/img/280/419/p/kurta-ivory.svg 280w')
    expect(html).toContain('fetchPriority="high"')
  })

  it('shows the placeholder for a missing image', () => {
    const html = render(tile({ image: null, hoverImage: null }))
    expect(html).not.toContain('data-src')
    expect(html).toContain('src="data:image/svg+xml,')
  })

  it('gives the pictures empty alt text: the name in the same link names it (read once, not twice)', () => {
    for (const t of [tile(), tile({ image: null, hoverImage: null }), tile({ designer: undefined })]) {
      const html = render(t)
      const alts = [...html.matchAll(/<img [^>]*alt="([^"]*)"/g)].map((m) => m[1])
      expect(alts.length).toBeGreaterThan(0)
      expect(alts.every((a) => a === '')).toBe(true)
      expect(html).toContain('>Ivory Chanderi Kurta</h3>')
    }
  })
})
