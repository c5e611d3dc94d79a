import { expect, type Page, test } from '@playwright/test'
import { MSG } from '../../shared/i18n/messages'
import { waitForHydration } from './pages'

/** Paths of the catalogue's grouped products (through the public catalogue API). */
async function groupedProducts(page: Page): Promise<string[]> {
  const request = { query: { bool: { filter: { bool: { must: [{ terms: { type_id: ['grouped'] } }] } } } } }
  const res = await page.request.get(
    `/api/catalog/vue_storefront_catalog/product/_search?size=50&_source_include=sku,slug&request=${encodeURIComponent(JSON.stringify(request))}`,
  )
  expect(res.ok()).toBe(true)
  const body = (await res.json()) as { hits: { hits: Array<{ _source: { sku: string; slug: string } }> } }
  return body.hits.hits.map((h) => `/p/${h._source.sku}/${h._source.slug}`)
}

test('a grouped product marks its out-of-stock piece and adds only the others, with one message', async ({
  page,
}) => {
  // The first grouped product with a piece out of stock.
  let found = false
  for (const path of await groupedProducts(page)) {
    await page.goto(path)
    await waitForHydration(page)
    if ((await page.locator('[data-testid="grouped-piece"][data-out-of-stock]').count()) > 0) {
      found = true
      break
    }
  }
  expect(found, 'a grouped product with an out-of-stock piece').toBe(true)
  const pieces = page.getByTestId('grouped-piece')
  const out = await page
    .locator('[data-testid="grouped-piece"][data-out-of-stock]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sku')))
  const available = await page
    .locator('[data-testid="grouped-piece"]:not([data-out-of-stock])')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sku')))
  expect(available.length).toBeGreaterThan(0)
  expect(await pieces.count()).toBe(out.length + available.length)
  // The out-of-stock piece is visibly marked and has nothing to fill in.
  for (const sku of out) {
    const row = page.locator(`[data-testid="grouped-piece"][data-sku="${sku}"]`)
    await expect(row).toContainText(MSG.outOfStockBadge)
    await expect(row.locator('input')).toHaveCount(0)
  }

  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText(MSG.productAddedToCart)).toBeVisible()
  await expect(page.getByText(MSG.outOfStockCannotAdd)).toHaveCount(0)
  await expect(page.getByTestId('notification')).toHaveCount(1)
  await expect(page.getByTestId('minicart-count')).toHaveText(String(available.length))

  // The bag holds exactly the pieces that were in stock.
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByTestId('cart-line')).toHaveCount(available.length)
  const inBag = await page
    .getByTestId('cart-line')
    .evaluateAll((ls) => ls.map((l) => l.getAttribute('data-sku')))
  expect(inBag.sort()).toEqual([...available].sort())
})
