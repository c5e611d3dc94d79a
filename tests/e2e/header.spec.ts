import { expect, test } from '@playwright/test'
import { waitForHydration } from './pages'

test('the header island hydrates, its menu button toggles the sidebar', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  const header = page.locator('[data-island="header"]')
  await expect(header).toHaveAttribute('data-hydrated', 'true')
  const sidebar = page.getByTestId('sidebar')
  await expect(sidebar).toBeHidden()
  await page.getByTestId('menu-button').click()
  await expect(sidebar).toBeVisible()
  await expect(page.getByTestId('menu-button')).toHaveAttribute('aria-expanded', 'true')
  await page.getByRole('button', { name: 'Close', exact: true }).click()
  await expect(sidebar).toBeHidden()
})

test('switching currency sets the cookie and the page reloads in that currency', async ({
  page,
  context,
}) => {
  await context.clearCookies()
  await page.goto('/')
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveAttribute('data-currency', 'INR')
  await Promise.all([page.waitForEvent('load'), page.getByTestId('currency-switcher').selectOption('USD')])
  await expect(page.locator('html')).toHaveAttribute('data-currency', 'USD')
  await waitForHydration(page)
  await expect(page.getByTestId('currency-switcher')).toHaveValue('USD')
  const cookies = await context.cookies()
  expect(cookies.find((c) => c.name === 'currency')?.value).toBe('USD')
})
