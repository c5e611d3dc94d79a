/**
 * The wishlist page moves a piece to the bag with the size chosen there: the piece's sizes are
 * offered in place (asking for one when none is chosen), the line in the bag is that size, and the
 * piece leaves the wishlist. The page fits a 390 px phone.
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
