/**
 * A new kurta from the back office to a shopper's order, in a real browser: an operator creates a
 * configurable kurta in three colours × five sizes, uploads its photographs and publishes it; a
 * shopper finds it by search, filters its category by one colour and one size and sees it there,
 * opens it, picks a size and pays for it in the TEST payment window.
 */
import { expect, test } from '@playwright/test'
import { SAMPLE_JPEG } from '../helpers/images'
import { checkOutOnline, ordersFromOwnAddresses } from './checkout-fixtures'
import { createTestOperator, d1, signInOperator, waitForHydration } from './pages'

interface Option {
  id: number
  label: string
}

/** The colour or size options an operator ticks, in the form's order. */
const options = (code: string) =>
  d1<Option>(
    `SELECT CAST(json_extract(o.value, '$.value') AS INTEGER) AS id, json_extract(o.value, '$.label') AS label
       FROM attributes, json_each(attributes.doc, '$.options') AS o
      WHERE attribute_code = '${code}' ORDER BY o.key`,
  ).filter((o) => Number.isSafeInteger(o.id))

test.beforeAll(() => createTestOperator())

test('an operator publishes a kurta in 3 colours × 5 sizes and a shopper buys one size', async ({
  page,
  context,
}) => {
  // A product created, two photographs, a search, a filtered listing and a paid order.
  test.setTimeout(150_000)
  const stamp = Date.now().toString(36).toUpperCase()
  const sku = `KRT${stamp}`
  const name = `Zardozi Kurta ${stamp}`
  const colours = options('color').slice(0, 3)
  const sizes = options('size').slice(0, 5)
  expect([colours.length, sizes.length]).toEqual([3, 5])
  const [category] = d1<{ id: number; url_path: string }>(
    "SELECT id, url_path FROM categories WHERE url_path = 'women/kurtas'",
  )
  expect(category).toBeDefined()

  // The operator creates the kurta as a draft.
  await signInOperator(page)
  await page.goto('/admin/products/new?type=configurable')
  const form = page.locator('form[action="/admin/api/products/authoring"]')
  await form.getByLabel('SKU', { exact: true }).fill(sku)
  await form.getByLabel('Name', { exact: true }).fill(name)
  await form.getByLabel("Designer's name as shown (blank: the designer picked below)").fill('Meera Rao')
  await form.locator('select[name="category_id"]').selectOption(String(category?.id))
  await form.getByLabel('Price (₹)').fill('3,200')
  await form.getByLabel('Stock of each new variant').fill('4')
  for (const c of colours) await form.locator(`input[name="colour_${c.id}"]`).check()
  for (const s of sizes) await form.locator(`input[name="size_${s.id}"]`).check()
  await form.getByRole('button', { name: 'Create product' }).click()
  await expect(page).toHaveURL(/\/admin\/products\/\d+\/edit$/)
  await expect(page.getByText('Draft: not on the shop until published.')).toBeVisible()
  await expect(page.locator(`input[name^="v_"][name$="_sku"]`)).toHaveCount(15)

  // Two photographs, each with its alt text (the second a different file).
  for (const [k, alt] of ['front', 'back'].entries()) {
    await page.getByLabel('Photograph (JPEG, PNG or WebP, at most 8 MB)').setInputFiles({
      name: `kurta-${alt}.jpg`,
      mimeType: 'image/jpeg',
      buffer: Buffer.concat([Buffer.from(SAMPLE_JPEG), Buffer.from([k])]),
    })
    await page.getByLabel('Alt text (what the photograph shows)').fill(`${name}, ${alt}`)
    await page.getByRole('button', { name: 'Upload photograph' }).click()
    await expect(page.getByRole('img', { name: `${name}, ${alt}` })).toBeVisible()
  }

  // Published, the kurta is on the shop at once.
  await page.locator('select[name="status"]').selectOption('published')
  await page.getByRole('button', { name: 'Save product' }).click()
  await expect(page.getByText('Published at')).toBeVisible()

  // A shopper finds it by search.
  await ordersFromOwnAddresses(context)
  await page.goto('/')
  await waitForHydration(page)
  await page.getByTestId('search-button').click()
  await page.getByTestId('search-input').fill(sku.toLowerCase())
  await expect(page.getByTestId('search-results').locator('a.search-result', { hasText: name })).toBeVisible()

  // The category filtered by one colour and one size lists it.
  const [colour, size] = [colours[1] as Option, sizes[2] as Option]
  await page.goto(`/${category?.url_path}`)
  await waitForHydration(page)
  await page.locator(`[data-testid="filter-option"][data-attr="color"][data-id="${colour.id}"]`).click()
  await expect(page).toHaveURL(new RegExp(`[?&]color=${colour.id}(&|$)`))
  await page.locator(`[data-testid="filter-option"][data-attr="size"][data-id="${size.id}"]`).click()
  await expect(page).toHaveURL(new RegExp(`[?&]size=${size.id}(&|$)`))
  await expect(page.locator('.product-grid--loading')).toHaveCount(0)
  const tile = page.locator(`[data-testid="listing"] [data-testid="product-tile"][data-sku="${sku}"]`)
  await expect(tile).toBeVisible()

  // It opens on the chosen colour; the shopper picks a size and pays.
  await tile.locator('a.tile__link').click()
  await expect(page).toHaveURL(/\/p\//)
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await expect(page.getByRole('img', { name: `${name}, front` }).first()).toBeVisible()
  await page.getByTestId(`option-color-${colour.id}`).click()
  await page.getByTestId(`option-size-${size.id}`).click()
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText('Product has been added to the cart!').last()).toBeVisible()
  await checkOutOnline(page, `kurta-${stamp.toLowerCase()}@example.com`, 'Succeed')

  // The order holds that size, paid; its stock went down by one.
  const variant = `${sku}-${colour.label.toUpperCase().replace(/[^A-Z0-9]+/g, '')}-${size.label.toUpperCase().replace(/[^A-Z0-9]+/g, '')}`
  await expect
    .poll(() => d1<{ qty: number }>(`SELECT qty FROM inventory WHERE sku = '${variant}'`)[0]?.qty)
    .toBe(3)
})
