/**
 * The back office in a real browser: an operator signs in with the local sign-in (created with the
 * command-line tool), approves a review that then shows on the product page, ships an order with a
 * carrier and tracking number, and cancels an order whose stock comes back.
 */
import { type APIRequestContext, expect, test } from '@playwright/test'
import { deliverTo, freshEmail, testAddress } from '../helpers/orders'
import { findProducts, orderAddress } from './checkout-fixtures'
import { createTestOperator, signInOperator, signInOperatorByForm } from './pages'

interface Simple {
  id: number
  sku: string
  url_path: string
}

/** A simple, visible product with at least `minQty` units in stock now (orders use it up). */
async function pickSimple(request: APIRequestContext, minQty = 2): Promise<Simple> {
  for (const p of await findProducts<Simple>(request, ['simple'], [4])) {
    if ((await stockOf(request, p.sku)) >= minQty) return p
  }
  throw new Error('no simple product in stock')
}

async function stockOf(request: APIRequestContext, sku: string): Promise<number> {
  const res = await request.get(`/api/stock/check?sku=${encodeURIComponent(sku)}`)
  return Number(((await res.json()) as { result: { qty: number } }).result.qty)
}

/** Places a cash-on-delivery order for one unit of `sku`; returns its number and order-page link token. */
async function placeOrderWithLink(request: APIRequestContext, sku: string) {
  // A shopper and a network address of its own per order: the shop limits both.
  const address = testAddress(freshEmail('asha.e2e-admin'))
  const res = await request.post('/api/order', {
    headers: { 'cf-connecting-ip': orderAddress() },
    data: {
      order_id: `e2e-admin-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`,
      user_id: '',
      cart_id: '',
      products: [{ sku, qty: 1, price: 1 }],
      addressInformation: deliverTo(address),
    },
  })
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { result: { orderNumber: string; orderLinkToken: string } }).result
}

/** Places a cash-on-delivery order for one unit of `sku` and returns its number. */
async function placeOrder(request: APIRequestContext, sku: string): Promise<string> {
  return (await placeOrderWithLink(request, sku)).orderNumber
}

test.beforeAll(() => createTestOperator())

test('an operator approves a review and it appears on the product page', async ({ page, request }) => {
  const product = await pickSimple(request, 1)
  const title = `Beautiful weave ${Date.now()}`
  const created = await request.post('/api/review/create', {
    data: { review: { product_id: product.id, title, detail: 'The colours are rich.', nickname: 'Meera' } },
    headers: { 'cf-connecting-ip': `198.51.100.${Date.now() % 250}` },
  })
  expect(created.status(), await created.text()).toBe(200)
  await page.goto(`/${product.url_path}`)
  await expect(page.getByText(title)).toHaveCount(0)

  await signInOperatorByForm(page)
  await page.getByRole('link', { name: 'Reviews' }).click()
  await page.getByRole('button', { name: `Approve review ${title}` }).click()
  await expect(page.getByRole('button', { name: `Approve review ${title}` })).toHaveCount(0)

  await page.goto(`/${product.url_path}`)
  await expect(page.getByText(title)).toBeVisible()
})

test('an operator ships an order with a tracking number and the shopper’s order page shows it', async ({
  page,
  request,
}) => {
  const product = await pickSimple(request)
  const { orderNumber: number, orderLinkToken } = await placeOrderWithLink(request, product.sku)
  await signInOperator(page)
  await page.goto('/admin')
  await page.getByRole('link', { name: 'Orders' }).click()
  await page.getByLabel('Search').fill(number)
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.getByRole('link', { name: number }).click()
  await page.getByRole('button', { name: 'Confirm (cash on delivery)' }).click()
  await page.getByRole('button', { name: 'Mark packed' }).click()
  await page.getByLabel('Carrier').fill('Delhivery')
  await page.getByLabel('Tracking number').fill('DL998877IN')
  await page.getByRole('button', { name: 'Mark shipped' }).click()
  await expect(page.getByText('Status: Shipped')).toBeVisible()
  await expect(page.getByRole('cell', { name: /DL998877IN/ })).toBeVisible()

  // The shopper opens the order page from the link in their e-mail.
  await page.goto(`/order/${number}#k=${orderLinkToken}`)
  await expect(page.getByTestId('order-status')).toHaveText('Shipped')
  await expect(page.getByTestId('order-shipment')).toContainText('Delhivery')
  await expect(page.getByTestId('order-shipment')).toContainText('DL998877IN')
})

test('an operator cancels an order and its stock comes back', async ({ page, request }) => {
  const product = await pickSimple(request)
  const before = await stockOf(request, product.sku)
  const number = await placeOrder(request, product.sku)
  expect(await stockOf(request, product.sku)).toBe(before - 1)
  await signInOperator(page)
  await page.goto(`/admin/orders/${number}`)
  await page.getByLabel('Reason for cancelling').fill('Customer asked to cancel')
  await page.getByRole('button', { name: 'Cancel order' }).click()
  await expect(page.getByText('Status: Canceled')).toBeVisible()
  expect(await stockOf(request, product.sku)).toBe(before)
})
