/**
 * A review with a photograph and a fit answer, from the product page's form to the page itself: the
 * shopper attaches a photograph and says the piece runs small; the operator sees the photograph on
 * the reviews screen and approves; the product page then shows the photograph, the answer and the
 * fit summary beside the size picker.
 */
import { expect, test } from '@playwright/test'
import { pickProduct } from './checkout-fixtures'
import { createTestOperator, signInOperator, waitForHydration } from './pages'

test.beforeAll(() => createTestOperator())

test('a review with a photograph and a fit, approved, shows with the fit summary', async ({
  page,
  request,
}) => {
  const product = await pickProduct(request, 0)
  await page.goto(product.url)
  await waitForHydration(page)
  // The form loads when its place comes near the screen, not while the page starts.
  await page.waitForLoadState('networkidle')
  await expect(page.getByTestId('review-form')).toHaveCount(0)
  await page.locator('#product-reviews-form').scrollIntoViewIfNeeded()
  const form = page.getByTestId('review-form')
  const title = `Runs a little small ${Date.now()}`
  await form.getByLabel('First name').fill('Kavya')
  await form.getByLabel('Summary').fill(title)
  await form.getByLabel('Review').fill('Beautiful work; order one size up.')
  await form.getByRole('radio', { name: '5 stars' }).check()
  await form.getByRole('radio', { name: 'Runs small' }).check()
  // A real photograph-sized JPEG, drawn by the browser (2400 px wide: the form shrinks it before upload).
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas')
    canvas.width = 2400
    canvas.height = 3000
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D
    const gradient = ctx.createLinearGradient(0, 0, 2400, 3000)
    gradient.addColorStop(0, '#8c2f39')
    gradient.addColorStop(1, '#e6c07b')
    ctx.fillStyle = gradient
    ctx.fillRect(0, 0, 2400, 3000)
    return canvas.toDataURL('image/jpeg', 0.95)
  })
  await form.getByLabel(/Photographs/).setInputFiles({
    name: 'wearing-it.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from(dataUrl.split(',')[1] as string, 'base64'),
  })
  await expect(form.getByText('1 of 3 chosen.', { exact: false })).toBeVisible()
  await form.getByRole('button', { name: 'Add review' }).click()
  await expect(page.getByText('You submitted your review for moderation.').first()).toBeVisible()
  // Not shown before approval.
  await page.reload()
  await expect(page.getByText(title)).toHaveCount(0)

  await signInOperator(page)
  await page.goto('/admin/reviews')
  const card = page.getByRole('article').filter({ hasText: title })
  await expect(card.getByText('Fit: Runs small')).toBeVisible()
  const photo = card.getByRole('img', { name: /Photograph 1 of 1 sent with review/ })
  await photo.scrollIntoViewIfNeeded()
  // The picture really loads for the operator, shrunk in the browser to 1600 px on its longest edge.
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(1600)
  await card.getByRole('button', { name: `Approve review ${title}` }).click()
  await expect(page.getByRole('button', { name: `Approve review ${title}` })).toHaveCount(0)

  await page.goto(product.url)
  const review = page.getByRole('listitem').filter({ hasText: title })
  await expect(review.getByTestId('review-fit')).toHaveText('Fit: Runs small')
  const shown = review.getByRole('img', { name: 'Photograph 1 from Kavya' })
  await shown.scrollIntoViewIfNeeded()
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  const summary = page.getByTestId('fit-summary')
  await expect(summary).toContainText('runs small')
  // Beside the size picker: the summary comes right before the product form, in the info column.
  await expect(page.locator('.product-page__info [data-testid="fit-summary"]')).toBeVisible()
})
