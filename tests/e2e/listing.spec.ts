import { expect, type Page, test } from '@playwright/test'
import { MSG } from '../../shared/i18n/messages'
import { waitForHydration } from './pages'

const tiles = (page: Page) => page.locator('[data-testid="listing"] [data-testid="product-tile"]')

/** The colour options of the filter panel with at least two products, as [id, label]. */
async function colourOptions(page: Page): Promise<Array<[string, string]>> {
  return page.$$eval('[data-testid="filter-option"][data-attr="color"]', (els) =>
    els
      .filter((el) => Number(el.querySelector('.filter__count')?.textContent?.replace(/\D/g, '')) > 1)
      .map((el) => [
        (el as HTMLElement).dataset.id ?? '',
        el.querySelector('.filter__label')?.textContent ?? '',
      ]),
  )
}

test('a colour filter shows only tiles in that colour, each picturing and linking its variant', async ({
  page,
}) => {
  await page.goto('/women')
  await waitForHydration(page)
  const before = await tiles(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-sku')))
  // The colour that appears on the fewest first-page tiles, so the filter visibly changes the grid.
  const options = await colourOptions(page)
  expect(options.length).toBeGreaterThan(1)
  const [colourId, label] = options[Math.floor(options.length / 2)] as [string, string]

  await page.locator(`[data-testid="filter-option"][data-attr="color"][data-id="${colourId}"]`).click()
  await expect(page).toHaveURL(new RegExp(`[?&]color=${colourId}(&|$)`))
  await expect(page.locator('.product-grid--loading')).toHaveCount(0)

  // Every tile says it shows the chosen colour, and its link opens that colour's variant.
  const shown = await tiles(page).evaluateAll((els) =>
    els.map((el) => ({
      sku: el.getAttribute('data-sku'),
      color: el.getAttribute('data-shown-color'),
      href: el.querySelector('a.tile__link')?.getAttribute('href') ?? '',
      img: (el.querySelector('img.tile__img') as HTMLImageElement | null)?.dataset.src ?? '',
    })),
  )
  expect(shown.length).toBeGreaterThan(0)
  expect(shown.map((t) => t.sku)).not.toEqual(before)
  for (const t of shown) expect(t.color, `${t.sku} shows colour ${t.color}`).toBe(colourId)
  // The applied filter is a chip.
  await expect(page.getByTestId('filter-chip')).toHaveText(new RegExp(label))

  // The first configurable tile opens its product page on the chosen colour.
  const variantTile = shown.find((t) => t.href.split('/').length === 5)
  expect(variantTile, 'a tile links to a variant').toBeTruthy()
  await page.locator(`[data-sku="${variantTile?.sku}"] a.tile__link`).click()
  await expect(page).toHaveURL(/\/p\//)
  await expect(page.getByTestId(`option-color-${colourId}`)).toHaveAttribute('aria-pressed', 'true')
  await expect(page.getByTestId('picker-color').locator('legend')).toContainText(label)
})

test('removing a filter chip takes that filter away', async ({ page }) => {
  await page.goto('/women')
  await waitForHydration(page)
  const [colourId] = (await colourOptions(page))[0] as [string, string]
  await page.goto(`/women?color=${colourId}`)
  await waitForHydration(page)
  const filtered = await tiles(page).count()
  await page.getByTestId('filter-chip').click()
  await expect(page).not.toHaveURL(/color=/)
  await expect(page.getByTestId('filter-chip')).toHaveCount(0)
  await expect.poll(() => tiles(page).count()).toBeGreaterThanOrEqual(filtered)
})

test.describe('with its service worker', () => {
  // Offline, a shopper's requests go through the service worker (playwright.config.ts blocks the
  // worker in other tests).
  test.use({ serviceWorkers: 'allow' })

  test('offline, a filter change says so in words and leaves the page exactly as it was', async ({
    page,
    context,
  }) => {
    await page.goto('/women')
    await waitForHydration(page)
    const url = page.url()
    const before = await tiles(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-sku')))
    const count = await page.getByTestId('listing-count').textContent()
    const [colourId] = (await colourOptions(page))[0] as [string, string]
    await context.setOffline(true)
    try {
      const option = page.locator(`[data-testid="filter-option"][data-attr="color"][data-id="${colourId}"]`)
      await option.click()
      await expect(page.getByTestId('notification')).toContainText(MSG.listingOffline)
      await expect(page.getByTestId('notification')).not.toContainText('Failed to fetch')
      expect(page.url()).toBe(url)
      await expect(option).toHaveAttribute('aria-checked', 'false')
      await expect(page.getByTestId('filter-chip')).toHaveCount(0)
      await expect(page.getByTestId('listing-count')).toHaveText(count ?? '')
      expect(await tiles(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-sku')))).toEqual(
        before,
      )
    } finally {
      await context.setOffline(false)
    }
  })
})

for (const path of ['/women', '/search?q=silk']) {
  test(`the listing at ${path} hydrates over the markup the server kept for its tiles and filter panel, unchanged`, async ({
    page,
  }) => {
    const warnings: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(msg.text())
    })
    // The first visit renders and keeps the markup; the second is built from what was kept.
    for (let i = 0; i < 2; i++) {
      await page.goto(path)
      await waitForHydration(page)
    }
    expect(warnings.filter((w) => w.includes('island category-listing'))).toEqual([])
    // The kept filter panel answers clicks: its options are the hydrated island's.
    const [colourId] = (await colourOptions(page))[0] ?? []
    await page.locator(`[data-testid="filter-option"][data-attr="color"][data-id="${colourId}"]`).click()
    await expect(page).toHaveURL(new RegExp(`color=${colourId}`))
  })
}

test('a listing link naming a colour no filter offers hydrates as the server drew it, without searching again', async ({
  page,
}) => {
  const searches: string[] = []
  page.on('request', (req) => {
    if (req.url().includes('/api/catalog/')) searches.push(req.url())
  })
  await page.goto('/women?color=49,99999')
  await waitForHydration(page)
  await page.waitForLoadState('networkidle')
  // The server listed Black's products and dropped the unknown colour; the island agrees.
  await expect(
    page.locator('[data-testid="filter-option"][data-attr="color"][data-id="49"][aria-checked="true"]'),
  ).toHaveCount(1)
  expect(await page.content()).not.toContain('99999')
  expect(searches).toEqual([])
})
