/**
 * The wishlist and compare pages as a shopper uses them on a phone: the wishlist moves a piece to
 * the bag with the size chosen there (asking for one when none is chosen; the piece leaves the
 * wishlist); compare lists the garments' fabric and make, says it scrolls sideways without the
 * page growing wider than the window, and removes a piece.
 */
import { expect, test } from '@playwright/test'
import { pickProduct } from './checkout-fixtures'
import { waitForHydration } from './pages'

test('a wishlist piece is moved to the bag in the size chosen on the wishlist', async ({ page, request }) => {
  const product = await pickProduct(request)
  const variant = product.variants[1]
  if (!variant) throw new Error('no second variant')
  await page.goto(product.url)
  await waitForHydration(page)
  await page.getByTestId('add-to-wishlist').click()
  await expect(page.getByTestId('add-to-wishlist')).toHaveAttribute('aria-pressed', 'true')

  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/wishlist')
  await waitForHydration(page)
  const row = page.getByTestId('list-item').filter({ hasText: product.name })
  await expect(row.getByRole('button', { name: 'Move to bag' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await row.getByRole('button', { name: 'Move to bag' }).click()
  await expect(row.getByRole('alert')).toContainText('Please choose a')
  const label = variant.options.map(([, value]) => value).join(' / ')
  await row.getByRole('combobox').selectOption({ label })
  await row.getByRole('button', { name: 'Move to bag' }).click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  await expect(page.getByTestId('wishlist-empty')).toBeVisible()
  await page.goto('/cart')
  await waitForHydration(page)
  for (const [, value] of variant.options)
    await expect(page.getByText(value, { exact: false }).first()).toBeVisible()
})

test('compare names fabric and make, scrolls inside itself on a phone, and removes a piece', async ({
  page,
  request,
}) => {
  const product = await pickProduct(request)
  for (const url of [product.url, '/p/GRP2328/bridal-jewellery-set-grp2328']) {
    await page.goto(url)
    await waitForHydration(page)
    await page.getByTestId('add-to-compare').click()
    await expect(page.getByTestId('add-to-compare')).toHaveAttribute('aria-pressed', 'true')
  }
  await page.setViewportSize({ width: 390, height: 800 })
  await page.goto('/compare')
  await waitForHydration(page)
  const table = page.getByTestId('compare-table')
  await expect(
    page.getByText('2 pieces side by side. On a small screen, scroll the table sideways'),
  ).toBeVisible()
  await expect(table.locator('tr[data-attribute="fabric"] th')).toHaveText('Fabric')
  await expect(table.locator('tr[data-attribute="make"]')).toContainText(/Made to order|Ready to ship/)
  await expect(table).not.toContainText('N/A')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.getByRole('button', { name: `Remove ${product.name} from compare` }).click()
  await expect(table.locator('thead th[data-sku]')).toHaveCount(1)
  await expect(page.getByText('One piece so far')).toBeVisible()
})
