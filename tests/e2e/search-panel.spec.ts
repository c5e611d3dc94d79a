import { expect, type Page, test } from '@playwright/test'
import { msgShowingResultsFor } from '../../shared/i18n/messages'
import { d1, waitForHydration } from './pages'

// The header's search panel answers with the results page's own search: a designer's name lists
// their pieces, a misspelt query says what it was read as, and the keyboard moves through results.

async function openPanel(page: Page) {
  await page.goto('/')
  await waitForHydration(page)
  await page.getByTestId('search-button').click()
  return page.getByTestId('search-input')
}

test('typing a designer’s name lists that designer’s products', async ({ page }) => {
  const [designer] = d1<{ id: number; name: string }>(
    `SELECT json_extract(doc, '$.designer') AS id, json_extract(doc, '$.designer_name') AS name
       FROM products WHERE json_extract(doc, '$.designer_name') IS NOT NULL
        AND json_extract(doc, '$.status') < 2 LIMIT 1`,
  )
  expect(designer).toBeDefined()
  const theirs = new Set(
    d1<{ sku: string }>(
      `SELECT sku FROM products WHERE json_extract(doc, '$.designer') = ${Number(designer?.id)}`,
    ).map((r) => r.sku),
  )
  const input = await openPanel(page)
  await input.fill(designer?.name.toLowerCase() ?? '')
  await expect(page.getByTestId('search-designer')).toContainText(designer?.name ?? '')
  const links = page.getByTestId('search-results').locator('a.search-result')
  await expect(links.first()).toBeVisible()
  const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? ''))
  expect(hrefs.length).toBeGreaterThan(0)
  for (const href of hrefs) {
    const parentSku = decodeURIComponent(href.split('/')[2] ?? '')
    expect(theirs.has(parentSku), href).toBe(true)
  }
  // "See all" leads to the designer's listing.
  await page.getByTestId('search-all').click()
  await expect(page).toHaveURL(new RegExp(`/search\\?designer=${designer?.id}$`))
  await expect(page.getByRole('heading', { level: 1, name: designer?.name })).toBeVisible()
})

test('a misspelt query shows “Showing results for” with the corrected words', async ({ page }) => {
  const input = await openPanel(page)
  await input.fill('banarasi sareee')
  await expect(page.getByTestId('search-correction')).toHaveText(msgShowingResultsFor('banarasi saree'))
  await expect(page.getByTestId('search-results').getByRole('link').first()).toBeVisible()
  // Spelt right, there is nothing to correct.
  await input.fill('banarasi saree')
  await expect(page.getByTestId('search-results')).toBeVisible()
  await expect(page.getByTestId('search-correction')).toHaveCount(0)
})

test('arrow keys move through the results, Enter opens one, Escape closes the panel', async ({ page }) => {
  const input = await openPanel(page)
  await input.fill('saree')
  const links = page.getByTestId('search-results').locator('a.search-result')
  await expect(links.nth(1)).toBeVisible()
  await input.press('ArrowDown')
  await expect(links.nth(0)).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(links.nth(1)).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(links.nth(0)).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(input).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('search-panel')).toBeHidden()

  await page.getByTestId('search-button').click()
  await page.getByTestId('search-input').fill('saree')
  await expect(links.first()).toBeVisible()
  const href = (await links.first().getAttribute('href')) ?? ''
  await page.getByTestId('search-input').press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL((url) => url.pathname === href)
})
