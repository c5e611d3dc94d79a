import { expect, test } from '@playwright/test'
import { switchCurrency, waitForHydration } from './pages'

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
  // The reloaded document names the currency (a wait for a 'load' event could catch the first
  // document's own pending load instead: pages.ts).
  await switchCurrency(page, 'USD')
  await expect(page.getByTestId('currency-switcher')).toHaveValue('USD')
  const cookies = await context.cookies()
  expect(cookies.find((c) => c.name === 'currency')?.value).toBe('USD')
})

test('the sidebar opens a submenu and its path pops after the back button (300 ms)', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  await page.getByTestId('menu-button').click()
  const sidebar = page.getByTestId('sidebar')
  await sidebar.getByRole('button', { name: 'Open Women submenu' }).click()
  await expect(sidebar.getByRole('link', { name: 'All Women' })).toBeVisible()
  await expect(sidebar.getByRole('link', { name: 'Sarees' })).toBeVisible()
  await sidebar.getByRole('button', { name: /Back/ }).click()
  await expect(sidebar.getByRole('link', { name: 'All Women' })).toBeHidden()
  await expect(sidebar.getByRole('link', { name: 'Men', exact: true })).toBeVisible()
})

test('the search panel opens with the overlay and Escape closes both', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  await page.getByTestId('search-button').click()
  await expect(page.getByTestId('search-input')).toBeFocused()
  await expect(page.getByRole('button', { name: 'Close', exact: true })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('search-panel')).toBeHidden()
  await expect(page.getByRole('button', { name: 'Close', exact: true })).toBeHidden()
})
