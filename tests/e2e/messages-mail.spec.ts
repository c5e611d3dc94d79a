/**
 * Order mails in a browser: a shopper's cash-on-delivery order reaches the local mail stand-in
 * that `npm start` runs (port + 400), and its TEST page shows the mail's HTML part as a mail
 * client would: the order's number, its total as the order has it, and the line's picture as an
 * absolute URL of the shop's image route.
 */
import { expect, test } from '@playwright/test'
import { openStandInTestPage, ordersFromOwnAddresses, placeCodOrderInBrowser } from './checkout-fixtures'
import { d1, sqlText } from './pages'

test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

test('the order mail at the mail stand-in shows the order, its total and its pictures', async ({
  page,
  request,
  baseURL,
}) => {
  const { number, email } = await placeCodOrderInBrowser(page, request, { prefix: 'mail' })
  const order = d1<{ grand_total_minor: number }>(
    `SELECT grand_total_minor FROM orders WHERE increment_id = ${sqlText(number)}`,
  )[0]
  const total = `₹${((order?.grand_total_minor ?? 0) / 100).toLocaleString('en-IN')}`

  const subject = page.getByRole('link', { name: `We have received your order ${number}` })
  await openStandInTestPage(page, baseURL, 'mail', subject)
  await expect(page.locator('section', { has: subject }).getByRole('heading')).toHaveText(email)
  await subject.click()
  const mail = page.frameLocator('iframe[title="HTML part"]')
  await expect(mail.getByRole('heading', { name: new RegExp(`^Order ${number} — `) })).toBeVisible()
  await expect(mail.getByText(total, { exact: true }).last()).toBeVisible()
  const picture = mail.locator('img').first()
  await expect(picture).toHaveAttribute('src', /^https?:\/\/[^/]+\/img\/150\/150\//)
  // The picture is the shop's own image, served to anyone who opens the mail.
  const image = await request.get((await picture.getAttribute('src')) as string)
  expect(image.status()).toBe(200)
  expect(image.headers()['content-type']).toMatch(/^image\//)
  await expect(page.locator('pre')).toContainText(`Total: ${total}`)
})
