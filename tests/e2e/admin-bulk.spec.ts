/**
 * Bulk prices in a real browser: an operator uploads a CSV file raising ten prices, reads the dry
 * run in rupees, applies it with a second click, and a shopper sees the ten new prices on the
 * product pages at once. The file of the old prices, pasted back, puts them back the same way.
 */
import { expect, test } from '@playwright/test'
import { formatMinorIndian, formatUnitPrice } from '../../shared/domain/currency'
import { createTestOperator, d1, signInOperator } from './pages'

interface Row {
  sku: string
  slug: string
  price: number
}

test.beforeAll(() => createTestOperator())

/** Runs a file through the bulk screen: dry run, then apply; answers the dry run's text. */
async function applyFile(page: import('@playwright/test').Page, file: { csv: string; upload: boolean }) {
  await page.goto('/admin/products/bulk')
  if (file.upload)
    await page.getByLabel('CSV file').setInputFiles({
      name: 'prices.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file.csv),
    })
  else await page.getByLabel('or paste its rows').fill(file.csv)
  await page.getByRole('button', { name: 'Dry run: show what changes' }).first().click()
  await expect(page.getByRole('heading', { name: 'Dry run: nothing is changed yet' })).toBeVisible()
  const shown = (await page.locator('main').textContent()) ?? ''
  await page.getByText('Apply these changes to 10 products…').click()
  await page.getByRole('button', { name: 'Apply the file' }).click()
  await expect(page).toHaveURL(/\/admin\/products\/bulk\?applied=10$/)
  await expect(page.getByText('10 products changed; the shop shows the change now.')).toBeVisible()
  return shown
}

test('a bulk CSV raises ten prices and the shop shows them', async ({ page }) => {
  // Two files through the back office and eleven product pages: longer than one journey.
  test.setTimeout(120_000)
  // Ten products no other scenario of this shop buys (the newest), shown at their own price.
  const ten = d1<Row>(
    `SELECT sku, slug, price FROM products WHERE type_id = 'simple' AND status = 1 AND visibility = 4
       AND json_extract(doc, '$.special_price') IS NULL AND price >= 100 ORDER BY id DESC LIMIT 10`,
  )
  expect(ten).toHaveLength(10)
  const raised = (p: Row) => p.price + 500
  const file = (price: (p: Row) => number) =>
    `sku,price\n${ten.map((p) => `${p.sku},"${price(p).toLocaleString('en-IN')}"`).join('\n')}\n`
  await signInOperator(page)
  const dryRun = await applyFile(page, { csv: file(raised), upload: true })
  expect(dryRun).toContain('10 products change (the file).')
  for (const p of ten)
    expect(dryRun).toContain(
      `Price ${formatMinorIndian(Math.round(p.price * 100), 'INR')} → ${formatMinorIndian(Math.round(raised(p) * 100), 'INR')}`,
    )
  // One product page in the browser; the ten as the shop serves them (the same server-rendered page).
  await page.goto(`/p/${encodeURIComponent(ten[0]?.sku as string)}/${ten[0]?.slug}`)
  await expect(page.getByTestId('price-final')).toHaveText(formatUnitPrice(raised(ten[0] as Row), 'INR'))
  for (const p of ten) {
    const html = await (await page.request.get(`/p/${encodeURIComponent(p.sku)}/${p.slug}`)).text()
    expect(/data-testid="price-final">([^<]+)</.exec(html)?.[1], p.sku).toBe(
      formatUnitPrice(raised(p), 'INR'),
    )
  }
  // The old prices back, pasted this time (other scenarios of this shop read these products).
  await applyFile(page, { csv: file((p) => p.price), upload: false })
  await page.goto(`/p/${encodeURIComponent(ten[0]?.sku as string)}/${ten[0]?.slug}`)
  await expect(page.getByTestId('price-final')).toHaveText(formatUnitPrice(ten[0]?.price as number, 'INR'))
})
