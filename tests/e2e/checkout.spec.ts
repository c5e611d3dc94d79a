/**
 * Guest checkout journeys (issue 6 "What must be shown"): two variants, a quantity change, a coupon,
 * cash on delivery, the confirmation with the order number; then the same journey offline at
 * 'Place order' (pending, never confirmed), a reload while offline (still queued), back online →
 * exactly one order in D1 and the confirmation.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { expect, type Page, test } from '@playwright/test'
import { type PickedProduct, pickProduct, type Variant } from './checkout-fixtures'
import { waitForHydration } from './pages'

test.describe.configure({ mode: 'serial' })

const COUPON = 'WELCOME10'
const ROOT = path.resolve(import.meta.dirname, '../..')
const PERSIST = process.env.E2E_PERSIST ?? '.tmp/e2e-state'

/** Counts orders in the e2e server's local D1 (the diagnostic path: wrangler d1 execute). */
function countOrdersInD1(email: string): number {
  const out = execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
      'd1',
      'execute',
      'DB',
      '--local',
      '--persist-to',
      PERSIST,
      '--json',
      '--command',
      `SELECT COUNT(*) AS n FROM orders WHERE customer_email = '${email.replace(/'/g, "''")}'`,
    ],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  )
  const parsed = JSON.parse(out) as { results: { n: number }[] }[]
  return parsed[0]?.results[0]?.n ?? -1
}

/** Runs in the page: ids of the orders queued on this device (D's IndexedDB '<store>-orders'). */
async function untransmittedOrderIds(): Promise<string[]> {
  const store = document.documentElement.dataset.store ?? 'default'
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(`${store}-shop`)
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
  const name = `${store}-orders`
  if (!db.objectStoreNames.contains(name)) return []
  const all = await new Promise<{ order_id: string; transmited: boolean }[]>((resolve) => {
    const r = db.transaction(name, 'readonly').objectStore(name).getAll()
    r.onsuccess = () => resolve(r.result)
  })
  db.close()
  return all.filter((o) => !o.transmited).map((o) => o.order_id)
}

async function addVariant(page: Page, v: Variant, expectedCount: number) {
  for (const [label, value] of v.options)
    await page.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  await expect(page.getByTestId('variant-sku')).toContainText(v.sku)
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText('Product has been added to the cart!').last()).toBeVisible()
  // The add is done once the minicart counts it (the stock check runs first).
  await expect(page.getByTestId('minicart-count')).toHaveText(String(expectedCount))
}

async function fillCheckout(page: Page, email: string, opts: { createAccount?: string } = {}) {
  const form = page.getByTestId('checkout')
  await form.getByLabel('First name').fill('Asha')
  await form.getByLabel('Last name').fill('Rao')
  await form.getByLabel('Email address').fill(email)
  if (opts.createAccount) {
    await form.getByLabel('I want to create an account').check()
    await form.getByLabel('Password').fill(opts.createAccount)
  }
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
  await form.getByLabel('First name').fill('Asha')
  await form.getByLabel('Last name').fill('Rao')
  await form.getByLabel('Street address').fill('12 MG Road')
  await form.getByLabel('Apartment / house number').fill('Flat 4')
  await form.getByLabel('City').fill('Bengaluru')
  await form.getByLabel('State / Province').fill('Karnataka')
  await form.getByLabel('Zip / Postal code').fill('560001')
  await form.getByLabel('Phone number').fill('+91 98450 12345')
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  await form.getByLabel('Cash On Delivery').check()
  await expect(page.getByText('Pay in cash when your order is delivered.')).toBeVisible()
  await form.getByLabel('I accept the terms and conditions').check()
  await form.getByRole('button', { name: 'Review order' }).click()
  await expect(page.getByTestId('checkout-review')).toBeVisible()
}

async function fillCart(page: Page, product: PickedProduct) {
  await page.goto(product.url)
  await waitForHydration(page)
  for (const [i, v] of product.variants.entries()) await addVariant(page, v, i + 1)
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByTestId('cart-line')).toHaveCount(2)
}

test('a guest buys two variants with a coupon and cash on delivery and sees the confirmation', async ({
  page,
  request,
}) => {
  const email = `guest-${Date.now()}@example.com`
  const events: Record<string, unknown>[] = []
  page.on('request', (req) => {
    if (req.url().includes('/api/fbconversion/callFbConversionApi')) events.push(req.postDataJSON())
  })
  await fillCart(page, await pickProduct(request))

  // Quantity change through the stepper.
  const first = page.getByTestId('cart-line').first()
  await first.getByRole('button', { name: /Increase quantity/ }).click()
  await expect(first.getByTestId('line-qty')).toHaveValue('2')
  await expect(page.getByText('Product quantity has been updated!').last()).toBeVisible()

  // Remove asks first; cancelling keeps the line.
  await first.getByTestId('line-remove').click()
  await expect(page.getByRole('alertdialog', { name: 'Remove product' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('cart-line')).toHaveCount(2)

  // Coupon (the cart is connected to the server by now).
  await page.getByLabel('Discount code').fill(COUPON)
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('coupon-applied')).toContainText(COUPON)
  await expect(page.locator('[data-segment="discount"]')).toBeVisible()

  await page.getByTestId('proceed-to-checkout').click()
  await waitForHydration(page)
  await fillCheckout(page, email)
  await page.getByTestId('place-order').click()

  await page.waitForURL(/\/confirmation\?orderId=/)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
  await expect(page.getByTestId('order-number')).not.toBeEmpty()
  await expect(page.getByText('Thank you, your order has been received.')).toBeVisible()
  expect(countOrdersInD1(email)).toBe(1)

  // Conversion events: InitiateCheckout and Purchase, INR, ids 'name_hex', PII only hashed.
  const purchase = events.find((e) => e.event_name === 'Purchase') as
    | { event_id: string; user_data: Record<string, string>; custom_data: { currency: string } }
    | undefined
  expect(events.some((e) => e.event_name === 'InitiateCheckout')).toBe(true)
  expect(purchase?.event_id).toMatch(/^Purchase_[0-9a-f]{16}$/)
  expect(purchase?.custom_data.currency).toBe('INR')
  expect(purchase?.user_data.em).toMatch(/^[0-9a-f]{64}$/)
  expect(purchase?.user_data.zp).toMatch(/^[0-9a-f]{64}$/)
  expect(JSON.stringify(purchase)).not.toContain(email)
})

test('offline at Place order: pending (never confirmed), still queued after a reload, sent exactly once online', async ({
  page,
  context,
  request,
}) => {
  const email = `offline-${Date.now()}@example.com`
  await fillCart(page, await pickProduct(request))
  await page.getByTestId('proceed-to-checkout').click()
  await waitForHydration(page)
  await fillCheckout(page, email)

  await context.setOffline(true)
  await page.getByTestId('place-order').click()
  const pending = page.getByTestId('order-pending')
  await expect(pending).toBeVisible()
  await expect(pending).toContainText('pending')
  await expect(page.getByTestId('confirmation-success')).toHaveCount(0)
  expect(countOrdersInD1(email)).toBe(0)

  const queued = await page.evaluate(untransmittedOrderIds)
  expect(queued).toHaveLength(1)

  // A reload while still offline: the service worker answers (the checkout is never cached, so it
  // serves its offline page) and the order is still queued on this device.
  await page.reload()
  expect(await page.evaluate(untransmittedOrderIds)).toEqual(queued)
  expect(countOrdersInD1(email)).toBe(0)

  // Back online: the pending order's page sends it once and shows the confirmation.
  await context.setOffline(false)
  await page.goto('/checkout')
  await page.waitForURL(/\/confirmation\?orderId=/, { timeout: 30_000 })
  expect(page.url()).toContain(encodeURIComponent(queued[0] as string))
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
  await expect(page.getByTestId('order-number')).not.toBeEmpty()
  expect(countOrdersInD1(email)).toBe(1)
  expect(await page.evaluate(untransmittedOrderIds)).toEqual([])
  // Another reload online must not send it again.
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
  expect(countOrdersInD1(email)).toBe(1)
})
