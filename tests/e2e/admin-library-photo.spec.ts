/**
 * A product's picture picked from the media library, in a real browser: an operator uploads a
 * picture to the library, creates a product whose description is written as blocks (previewed
 * before saving), picks that library picture for the product with alt text of its own, and the
 * shop's product page shows the picture with that alt text and the description.
 */
import { expect, test } from '@playwright/test'
import { SAMPLE_JPEG } from '../helpers/images'
import { createTestOperator, d1, signInOperator, waitForHydration } from './pages'

test.beforeAll(() => createTestOperator())

test('an operator picks a media-library picture for a product; the product page shows it with its alt', async ({
  page,
}) => {
  const stamp = Date.now().toString(36).toUpperCase()
  const sku = `LIB${stamp}`
  const name = `Ikat Stole ${stamp}`
  const libraryAlt = `Ikat loom ${stamp}`
  const productAlt = `Ikat stole folded, close view ${stamp}`
  const [category] = d1<{ id: number }>("SELECT id FROM categories WHERE url_path = 'women/kurtas'")
  expect(category).toBeDefined()
  await signInOperator(page)

  // The picture goes into the media library first (a file of its own: a new entry).
  await page.goto('/admin/media')
  await page.getByLabel('Picture', { exact: true }).setInputFiles({
    name: 'ikat.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.concat([Buffer.from(SAMPLE_JPEG), Buffer.from(stamp)]),
  })
  await page.getByLabel('Alt text (what the picture shows)').fill(libraryAlt)
  await page.getByRole('button', { name: 'Upload' }).click()
  await expect(page.getByRole('textbox', { name: 'Alt text', exact: true }).first()).toHaveValue(libraryAlt)

  // A published simple product, its description written as a block and previewed first.
  await page.goto('/admin/products/new?type=simple')
  const form = page.locator('form[action="/admin/api/products/authoring"]')
  await form.getByLabel('SKU', { exact: true }).fill(sku)
  await form.getByLabel('Name', { exact: true }).fill(name)
  await form.locator('select[name="category_id"]').selectOption(String(category?.id))
  await form.getByLabel('Price (₹)').fill('₹ 4,250')
  await form.getByLabel('Stock', { exact: true }).fill('3')
  await form.getByRole('combobox', { name: 'Type', exact: true }).selectOption('text')
  await form.getByRole('button', { name: 'Add block' }).click()
  // The draft came back with everything typed kept.
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue(name)
  await form
    .getByRole('textbox', { name: 'Text (a blank line starts a new paragraph)' })
    .fill(`Woven in Pochampally ${stamp}.`)
  await form.getByRole('button', { name: 'Preview description' }).click()
  await expect(
    page
      .getByRole('region', { name: 'Preview of the description' })
      .getByText(`Woven in Pochampally ${stamp}.`),
  ).toBeVisible()
  await form.locator('select[name="status"]').selectOption('published')
  await form.getByRole('button', { name: 'Create product' }).click()
  await expect(page).toHaveURL(/\/admin\/products\/\d+\/edit$/)
  await expect(page.getByLabel('Price (₹)')).toHaveValue('₹4,250.00')

  // The library's picture, picked for the product with alt text of its own.
  const option = page.locator('select[name="path"] option', { hasText: libraryAlt })
  const path = await option.getAttribute('value')
  expect(path).toMatch(/^\/m\/[0-9a-f]+\.jpg$/)
  await page.getByLabel('Or pick a picture of the media library').selectOption(path as string)
  await page.getByLabel("Alt text for this product (empty: the library's)").fill(productAlt)
  await page.getByRole('button', { name: 'Add from the media library' }).click()
  await expect(page.getByRole('img', { name: productAlt })).toBeVisible()

  // The shopper's product page shows that picture with that alt, and the description.
  await page.locator('p', { hasText: 'Published at' }).getByRole('link').click()
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name })).toBeVisible()
  const photo = page.getByRole('img', { name: productAlt }).first()
  await expect(photo).toBeVisible()
  expect(await photo.getAttribute('src')).toContain(path as string)
  await expect(page.getByText(`Woven in Pochampally ${stamp}.`)).toBeVisible()
})
