/**
 * After the sale in a real browser, with the local courier stand-in's TEST page moving parcels (it
 * runs beside the shop on the shop's port + 200 and calls the shop's tracking webhook): a shopper
 * exchanges a piece for another size from the order page and follows the replacement; an operator
 * asks the courier to re-attempt a failed delivery; a cash-on-delivery order is delivered, its cash
 * collected, and a piece comes back as store credit the shopper's balance shows. Orders are placed
 * through the order API: the checkout is not what these test.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { deliverTo, freshEmail, testAddress } from '../helpers/orders'
import { orderAddress, pickProduct, simpleProducts } from './checkout-fixtures'
import { createTestOperator, logInThroughModal, signInOperator, waitForHydration } from './pages'

test.beforeAll(() => createTestOperator())

interface Placed {
  orderNumber: string
  orderLinkToken: string
}

/** A cash-on-delivery order for one unit of `sku` (a signed-in shopper's when `bearer` is given). */
async function placeCodOrder(
  request: APIRequestContext,
  sku: string,
  shopper: { bearer: string; id: number; email: string } | null = null,
): Promise<Placed> {
  const res = await request.post('/api/order', {
    headers: {
      'cf-connecting-ip': orderAddress(),
      ...(shopper ? { authorization: `Bearer ${shopper.bearer}` } : {}),
    },
    data: {
      order_id: `e2e-fulfil-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`,
      user_id: shopper ? String(shopper.id) : '',
      cart_id: '',
      products: [{ sku, qty: 1, price: 1 }],
      addressInformation: deliverTo(testAddress(shopper?.email ?? freshEmail('asha.e2e-fulfil'))),
    },
  })
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { result: Placed }).result
}

/** The operator confirms the COD order and presses "Ready to ship": the courier books it. */
async function confirmAndBook(page: Page, number: string) {
  await page.goto(`/admin/orders/${number}`)
  await page.getByRole('button', { name: 'Confirm (cash on delivery)' }).click()
  await expect(page.getByText('Status: Confirmed')).toBeVisible()
  await page.goto('/admin/fulfilment')
  const row = page.getByTestId('to-ship').getByRole('row').filter({ hasText: number })
  await row.getByRole('button', { name: 'Ready to ship' }).click()
  // The booking goes on after the answer: the order is packed once the courier has taken it.
  await untilAdminPage(page, `/admin/orders/${number}`, () =>
    expect(page.getByText('Status: Packed')).toBeVisible(),
  )
}

/** The courier stand-in's TEST page for the shop the test runs against. */
function courierTestPage(baseURL: string | undefined) {
  return `http://127.0.0.1:${Number(new URL(baseURL as string).port) + 200}/test`
}

/** Presses `move` on the TEST courier's row for the parcel `ref`, and waits for its new status. */
async function courierMoves(page: Page, baseURL: string | undefined, ref: string, move: string) {
  await page.goto(courierTestPage(baseURL))
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: ref, exact: true }) })
  await row.getByRole('button', { name: move, exact: true }).click()
  await expect(row.getByRole('cell', { name: move, exact: true })).toBeVisible()
}

/** The shopper's order page from the link in their mail, once its parcels have loaded. */
async function openOrderPage(page: Page, { orderNumber, orderLinkToken }: Placed) {
  await page.goto(`/order/${orderNumber}#k=${orderLinkToken}`)
  await waitForHydration(page)
  await expect(page.getByTestId('order-fulfilment')).toBeVisible()
}

/** Reloads the order page until `check` passes (the courier's webhook arrives on its own time). */
async function untilOrderPage(page: Page, placed: Placed, check: () => Promise<unknown>) {
  await expect(async () => {
    await openOrderPage(page, placed)
    await check()
  }).toPass({ timeout: 15_000 })
}

/** Reloads a back-office page until `check` passes (the courier's webhook arrives on its own time). */
async function untilAdminPage(page: Page, path: string, check: () => Promise<unknown>) {
  await expect(async () => {
    await page.goto(path)
    await check()
  }).toPass({ timeout: 15_000 })
}

test('a shopper exchanges a piece for another size and follows the replacement parcel', async ({
  page,
  request,
  baseURL,
}) => {
  const product = await pickProduct(request)
  const [worn, wanted] = product.variants
  if (!worn || !wanted) throw new Error('no two variants')
  const placed = await placeCodOrder(request, worn.sku)
  const number = placed.orderNumber
  await signInOperator(page)
  await confirmAndBook(page, number)
  await courierMoves(page, baseURL, number, 'Delivered')

  // The shopper asks for the other size from the order page.
  await untilOrderPage(page, placed, () => expect(page.getByTestId('order-status')).toHaveText('Delivered'))
  const form = page.getByTestId('return-form')
  await form.getByLabel('Exchange for another size').check()
  await form.getByTestId('return-line').filter({ hasText: product.name }).getByRole('checkbox').check()
  await form.getByTestId('exchange-size').selectOption(wanted.sku)
  await form.getByLabel('Why?').fill('Too tight at the shoulders')
  await form.getByRole('button', { name: 'Book the pickup' }).click()
  const ret = page.getByTestId('order-return')
  await expect(ret).toContainText('Return R1 (Exchange for another size): Pickup booked')
  await expect(ret).toContainText(`${worn.sku} → ${wanted.sku}`)

  // The courier picks the piece up and brings it back; the operator accepts it.
  await courierMoves(page, baseURL, `${number}-R1`, 'Picked Up')
  await courierMoves(page, baseURL, `${number}-R1`, 'Delivered')
  const row = page
    .getByTestId('returns')
    .getByRole('row')
    .filter({ hasText: `${number} R1` })
  await untilAdminPage(page, '/admin/fulfilment', () => expect(row).toContainText('received — exchange'))
  await row.getByLabel(`1 × ${worn.sku} → ${wanted.sku}`).selectOption('accepted')
  await row.getByRole('button', { name: 'Save inspection' }).click()

  // The replacement ships; the shopper sees its courier, tracking number and timeline.
  await courierMoves(page, baseURL, `${number}-X1`, 'In Transit')
  await untilOrderPage(page, placed, () =>
    expect(page.locator('[data-testid="order-parcel"][data-ref$="-X1"]')).toHaveAttribute(
      'data-state',
      'shipped',
    ),
  )
  const replacement = page.locator('[data-testid="order-parcel"][data-ref$="-X1"]')
  await expect(replacement.getByRole('heading')).toContainText('Exchange parcel')
  await expect(replacement.getByTestId('parcel-awb')).toHaveText(/\S+/)
  await expect(replacement.getByTestId('parcel-timeline')).toContainText('In Transit')
  await expect(page.getByTestId('order-return')).toContainText('your new size is on its way')
})
