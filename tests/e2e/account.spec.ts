/**
 * Account journeys (issue 7 "What must be shown"): register at checkout, log out, log in, see the
 * order in history; an expired (tampered) access token is refreshed transparently during a profile
 * update; the access rule sends a visitor home and back after login.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { pickProduct } from './checkout-fixtures'
import { waitForHydration } from './pages'

test.describe.configure({ mode: 'serial' })

const PASSWORD = 'Sup3rSecret!'
const email = `shopper-${Date.now()}@example.com`

/** Runs in the page: flips a character of the access token in D's IndexedDB ('<store>-shop', '<store>-user'). */
async function tamperStoredAccessToken(): Promise<boolean> {
  const store = document.documentElement.dataset.store ?? 'default'
  const flip = (t: string) => `${t.slice(0, -3)}${t.endsWith('A') ? 'B' : 'A'}${t.slice(-2)}`
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(`${store}-shop`)
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
  const name = `${store}-user`
  if (!db.objectStoreNames.contains(name)) return false
  const tx = db.transaction(name, 'readwrite')
  const os = tx.objectStore(name)
  const token = await new Promise<unknown>((resolve) => {
    const r = os.get('current-token')
    r.onsuccess = () => resolve(r.result)
  })
  if (typeof token !== 'string' || token.length < 10) return false
  os.put(flip(token), 'current-token')
  await new Promise((resolve) => {
    tx.oncomplete = resolve
  })
  db.close()
  return true
}

async function checkoutAsNewCustomer(page: Page, request: APIRequestContext) {
  const product = await pickProduct(request)
  const variant = product.variants[0]
  await page.goto(product.url)
  await waitForHydration(page)
  for (const [label, value] of variant?.options ?? []) {
    await page.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  }
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText('Product has been added to the cart!').last()).toBeVisible()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await form.getByLabel('First name').fill('Meera')
  await form.getByLabel('Last name').fill('Iyer')
  await form.getByLabel('Email address').fill(email)
  await form.getByLabel('I want to create an account').check()
  await form.getByLabel('Password').fill(PASSWORD)
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
  await form.getByLabel('First name').fill('Meera')
  await form.getByLabel('Last name').fill('Iyer')
  await form.getByLabel('Street address').fill('4 Park Street')
  await form.getByLabel('City').fill('Kolkata')
  await form.getByLabel('Zip / Postal code').fill('700016')
  await form.getByLabel('Phone number').fill('+91 98300 00000')
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  await form.getByLabel('Cash On Delivery').check()
  await form.getByLabel('I accept the terms and conditions').check()
  await form.getByRole('button', { name: 'Review order' }).click()
  await page.getByTestId('place-order').click()
  await page.waitForURL(/\/confirmation\?orderId=/)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
  return (await page.getByTestId('order-number').textContent())?.trim() ?? ''
}

test('register at checkout, log out, log in again and find the order in the history', async ({
  page,
  request,
}) => {
  const orderNumber = await checkoutAsNewCustomer(page, request)
  expect(orderNumber).not.toBe('')

  await page.goto('/my-account/orders')
  await waitForHydration(page)
  await expect(page.getByTestId('order-history')).toContainText(orderNumber)

  await page.getByTestId('logout').click()
  await expect(page.getByText("You're logged out").first()).toBeVisible()

  // The access rule: not logged in → home, the path remembered, the login modal asks, back after login.
  await page.goto('/my-account/orders')
  await page.waitForURL((u) => u.pathname === '/')
  await waitForHydration(page)
  const modal = page.getByTestId('auth-modal')
  await expect(modal).toBeVisible()
  await modal.getByLabel('Email address').fill(email)
  await modal.getByLabel('Password').fill(PASSWORD)
  await modal.getByRole('button', { name: 'Log in' }).click()
  await page.waitForURL(/\/my-account\/orders$/)
  await waitForHydration(page)
  await expect(page.getByTestId('order-history')).toContainText(orderNumber)
})

test('an expired access token is refreshed transparently during a profile update', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  await page.evaluate(() => window.dispatchEvent(new CustomEvent('auth:open', { detail: { mode: 'login' } })))
  const modal = page.getByTestId('auth-modal')
  await modal.getByLabel('Email address').fill(email)
  await modal.getByLabel('Password').fill(PASSWORD)
  await modal.getByRole('button', { name: 'Log in' }).click()
  await expect(modal).toBeHidden({ timeout: 30_000 })

  // Replace the stored access token with one the server rejects (its signature no longer matches):
  // the next page starts the session from it, gets a 401 and must refresh without bothering anyone.
  const tampered = await page.evaluate(tamperStoredAccessToken)
  expect(tampered).toBe(true)

  await page.goto('/my-account/personal-details')
  await waitForHydration(page)
  await page.getByLabel('First name').fill('Meenakshi')
  await page.getByRole('button', { name: 'Update my profile' }).click()
  await expect(page.getByText('Account data has successfully been updated').first()).toBeVisible()
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByLabel('First name')).toHaveValue('Meenakshi')
})

test('a review is submitted for moderation from the product page', async ({ page, request }) => {
  await page.goto((await pickProduct(request, 0)).url)
  await waitForHydration(page)
  const form = page.getByTestId('review-form')
  await form.getByLabel('First name').fill('Asha')
  await form.getByLabel('Summary').fill('Lovely drape')
  await form.getByLabel('Review').fill('Soft organza, the colour is exactly as shown.')
  await form.getByRole('button', { name: 'Add review' }).click()
  await expect(page.getByText('Adding a review ...').first()).toBeVisible()
  await expect(page.getByText('You submitted your review for moderation.').first()).toBeVisible()
})
