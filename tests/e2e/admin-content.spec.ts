/**
 * Content in a real browser: an operator creates a CMS page, writes it as blocks (a heading and
 * text) with a preview, uploads a picture to the media library, and links the page from the home
 * page's hero with that picture; the shopper finds the banner on the home page and opens the page.
 */
import { expect, test } from '@playwright/test'
import { SAMPLE_JPEG } from '../helpers/images'
import { createTestOperator, signInOperator, waitForHydration } from './pages'

test.beforeAll(() => createTestOperator())

test('an operator creates a CMS page and links it from a home section; the shop shows it', async ({
  page,
}) => {
  const stamp = Date.now().toString(36)
  const identifier = `atelier-${stamp}`
  const heading = `Inside the atelier ${stamp}`
  await signInOperator(page)

  await page.goto('/admin/content')
  const create = page.locator('details').filter({ hasText: 'New page' })
  await create.getByText('New page').click()
  await create.getByLabel('Identifier (its address: /identifier)').fill(identifier)
  await create.getByLabel('Title').fill('Inside the atelier')
  await create.getByRole('button', { name: 'Create page' }).click()
  await expect(page.getByRole('heading', { name: `Edit page ${identifier}` })).toBeVisible()

  // Blocks, not HTML: a heading, then text; the preview shows them before anything is published.
  await page.getByRole('combobox', { name: 'Type' }).selectOption('heading')
  await page.getByRole('button', { name: 'Add block' }).click()
  await page.getByRole('textbox', { name: 'Heading' }).fill(heading)
  await page.getByRole('combobox', { name: 'Type' }).selectOption('text')
  await page.getByRole('button', { name: 'Add block' }).click()
  await page
    .getByRole('textbox', { name: 'Text (a blank line starts a new paragraph)' })
    .fill('Every saree is woven by hand.')
  await page.getByRole('button', { name: 'Preview', exact: true }).click()
  const preview = page.getByRole('region', { name: 'Preview' })
  await expect(preview.getByRole('heading', { name: heading })).toBeVisible()
  await expect(page.getByText('This is a draft')).toBeVisible()
  await page.getByRole('button', { name: 'Publish' }).click()
  await expect(page.getByText('This is a draft')).toHaveCount(0)
  await expect(preview.getByText('Every saree is woven by hand.')).toBeVisible()

  // A picture for the banner, from the media library.
  await page.goto('/admin/media')
  await page.getByLabel('Picture', { exact: true }).setInputFiles({
    name: 'atelier.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from(SAMPLE_JPEG),
  })
  await page.getByLabel('Alt text (what the picture shows)').fill(`Looms at work ${stamp}`)
  await page.getByRole('button', { name: 'Upload' }).click()
  await expect(page.getByRole('textbox', { name: 'Alt text', exact: true }).first()).toHaveValue(
    `Looms at work ${stamp}`,
  )

  // The home page's hero links the page, its picture and its link picked from lists.
  await page.goto('/admin/home')
  const banners = page.getByRole('region', { name: 'Hero banners' })
  await banners
    .getByRole('combobox', { name: 'Picture from the media library' })
    .selectOption({ label: `Looms at work ${stamp}` })
  await banners.getByLabel('Words on the banner').fill(`Visit the atelier ${stamp}`)
  await banners.getByRole('combobox', { name: 'Opens' }).selectOption(`/${identifier}`)
  await banners.getByRole('button', { name: 'Add banner' }).click()
  await expect(banners.getByRole('cell', { name: `Visit the atelier ${stamp}`, exact: true })).toBeVisible()

  // The shopper: the banner is on the home page and opens the page.
  await page.goto('/')
  await waitForHydration(page)
  await page.getByRole('button', { name: new RegExp(`: Visit the atelier ${stamp}$`) }).click()
  await page.getByRole('link', { name: `Visit the atelier ${stamp}` }).click()
  await expect(page).toHaveURL(new RegExp(`/${identifier}$`))
  await expect(page.getByRole('heading', { name: heading })).toBeVisible()
  await expect(page.getByText('Every saree is woven by hand.')).toBeVisible()
})
