import { expect, type Locator, test } from '@playwright/test'
import { pickProduct } from './checkout-fixtures'
import { waitForHydration } from './pages'

// Controls outside the header draw their icons from the shop's sprite too: no arrow, minus, times
// or other unicode glyph stands in for an icon on the cart page or the listing's back-to-top.

/** Arrows, mathematical operators (− ×), dingbats, geometric shapes, pictographs, ‹ ›. */
const GLYPH_ICON =
  /[\u2190-\u21FF\u2200-\u22FF\u2300-\u23FF\u25A0-\u27BF\u2B00-\u2BFF\u{1F000}-\u{1FAFF}×‹›]/u

async function expectSpriteIcon(control: Locator) {
  expect(await control.innerText()).not.toMatch(GLYPH_ICON)
  const icon = control.locator('svg.icon use')
  await expect(icon).toHaveCount(1)
  expect(await icon.getAttribute('href')).toMatch(/^#icon-/)
  expect(
    await control.locator('svg.icon').evaluate((svg) => svg.getBoundingClientRect().width),
  ).toBeGreaterThan(8)
}

test('the cart page shows no unicode-glyph icons: the quantity stepper draws sprite icons', async ({
  page,
  request,
}) => {
  const product = await pickProduct(request, 2)
  const variant = product.variants[0]
  await page.goto(product.url)
  await waitForHydration(page)
  for (const [label, value] of variant?.options ?? [])
    await page.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).not.toHaveText('0')
  await page.goto('/cart')
  await waitForHydration(page)
  const line = page.getByTestId('cart-line').first()
  await expect(line).toBeVisible()
  expect(await page.locator('main').innerText()).not.toMatch(GLYPH_ICON)
  await expectSpriteIcon(line.getByRole('button', { name: /Decrease quantity/ }))
  await expectSpriteIcon(line.getByRole('button', { name: /Increase quantity/ }))
})

test('back-to-top and the filter chips draw sprite icons, not glyphs', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/women')
  await waitForHydration(page)
  await page.evaluate(() => window.scrollTo(0, 2500))
  const top = page.getByTestId('back-to-top')
  await expect(top).toBeVisible()
  await expect(top).toHaveAccessibleName('Back to top')
  await expectSpriteIcon(top)
  await top.click()
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(50)

  const colour = page.locator('[data-testid="filter-option"][data-attr="color"]').first()
  await colour.click()
  const chip = page.getByTestId('filter-chip').first()
  await expect(chip).toBeVisible()
  await expectSpriteIcon(chip)
})
