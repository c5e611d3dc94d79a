import { expect, type Page, test } from '@playwright/test'
import { MSG, PRODUCT_EXTRA_MSG } from '../../shared/i18n/messages'
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

test('a grouped product marks its out-of-stock piece, heads with the chosen pieces and adds exactly those, each with its picture and a link to the set', async ({
  page,
}) => {
  // The first grouped product with a piece out of stock.
  let found = false
  let setPath = ''
  for (const path of await groupedProducts(page)) {
    await page.goto(path)
    await waitForHydration(page)
    if ((await page.locator('[data-testid="grouped-piece"][data-out-of-stock]').count()) > 0) {
      found = true
      setPath = path
      break
    }
  }
  expect(found, 'a grouped product with an out-of-stock piece').toBe(true)
  const pieces = page.getByTestId('grouped-piece')
  const out = await page
    .locator('[data-testid="grouped-piece"][data-out-of-stock]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sku')))
  const available = await page
    .locator('[data-testid="grouped-piece"]:not([data-out-of-stock]):not([data-needs-options])')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-sku')))
  expect(available.length).toBeGreaterThan(0)
  const needsOptions = await page.locator('[data-testid="grouped-piece"][data-needs-options]').count()
  expect(await pieces.count()).toBe(out.length + available.length + needsOptions)
  // The out-of-stock piece is visibly marked and has nothing to fill in.
  for (const sku of out) {
    const row = page.locator(`[data-testid="grouped-piece"][data-sku="${sku}"]`)
    await expect(row).toContainText(MSG.outOfStockBadge)
    await expect(row.locator('input')).toHaveCount(0)
  }
  // With two pieces or more, the shopper leaves the last one out: the headline follows.
  const headline = page.getByTestId('price-final').first()
  const before = await headline.textContent()
  const chosen = available.length > 1 ? available.slice(0, -1) : available
  if (chosen.length < available.length) {
    await page.locator(`[data-testid="grouped-piece"][data-sku="${available.at(-1)}"] input`).fill('0')
    await expect(headline).not.toHaveText(before ?? '')
  }
  const shown = await headline.textContent()

  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText(MSG.productAddedToCart)).toBeVisible()
  await expect(page.getByText(MSG.outOfStockCannotAdd)).toHaveCount(0)
  // One message about the add (the first visit may also say the shop works offline).
  const aboutTheAdd = async () =>
    (await page.getByTestId('notification').allTextContents()).filter((t) =>
      [MSG.productAddedToCart, MSG.outOfStockCannotAdd, MSG.stockVolatile].some((m) => t.includes(m)),
    )
  await expect.poll(aboutTheAdd).toEqual([expect.stringContaining(MSG.productAddedToCart)])
  await expect(page.getByTestId('minicart-count')).toHaveText(String(chosen.length))

  // The bag holds exactly the chosen pieces, each with a picture and a link to the set, at the price shown.
  await page.goto('/cart')
  await waitForHydration(page)
  const lines = page.getByTestId('cart-line')
  await expect(lines).toHaveCount(chosen.length)
  const inBag = await lines.evaluateAll((ls) => ls.map((l) => l.getAttribute('data-sku')))
  expect(inBag.sort()).toEqual([...chosen].sort())
  for (const line of await lines.all()) {
    await expect(line.locator('img')).not.toHaveAttribute('src', /placeholder/)
    await expect(line.locator('.cart-line__name a')).toHaveAttribute('href', setPath)
  }
  await expect(page.locator('[data-segment="subtotal"] dd')).toHaveText(shown ?? '')
})

/** A product page path for a simple product with stock (in) or without (out), from the catalogue API. */
async function simpleProduct(page: Page, inStock: boolean): Promise<string> {
  const request = {
    query: {
      bool: {
        filter: {
          bool: {
            must: [{ terms: { type_id: ['simple'] } }, { terms: { 'stock.is_in_stock': [inStock] } }],
          },
        },
      },
    },
  }
  const res = await page.request.get(
    `/api/catalog/vue_storefront_catalog/product/_search?size=1&_source_include=sku,slug&request=${encodeURIComponent(JSON.stringify(request))}`,
  )
  const body = (await res.json()) as { hits: { hits: Array<{ _source: { sku: string; slug: string } }> } }
  const hit = body.hits.hits[0]?._source
  expect(hit, `a simple product ${inStock ? 'in' : 'out of'} stock`).toBeTruthy()
  return `/p/${hit?.sku}/${hit?.slug}`
}

/** WCAG contrast ratio of two computed CSS colours ('rgb(r, g, b)'). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const s = Number(v) / 255
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl
  }
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

test('out of stock: a legible badge, and "Notify me" stores the shopper’s address', async ({ page }) => {
  await page.goto(await simpleProduct(page, false))
  await waitForHydration(page)
  const badge = page.getByTestId('out-of-stock')
  await expect(badge).toHaveText(MSG.outOfStockBadge)
  const colours = await badge.evaluate((el) => {
    const s = getComputedStyle(el)
    return { fg: s.color, bg: s.backgroundColor }
  })
  expect(contrast(colours.fg, colours.bg)).toBeGreaterThanOrEqual(4.5)

  await page.getByTestId('notify-me').click()
  const form = page.getByTestId('notify-me-form')
  await form.getByLabel(PRODUCT_EXTRA_MSG.notifyMeLabel).fill('not an address')
  await form.getByRole('button', { name: MSG.notifyMe }).click()
  await expect(form.getByRole('alert')).toContainText('email')
  await form.getByLabel(PRODUCT_EXTRA_MSG.notifyMeLabel).fill('shopper@example.com')
  await form.getByRole('button', { name: MSG.notifyMe }).click()
  await expect(page.getByTestId('notify-me-done')).toHaveText(PRODUCT_EXTRA_MSG.notifyMeDone)
})

test('delivery by PIN code: the date and cash on delivery for a serviceable PIN, a hint for a bad one', async ({
  page,
}) => {
  await page.goto(await simpleProduct(page, true))
  await waitForHydration(page)
  const form = page.getByTestId('pin-check')
  const answer = page.getByTestId('pin-check-answer')
  await form.getByRole('textbox').fill('12')
  await form.getByRole('button').click()
  await expect(answer).toHaveText(PRODUCT_EXTRA_MSG.pinInvalid)
  await form.getByRole('textbox').fill('110001')
  await form.getByRole('button').click()
  await expect(answer).toContainText('Delivery to 110001 by ')
  await expect(answer).toContainText(/Cash on delivery (available|is not available for PIN 110001)/)
})
