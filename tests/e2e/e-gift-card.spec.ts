/**
 * An e-gift card for someone else, as a shopper meets it: the recipient, a message and a send date
 * on the card's page (a detail that could not be delivered is refused in words), the details on
 * the bag's line; and a code redeemed from the account's store credit screen, once: another
 * shopper typing the same code is told it is not known. The account's home shows the credit.
 */
import { expect, type Page, test } from '@playwright/test'
import { issueCard } from './gift-cards'
import { d1, logInThroughModal, waitForHydration } from './pages'

async function newShopper(page: Page, name: string) {
  const email = `${name}-${Date.now()}-${Math.random().toString(16).slice(2, 6)}@example.com`
  const password = 'a long enough password 42'
  const created = await page.request.post('/api/user/create', {
    data: { customer: { email, firstname: name, lastname: 'Rao' }, password },
  })
  expect(created.status(), await created.text()).toBe(200)
  await logInThroughModal(page, email, password)
}

test('an e-gift card names its recipient, message and day; the bag line shows them', async ({ page }) => {
  const [card] = d1<{ url_path: string }>(
    "SELECT url_path FROM products WHERE type_id = 'virtual' AND name LIKE 'E-Gift Card%' ORDER BY price LIMIT 1",
  )
  if (!card) throw new Error('no e-gift card in the demo catalogue')
  await page.goto(`/${card.url_path}`)
  await waitForHydration(page)
  const inWeek = new Date(Date.now() + 5.5 * 3_600_000 + 7 * 86_400_000).toISOString().slice(0, 10)
  await page.getByLabel("Recipient's name").fill('Meera')
  await page.getByLabel("Recipient's e-mail").fill('meera.example.com')
  await page.getByLabel('Your message').fill('Happy birthday, Meera!')
  await page.getByLabel('Send on').fill(inWeek.split('-').reverse().join('-'))
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText(/Please check the recipient's e-mail/)).toBeVisible()
  await page.getByLabel("Recipient's e-mail").fill('meera@example.com')
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  // IndexedDB holds the bag before the cart page opens (no write kept in localStorage any more):
  // the cart page reads it as a later visit would, and may mount before the read ends.
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes(':cart:')).length))
    .toBe(0)
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByText('Meera', { exact: false }).first()).toBeVisible()
  await expect(page.getByText('meera@example.com')).toBeVisible()
})

test('what a shopper types while the form is still loading its parts is kept', async ({ page }) => {
  const [card] = d1<{ url_path: string }>(
    "SELECT url_path FROM products WHERE type_id = 'virtual' AND name LIKE 'E-Gift Card%' ORDER BY price LIMIT 1",
  )
  if (!card) throw new Error('no e-gift card in the demo catalogue')
  // A slow network: the custom options' code arrives 1.5 s after the page asked for it.
  await page.route('**/chunks/custom-options-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    await route.continue()
  })
  await page.goto(`/${card.url_path}`)
  await waitForHydration(page)
  await page.getByLabel("Recipient's name").fill('Kavya')
  await page.getByLabel("Recipient's e-mail").fill('kavya@example.com')
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByText('kavya@example.com')).toBeVisible()
})

test('a gift card code is redeemed to store credit in the account, once; another shopper is told it is not known', async ({
  page,
  browser,
  request,
}) => {
  const code = (await issueCard(request, 200_000)).replace(/(.{4})(?=.)/g, '$1-')
  await newShopper(page, 'Asha')
  await page.goto('/my-account/credit-details')
  await waitForHydration(page)
  await expect(page.getByTestId('credit-balance')).toHaveText('₹0')
  await page.getByLabel('Gift card code').fill(code.toLowerCase())
  await page.getByRole('button', { name: 'Redeem' }).click()
  await expect(page.getByText("The gift card's value was added to your store credit.")).toBeVisible()
  await expect(page.getByTestId('credit-balance')).toHaveText('₹2,000')
  await expect(page.getByText(`Gift card …${code.slice(-4)} redeemed`)).toBeVisible()
  await page.setViewportSize({ width: 390, height: 800 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

  // The account's home: the credit, the orders (none) and the message choices, in words.
  await page.goto('/my-account')
  await waitForHydration(page)
  await expect(page.getByTestId('home-credit')).toHaveText('₹2,000')
  await expect(page.getByText('You have no orders yet.')).toBeVisible()
  await expect(page.getByTestId('home-messages')).toContainText('Order updates by e-mail only')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

  const other = await browser.newPage()
  await newShopper(other, 'Kabir')
  await other.goto('/my-account/credit-details')
  await waitForHydration(other)
  await other.getByLabel('Gift card code').fill(code)
  await other.getByRole('button', { name: 'Redeem' }).click()
  await expect(
    other.getByText('This gift card code is not known. Please check it and try again.'),
  ).toBeVisible()
  await expect(other.getByTestId('credit-balance')).toHaveText('₹0')
  await other.close()
})
