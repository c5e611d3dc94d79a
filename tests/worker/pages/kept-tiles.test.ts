// Tiles and their markup are worked out once and reused (worker/pages/layout/tiles.ts), yet a page
// shows stock and special prices exactly as they are at the moment it is asked for: a stock change
// (no catalogue version bump, as an order makes it) is on the next uncached page, and a special
// price that starts or ends is priced at once.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Product } from '../../../shared/schemas/catalog'
import app from '../../../worker/app'
import { MAX_KEPT_TILE_KEYS, productTile } from '../../../worker/pages/layout/tiles'
import { sellOutFamily } from '../../helpers/d1-rows'

/** One environment object for every request, as in a running isolate (its parsed configuration is kept by it). */
const pageEnv = { ...env, OUTPUT_CACHE_ENABLED: 'false' }

/** The home page rendered afresh (the output cache off). */
async function homeHtml(): Promise<string> {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request('https://shop.test/'), pageEnv, ctx)
  const html = await res.text()
  await waitOnExecutionContext(ctx)
  expect(res.status).toBe(200)
  return html
}

/** The markup of the tile of `sku` in a curated home section. */
function tileOf(html: string, sku: string): string {
  const start = html.indexOf(`<article class="tile" data-sku="${sku}"`)
  expect(start, sku).toBeGreaterThanOrEqual(0)
  return html.slice(start, html.indexOf('</article>', start))
}

const DAY = 86_400_000

describe('kept tiles', () => {
  it('a stock change shows on the next uncached home page, and the stock coming back shows too', async () => {
    const first = await homeHtml()
    const start = first.indexOf('data-category-id="189"')
    const sku = /<article class="tile" data-sku="([^"]+)"/.exec(first.slice(start))?.[1] ?? ''
    expect(tileOf(first, sku)).toContain('data-testid="tile-price"')
    // The same page again, nothing changed: the same tile.
    expect(tileOf(await homeHtml(), sku)).toBe(tileOf(first, sku))

    const restock = await sellOutFamily(sku)
    const sold = tileOf(await homeHtml(), sku)
    expect(sold, 'sold out: no price, the interest button').toContain('data-show-interest')
    expect(sold).not.toContain('data-testid="tile-price"')

    await restock()
    expect(tileOf(await homeHtml(), sku)).toBe(tileOf(first, sku))
  })

  it('a kept tile is priced again the moment a special price starts and ends', () => {
    const from = Date.UTC(2030, 0, 10)
    const product = Object.freeze({
      id: 990001,
      sku: 'KEPT-TILE',
      name: 'Kept tile',
      slug: 'kept-tile',
      type_id: 'simple',
      price: 1000,
      special_price: 800,
      special_from_date: '2030-01-10',
      special_to_date: '2030-01-20',
      stock: { is_in_stock: true, qty: 3 },
    }) as unknown as Product
    const pricing = { country: 'IN', taxRules: null }
    const before = productTile(product, from - DAY, pricing)
    expect(before.finalPrice).toBe(1000)
    // Within the span the window answers the same: the kept tile.
    expect(productTile(product, from - 1, pricing)).toBe(before)
    const during = productTile(product, from, pricing)
    expect(during).toMatchObject({ finalPrice: 800, regularPrice: 1000, discountPercent: 20 })
    // The last day of the window is the whole day.
    expect(productTile(product, Date.UTC(2030, 0, 20, 23, 59), pricing)).toBe(during)
    expect(productTile(product, Date.UTC(2030, 0, 21), pricing).finalPrice).toBe(1000)
    // Back before the window (a clock is never set back, but the span says so): priced again.
    expect(productTile(product, from - DAY, pricing).finalPrice).toBe(1000)
  })

  it('a tile is kept per pricing country and tax rules, and not for a product built for one request', () => {
    const product = Object.freeze({
      id: 990002,
      sku: 'KEPT-TILE-2',
      name: 'Kept tile 2',
      slug: 'kept-tile-2',
      type_id: 'simple',
      price: 1000,
      stock: { is_in_stock: true, qty: 3 },
    }) as unknown as Product
    const now = Date.UTC(2030, 0, 1)
    const india = productTile(product, now, { country: 'IN', taxRules: null })
    expect(productTile(product, now, { country: 'IN', taxRules: null })).toBe(india)
    expect(productTile(product, now, { country: 'US', taxRules: null })).not.toBe(india)
    expect(productTile(product, now, { country: 'IN', taxRules: [] })).not.toBe(india)
    const loose = { ...product } as Product
    expect(productTile(loose, now, { country: 'IN', taxRules: null })).not.toBe(
      productTile(loose, now, { country: 'IN', taxRules: null }),
    )
  })

  it(`keeps at most ${MAX_KEPT_TILE_KEYS} countries' tiles of a product: a visitor cycling cookie countries keeps no more`, () => {
    const product = Object.freeze({
      id: 990003,
      sku: 'KEPT-TILE-3',
      name: 'Kept tile 3',
      slug: 'kept-tile-3',
      type_id: 'simple',
      price: 1000,
      stock: { is_in_stock: true, qty: 3 },
    }) as unknown as Product
    const now = Date.UTC(2030, 0, 1)
    const tileIn = (country: string) => productTile(product, now, { country, taxRules: null })
    const first = tileIn('AA')
    const countries = Array.from({ length: 26 * 26 }, (_, i) =>
      String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26)),
    )
    // Within the bound a country's tile is kept; past it the product's kept tiles start afresh.
    for (const country of countries.slice(1, MAX_KEPT_TILE_KEYS)) tileIn(country)
    expect(tileIn('AA')).toBe(first)
    for (const country of countries) tileIn(country)
    expect(tileIn('AA')).not.toBe(first)
    expect(tileIn('AA').finalPrice).toBe(first.finalPrice)
  })
})
