// The category and search pages keep their tiles and their markup by the products the search
// engine answers with, and their filter panels by the result set (worker/pages/layout/grid-tiles.tsx),
// as the home page keeps its tiles, yet they show stock, special prices, the shopper's country and
// the chosen filters exactly as they are when asked for. The tiles checked lie past the grid's first
// row, whose markup is the kept one.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LISTING_COLUMNS } from '../../../shared/config/catalog'
import app from '../../../worker/app'
import { clearAllMemos, memoTable } from '../../../worker/platform/memo'
import { sellOutFamily } from '../../helpers/d1-rows'

afterEach(() => {
  vi.useRealTimers()
})

/** One environment object for every request, as in a running isolate (its parsed configuration is kept by it). */
const pageEnv = { ...env, OUTPUT_CACHE_ENABLED: 'false' }

/** A category or search page rendered afresh (the output cache off), for the shopper's country. */
async function listingHtml(path = '/c/women', country = 'IN'): Promise<string> {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://shop.test${path}`, { headers: { cookie: `country=${country}` } }),
    pageEnv,
    ctx,
  )
  const html = await res.text()
  await waitOnExecutionContext(ctx)
  expect(res.status, path).toBe(200)
  return html
}

/** The page's tiles by sku, each its whole markup. */
function tilesOf(html: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const m of html.matchAll(/<article class="tile" data-sku="([^"]+)"[\s\S]*?<\/article>/g))
    out.set(m[1] ?? '', m[0])
  return out
}

/** The page's filter panel. */
const panel = (html: string) => /<aside class="filters"[\s\S]*?<\/aside>/.exec(html)?.[0] ?? ''

/** The tile of `sku`, which the page must show. */
function tileOf(html: string, sku: string): string {
  const tile = tilesOf(html).get(sku)
  expect(tile, sku).toBeDefined()
  return tile ?? ''
}

/**
 * The listing at `path` shows a product past its first row sold out on the next uncached page once
 * its family's stock is gone, and its tile exactly as before once the stock is back.
 */
async function expectStockChangeShown(path: string): Promise<void> {
  const first = await listingHtml(path)
  const sku = [...tilesOf(first).entries()]
    .slice(LISTING_COLUMNS.configured)
    .find(([, tile]) => tile.includes('data-testid="tile-price"'))?.[0]
  expect(sku).toBeDefined()
  const restock = await sellOutFamily(sku ?? '')
  const sold = tileOf(await listingHtml(path), sku ?? '')
  expect(sold, 'sold out: no price, the interest button').toContain('data-show-interest')
  expect(sold).not.toContain('data-testid="tile-price"')
  await restock()
  expect(tileOf(await listingHtml(path), sku ?? '')).toBe(tileOf(first, sku ?? ''))
}

/** The listing at `path` prices a tile past its first row for each country, each kept apart. */
async function expectCountriesApart(path: string): Promise<void> {
  const india = await listingHtml(path, 'IN')
  const us = await listingHtml(path, 'US')
  const sku = [...tilesOf(india).keys()][LISTING_COLUMNS.configured] ?? ''
  expect(tileOf(us, sku)).not.toBe(tileOf(india, sku))
  expect(tileOf(us, sku)).toContain('$')
  expect(tileOf(await listingHtml(path, 'IN'), sku)).toBe(tileOf(india, sku))
  expect(tileOf(await listingHtml(path, 'US'), sku)).toBe(tileOf(us, sku))
}

/**
 * A simple product on special until `end` and a category page that lists it past the grid's first
 * row (rendered at the current, faked, instant).
 */
async function listedOnSpecialUntil(end: string): Promise<{ sku: string; path: string }> {
  const { results } = await env.DB.prepare(
    `SELECT sku, json_extract(doc, '$.category_ids') AS ids FROM products
       WHERE type_id = 'simple' AND status = 1 AND visibility = 4
         AND json_extract(doc, '$.special_to_date') = ?1
         AND json_extract(doc, '$.special_price') < json_extract(doc, '$.price') ORDER BY id`,
  )
    .bind(end)
    .all<{ sku: string; ids: string }>()
  for (const { sku, ids } of results) {
    for (const id of JSON.parse(ids) as number[]) {
      const row = await env.DB.prepare('SELECT slug FROM categories WHERE id = ?')
        .bind(id)
        .first<{ slug: string }>()
      if (!row?.slug) continue
      const path = `/c/${row.slug}`
      const listed = [...tilesOf(await listingHtml(path)).keys()]
      if (listed.indexOf(sku) >= LISTING_COLUMNS.configured) return { sku, path }
    }
  }
  throw new Error(`no simple product on special until ${end} listed past a grid's first row`)
}

describe('kept category tiles', () => {
  it('a special price shows at once on the next uncached category page as its window ends, and as it opens', async () => {
    const end = '2035-12-31 23:59:59'
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.UTC(2035, 11, 31, 23, 59, 58))
    const { sku, path } = await listedOnSpecialUntil(end)
    const before = await listingHtml(path)
    expect(tileOf(before, sku)).toContain('price--special')
    // The same instant again: the kept tile, the same markup.
    expect(tileOf(await listingHtml(path), sku)).toBe(tileOf(before, sku))
    // The window's last second is over: the regular price, on the very next page.
    vi.setSystemTime(Date.UTC(2036, 0, 1))
    const after = await listingHtml(path)
    expect(tileOf(after, sku)).not.toContain('price--special')
    // Back within the window (the span says so): the special price again.
    vi.setSystemTime(Date.UTC(2035, 11, 31, 23, 59, 59))
    expect(tileOf(await listingHtml(path), sku)).toBe(tileOf(before, sku))
  })

  it('a stock change shows on the next uncached category page, and the stock coming back shows too', async () => {
    await expectStockChangeShown('/c/women')
  })

  it("each country's page shows its own prices, kept apart", async () => {
    await expectCountriesApart('/c/women')
  })

  it('the filter panel follows the chosen filters and the sort, page after page', async () => {
    const plain = panel(await listingHtml())
    const colour = /data-attr="color" data-id="(\d+)"/.exec(plain)?.[1]
    expect(colour).toBeDefined()
    const chosen = panel(await listingHtml(`/c/women?color=${colour}`))
    expect(chosen).toContain('filters__clear')
    expect(chosen).toMatch(new RegExp(`aria-checked="true"[^>]*data-attr="color" data-id="${colour}"`))
    const sorted = panel(await listingHtml('/c/women?sort=price-asc'))
    expect(sorted).not.toBe(plain)
    expect(sorted).toContain('sort=price-asc')
    // Each again: the same panel as the first time.
    expect(panel(await listingHtml())).toBe(plain)
    expect(panel(await listingHtml(`/c/women?color=${colour}`))).toBe(chosen)
    expect(plain).not.toContain('aria-checked="true"')
  })
})

describe('kept search tiles', () => {
  it('the search page keeps its filter panel by its result set and text, as a category page does', async () => {
    clearAllMemos()
    const kept = () => memoTable().find((m) => m.name === 'listing filter panels')?.entries
    const silk = panel(await listingHtml('/search?q=silk'))
    expect(silk).toContain('q=silk')
    expect(kept()).toBe(1)
    expect(panel(await listingHtml('/search?q=silk'))).toBe(silk)
    expect(kept()).toBe(1)
    // Another text is another panel: its links keep their own text.
    const cotton = panel(await listingHtml('/search?q=cotton'))
    expect(cotton).toContain('q=cotton')
    expect(cotton).not.toContain('q=silk')
    expect(kept()).toBe(2)
  })

  it('a stock change shows on the next uncached search page, and the stock coming back shows too', async () => {
    await expectStockChangeShown('/search?q=silk')
  })

  it("each country's search page shows its own prices, kept apart", async () => {
    await expectCountriesApart('/search?q=silk')
  })
})
