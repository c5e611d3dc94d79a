/**
 * A product's photographs put in order in a real browser: an operator creates a product, uploads
 * three photographs, moves the third up, makes the (new) third the main picture, and the shop's
 * product page shows the photographs in that order, the main one first.
 */
import { expect, test } from '@playwright/test'
import { SAMPLE_JPEG } from '../helpers/images'
import { createTestOperator, d1, signInOperator, waitForHydration } from './pages'

test.beforeAll(() => createTestOperator())

test("an operator reorders a product's photographs and picks its main one; the product page follows", async ({
  page,
}) => {
  const stamp = Date.now().toString(36).toUpperCase()
  const name = `Kalamkari Stole ${stamp}`
  const [category] = d1<{ id: number }>("SELECT id FROM categories WHERE url_path = 'women/kurtas'")
  expect(category).toBeDefined()
  await signInOperator(page)

  await page.goto('/admin/products/new?type=simple')
  const form = page.locator('form[action="/admin/api/products/authoring"]')
  await form.getByLabel('SKU', { exact: true }).fill(`ORD${stamp}`)
  await form.getByLabel('Name', { exact: true }).fill(name)
  await form.locator('select[name="category_id"]').selectOption(String(category?.id))
  await form.getByLabel('Price (₹)').fill('3,100')
  await form.getByLabel('Stock', { exact: true }).fill('2')
  await form.locator('select[name="status"]').selectOption('published')
  await form.getByRole('button', { name: 'Create product' }).click()
  await expect(page).toHaveURL(/\/admin\/products\/\d+\/edit$/)

  const alts = ['front', 'back', 'detail'].map((view) => `${name}, ${view}`)
  for (const [k, alt] of alts.entries()) {
    await page.getByLabel('Photograph (JPEG, PNG or WebP, at most 8 MB)').setInputFiles({
      name: `stole-${k}.jpg`,
      mimeType: 'image/jpeg',
      buffer: Buffer.concat([Buffer.from(SAMPLE_JPEG), Buffer.from(`${stamp}${k}`)]),
    })
    await page.getByLabel('Alt text (what the photograph shows)').fill(alt)
    await page.getByRole('button', { name: 'Upload photograph' }).click()
    await expect(page.getByRole('img', { name: alt })).toBeVisible()
  }
  const [front, back, detail] = alts as [string, string, string]
  /** The photographs' alt texts in the edit page's order. */
  const listed = () =>
    page
      .getByRole('region', { name: 'Photographs' })
      .locator('img')
      .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))

  // The detail moves up one place, then the back (now third) becomes the main picture.
  await page.getByRole('button', { name: 'Move photograph 3 up' }).click()
  await expect.poll(listed).toEqual([front, detail, back])
  await page.getByRole('button', { name: 'Make photograph 3 the main picture' }).click()
  await expect.poll(listed).toEqual([back, front, detail])

  // The shop's product page shows them in that order, the main picture first.
  await page.locator('p', { hasText: 'Published at' }).getByRole('link').click()
  await waitForHydration(page)
  await expect(page.getByRole('heading', { name })).toBeVisible()
  await expect(page.getByTestId('gallery-main')).toHaveAttribute('alt', back)
  const gallery = JSON.parse(
    (await page.locator('script[data-island-props="product-gallery"]').textContent()) as string,
  ) as { images: { alt: string }[] }
  expect(gallery.images.map((i) => i.alt)).toEqual([back, front, detail])
})
