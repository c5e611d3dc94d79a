/**
 * After the sale in a real browser, with the local courier stand-in's TEST page moving parcels (it
 * runs beside the shop on the shop's port + 200 and calls the shop's tracking webhook): a shopper
 * exchanges a piece for another size from the order page and follows the replacement; an operator
 * asks the courier to re-attempt a failed delivery; a cash-on-delivery order is delivered, its cash
 * collected, and a piece comes back as store credit the shopper's balance shows. Orders are placed
 * through the order API: the checkout is not what these test.
 */
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { freshEmail, orderBody, testAddress } from '../helpers/orders'
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
    data: orderBody(
      `e2e-fulfil-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`,
      [{ sku, qty: 1, price: 1 }],
      testAddress(shopper?.email ?? freshEmail('asha.e2e-fulfil')),
      { user_id: shopper ? String(shopper.id) : '' },
    ),
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

/**
 * The courier picks up the order's first return and brings it back; the operator, once the return
 * is listed as received for `resolution`, accepts its one piece (`piece` as the inspection names it).
 * Returns the return's row on the fulfilment screen.
 */
async function returnAccepted(
  page: Page,
  baseURL: string | undefined,
  number: string,
  resolution: string,
  piece: string,
) {
  await courierMoves(page, baseURL, `${number}-R1`, 'Picked Up')
  await courierMoves(page, baseURL, `${number}-R1`, 'Delivered')
  const row = page
    .getByTestId('returns')
    .getByRole('row')
    .filter({ hasText: `${number} R1` })
  await untilAdminPage(page, '/admin/fulfilment', () => expect(row).toContainText(`received — ${resolution}`))
  await row.getByLabel(piece).selectOption('accepted')
  await row.getByRole('button', { name: 'Save inspection' }).click()
  return row
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
  await returnAccepted(page, baseURL, number, 'exchange', `1 × ${worn.sku} → ${wanted.sku}`)

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

test('an operator asks the courier to re-attempt a failed delivery', async ({ page, request, baseURL }) => {
  const [piece] = await simpleProducts(request, 1)
  const { orderNumber: number } = await placeCodOrder(request, piece?.sku as string)
  await signInOperator(page)
  await confirmAndBook(page, number)
  await courierMoves(page, baseURL, number, 'Out For Delivery')
  await courierMoves(page, baseURL, number, 'Undelivered')

  // The failed delivery waits in the back office with the courier's reason.
  const row = page.getByTestId('ndr').getByRole('row').filter({ hasText: number })
  await untilAdminPage(page, '/admin/fulfilment', () =>
    expect(row).toContainText('Customer not available (attempt 1)'),
  )
  await row.getByLabel('Note for the courier').fill('Call before coming; the gate is locked')
  await row.getByRole('button', { name: 'Re-attempt' }).click()
  // Acted on, the parcel leaves the list: the courier has it out for delivery again.
  await expect(row).toHaveCount(0)
  await page.goto(`/admin/orders/${number}`)
  await expect(page.getByText('Status: Out for delivery')).toBeVisible()

  await page.goto(courierTestPage(baseURL))
  const parcel = page.getByRole('row').filter({ has: page.getByRole('cell', { name: number, exact: true }) })
  await expect(parcel.getByRole('cell', { name: 'Out For Delivery', exact: true })).toBeVisible()
})

/** Rupees in a shown amount ("₹1,299.00" → 1299). */
const rupees = (shown: string | null) => Number((shown ?? '').replace(/[^\d.]/g, ''))

test('a cash-on-delivery order is delivered, its cash collected, and a piece comes back as store credit', async ({
  page,
  baseURL,
}) => {
  // A shopper with an account (store credit is kept on one), signed in through the API.
  const email = freshEmail('asha.e2e-cod-credit')
  const password = 'Credit-e2e-1'
  const ip = { 'cf-connecting-ip': orderAddress() }
  const created = await page.request.post('/api/user/create', {
    headers: ip,
    data: { customer: { email, firstname: 'Asha', lastname: 'Rao' }, password },
  })
  expect(created.status(), await created.text()).toBe(200)
  const login = await page.request.post('/api/user/login', {
    headers: ip,
    data: { username: email, password },
  })
  const bearer = ((await login.json()) as { result: string }).result
  const me = await page.request.get('/api/user/me', { headers: { authorization: `Bearer ${bearer}` } })
  const id = ((await me.json()) as { result: { id: number } }).result.id
  // A piece sold at its list price: sale pieces may only be exchanged.
  const piece = (await simpleProducts(page.request, 8)).find((p) => (p.final_price ?? 0) >= (p.price ?? 0))
  if (!piece) throw new Error('no simple product at its list price')
  const placed = await placeCodOrder(page.request, piece.sku, { bearer, id, email })
  const number = placed.orderNumber

  await signInOperator(page)
  await confirmAndBook(page, number)
  await courierMoves(page, baseURL, number, 'Delivered')
  // The courier's "delivered" records the cash as collected: the operator can now record the remittance.
  const cod = page.getByTestId('cod').getByRole('row').filter({ hasText: number })
  await untilAdminPage(page, '/admin/fulfilment', () =>
    expect(cod.getByRole('button', { name: 'Remitted' })).toBeVisible(),
  )
  await expect(cod).not.toContainText('not yet')

  // The shopper sends the piece back for store credit.
  await untilOrderPage(page, placed, () => expect(page.getByTestId('order-status')).toHaveText('Delivered'))
  const form = page.getByTestId('return-form')
  await form.getByLabel('Store credit').check()
  const line = form.getByTestId('return-line').first()
  const price = rupees(/\((₹[\d,.]+)\)/.exec((await line.textContent()) ?? '')?.[1] ?? null)
  expect(price).toBeGreaterThan(0)
  await line.getByRole('checkbox').check()
  await form.getByLabel('Why?').fill('The colour is not as shown')
  await form.getByRole('button', { name: 'Book the pickup' }).click()
  await expect(page.getByTestId('order-return')).toContainText('Return R1 (Store credit): Pickup booked')

  const ret = await returnAccepted(page, baseURL, number, 'store credit', `1 × ${piece.sku}`)
  // Inspected, the return leaves the operator's list of work.
  await expect(ret).toHaveCount(0)

  // The order page and the shopper's balance both show the piece's price as credit.
  await openOrderPage(page, placed)
  await expect(page.getByTestId('order-return')).toContainText('Completed')
  expect(rupees(await page.getByTestId('order-return').getByText('Store credit ₹').textContent())).toBe(price)
  await logInThroughModal(page, email, password)
  await page.goto('/my-account/credit-details')
  await expect(page.getByTestId('credit-balance')).toBeVisible()
  expect(rupees(await page.getByTestId('credit-balance').textContent())).toBe(price)
})
