import { expect, type Page, test } from '@playwright/test'
import { switchCurrency, waitForHydration } from './pages'

/** Final prices (INR, from data-price) of the priced tiles, in screen order. */
async function tilePrices(page: Page): Promise<number[]> {
  return page.$$eval('[data-testid="listing"] [data-testid="tile-price"]', (els) =>
    els.map((el) => Number((el as HTMLElement).dataset.price)),
  )
}

async function tileCount(page: Page): Promise<number> {
  return page.locator('[data-testid="listing"] [data-testid="product-tile"]').count()
}

test('category from the menu: colour + price filters, sort by price, infinite scroll', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  await page.getByTestId('menu-button').click()
  await page.getByTestId('sidebar').getByRole('link', { name: 'Women', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Women' })).toBeVisible()
  await waitForHydration(page)
  const all = await tileCount(page)
  expect(all).toBe(24)

  // Colour filter: the URL carries it, every tile matches (fewer products).
  const colour = page.locator('[data-testid="filter-option"][data-attr="color"]').first()
  const colourId = await colour.getAttribute('data-id')
  await colour.click()
  await expect(page).toHaveURL(new RegExp(`[?&]color=${colourId}`))
  await expect(page.locator(`[data-attr="color"][data-id="${colourId}"]`)).toHaveAttribute(
    'aria-checked',
    'true',
  )
  const countText = async () => (await page.getByTestId('listing-count').textContent()) ?? ''
  await expect.poll(countText).not.toBe('')

  // Price range (its 'min-max' ids).
  const price = page.locator('[data-testid="filter-option"][data-attr="price"]').first()
  const priceId = (await price.getAttribute('data-id')) ?? ''
  expect(priceId).toMatch(/^\d+-\d*$/)
  await price.click()
  await expect(page).toHaveURL(/[?&]price=/)

  // Sort by price ascending and check the order on screen.
  await page.getByTestId('sort-select').selectOption('price-asc')
  await expect(page).toHaveURL(/sort=price-asc/)
  await expect(page.locator('.product-grid--loading')).toHaveCount(0)
  const prices = await tilePrices(page)
  expect(prices.length).toBeGreaterThan(0)
  expect(prices).toEqual([...prices].sort((a, b) => a - b))

  // The back button restores the previous filter state.
  await page.goBack()
  await expect(page).not.toHaveURL(/sort=price-asc/)
  await expect(page.getByTestId('sort-select')).toHaveValue('latest')
})

test('infinite scroll loads the next page; back from a product lands on the same product', async ({
  page,
}) => {
  // Two product-page round trips on a shared 2-core machine.
  test.setTimeout(90_000)
  await page.goto('/women')
  await waitForHydration(page)
  expect(await tileCount(page)).toBe(24)
  await page.getByTestId('listing-sentinel').scrollIntoViewIfNeeded()
  await expect.poll(() => tileCount(page), { timeout: 20_000 }).toBeGreaterThan(24)

  // Open a product from the second page.
  const tile = page.locator('[data-testid="listing"] [data-testid="product-tile"]').nth(30)
  const sku = await tile.getAttribute('data-sku')
  await tile.locator('a.tile__link').click()
  await expect(page).toHaveURL(/\/p\//)
  await page.goBack()
  await expect(page).toHaveURL(/\/women$/)
  const back = page.locator(`[data-testid="listing"] [data-sku="${sku}"]`)
  await expect(back).toBeInViewport()

  // A fresh load of the listing (no back/forward cache) reloads up to the remembered item count
  // and scrolls to the clicked product.
  const again = page.locator('[data-testid="listing"] [data-testid="product-tile"]').nth(40)
  await again.scrollIntoViewIfNeeded()
  const sku2 = await again.getAttribute('data-sku')
  await again.locator('a.tile__link').click()
  await page.waitForURL(/\/p\//, { waitUntil: 'commit' })
  await page.goto('/women')
  await expect.poll(() => tileCount(page), { timeout: 20_000 }).toBeGreaterThan(40)
  await expect(page.locator(`[data-testid="listing"] [data-sku="${sku2}"]`)).toBeInViewport()
})

test('search with a typo finds the product, and the results page lists it', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  await page.getByTestId('search-button').click()
  const input = page.getByTestId('search-input')
  await input.fill('banarasi sareee')
  const results = page.getByTestId('search-results')
  await expect(results).toBeVisible()
  await expect(
    results
      .getByRole('link')
      .filter({ hasText: /Banarasi/i })
      .first(),
  ).toBeVisible()
  await page.getByTestId('search-all').click()
  await expect(page).toHaveURL(/\/search\?q=banarasi/)
  await expect(
    page
      .getByTestId('search-page-results')
      .getByText(/Banarasi/i)
      .first(),
  ).toBeVisible()

  await page.goto('/search?q=zzzzqqqq')
  await expect(page.getByTestId('search-no-results')).toBeVisible()
})

test('switching to USD converts prices and hides international products', async ({ page, context }) => {
  await context.clearCookies()
  await page.goto('/search?q=saree')
  await waitForHydration(page)
  const intlInr = await page.locator('[data-international]').count()
  expect(intlInr).toBeGreaterThan(0)
  const firstInr = (await page.locator('.tile__price .price').first().textContent()) ?? ''
  expect(firstInr.startsWith('₹')).toBe(true)

  await switchCurrency(page, 'USD')
  await expect(page.locator('[data-international]')).toHaveCount(0)
  const firstUsd = (await page.locator('.tile__price .price').first().textContent()) ?? ''
  expect(firstUsd).toMatch(/^\$\d[\d,]*\.\d\d$/)
})

test('an unknown category redirects home with the offline notification', async ({ page }) => {
  await page.goto('/c/no-such-category')
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByTestId('notification')).toContainText(
    'The product, category or CMS page is not available in Offline mode. Redirecting to Home.',
  )
})

test("'Show Interest' on an out-of-stock tile opens the chat enquiry with the product link", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto('/accessories')
  await waitForHydration(page)
  await expect(page.getByTestId('chat-launcher')).toBeVisible()
  const button = page.locator('[data-show-interest]').first()
  const productUrl = (await button.getAttribute('data-product-url')) ?? ''
  expect(productUrl).toMatch(/^\/p\//)
  await button.click()
  await expect(page.getByTestId('chat-panel')).toBeVisible()
  await expect(page.getByTestId('chat-message')).toHaveValue(new RegExp(productUrl.replace(/[/.]/g, '\\$&')))
})

test('the chat launcher is desktop only', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/')
  await waitForHydration(page)
  await expect(page.getByTestId('chat-launcher')).toBeHidden()
})

test.describe('with its service worker', () => {
  // Offline, saved results come from the service worker's catalogue cache (playwright.config.ts
  // blocks the worker in other tests).
  test.use({ serviceWorkers: 'allow' })

  test('offline, search answers from the catalogue cache with the offline flag', async ({
    page,
    context,
  }) => {
    await page.goto('/')
    await waitForHydration(page)
    await page.getByTestId('search-button').click()
    const input = page.getByTestId('search-input')
    await input.fill('kurta')
    await expect(page.getByTestId('search-results')).toBeVisible()
    await input.fill('')
    await context.setOffline(true)
    try {
      await input.fill('kurta')
      await expect(page.getByTestId('search-results')).toBeVisible()
      await expect(page.getByTestId('search-offline')).toContainText('Showing saved results')
      await input.fill('lehenga')
      await expect(page.getByTestId('search-offline')).toContainText('Search needs a connection')
    } finally {
      await context.setOffline(false)
    }
  })
})
