/**
 * The prepaid switch: a cash-on-delivery shopper opens their order page, chooses "Pay now by UPI or
 * card instead", pays the Razorpay payment link at the local test payment provider and comes back
 * to the order page, which says paid; the amount shown, the amount on the link and the order total
 * are one figure, and one payment is recorded; the offer pressed afterwards in a tab left open is
 * refused in words. The same for an order the shopper already confirmed from the WhatsApp
 * stand-in's TEST page: it stays confirmed and becomes paid, once, however often the return from
 * the payment page is replayed.
 */
import { expect, type Page, type Request, test } from '@playwright/test'
import { openStandInTestPage, ordersFromOwnAddresses, placeCodOrderInBrowser } from './checkout-fixtures'
import { d1, sqlText, waitForHydration } from './pages'

test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

interface OrderState {
  client_order_id: string
  status: string
  payment_state: string
  grand_total_minor: number
}

const orderOf = (number: string) =>
  d1<OrderState>(
    `SELECT client_order_id, status, payment_state, grand_total_minor FROM orders WHERE increment_id = ${sqlText(number)}`,
  )[0] as OrderState

/**
 * On the order page: the offer states the amount to pay, is pressed, the link is paid at the test
 * provider for the order total and the shopper is back on the order page, which says paid and
 * offers nothing more. Returns the return address the provider sent the browser to.
 */
async function payThroughLink(page: Page, number: string, totalMinor: number): Promise<string> {
  const offer = page.getByTestId('pay-by-link')
  const total = (await page.locator('[data-row="to_pay"] dd').textContent())?.trim() ?? ''
  expect(total).toMatch(/^₹[\d,]+(\.\d\d)?$/)
  await expect(offer).toContainText(`Pay ${total} by UPI or card`)
  await offer.getByRole('button', { name: 'Pay now by UPI or card instead' }).click()
  await page.waitForURL(/\/pl\/plink_/)
  const rupees = (totalMinor / 100).toFixed(2)
  await expect(page.locator('main')).toContainText(`Order ${number} — INR ${rupees}`)
  const returned = page.waitForRequest((r: Request) => r.url().includes('/api/payment/link/return'))
  await page.getByRole('button', { name: `Pay INR ${rupees} by UPI` }).click()
  const returnUrl = (await returned).url()
  await page.waitForURL(new RegExp(`/order/${number}$`))
  await waitForHydration(page)
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed')
  await expect(page.getByTestId('payment-state')).toHaveAttribute('data-state', 'paid')
  await expect(page.getByTestId('payment-state')).toHaveText('Payment: Paid (UPI)')
  await expect(page.getByTestId('pay-by-link')).toHaveCount(0)
  return returnUrl
}

/** One payment of the order total recorded, and the order's one link paid. */
function expectPaidOnce(placed: OrderState) {
  const id = sqlText(placed.client_order_id)
  const paid = d1<{ amount_minor: number; currency: string; status: string }>(
    `SELECT amount_minor, currency, status FROM provider_payments WHERE client_order_id = ${id}`,
  )
  expect(paid).toEqual([{ amount_minor: placed.grand_total_minor, currency: 'INR', status: 'paid' }])
  const links = d1<{ status: string }>(`SELECT status FROM payments WHERE client_order_id = ${id}`)
  expect(links).toEqual([{ status: 'paid' }])
}

test('a COD shopper switches to prepaid through the payment link and the order page says paid', async ({
  page,
  request,
}) => {
  const { number } = await placeCodOrderInBrowser(page, request, { prefix: 'paylink' })
  const placed = orderOf(number)
  expect(placed).toMatchObject({ status: 'pending' })

  await page.getByTestId('order-page-link').click()
  await page.waitForURL(/\/order\/\d+$/)
  await waitForHydration(page)
  // The same order page left open in a second tab (this tab keeps its order link).
  const stale = await page.context().newPage()
  const linkToken = await page.evaluate((n) => sessionStorage.getItem(`order-link:${n}`), number)
  await stale.goto(`/order/${number}#k=${linkToken}`)
  await waitForHydration(stale)
  await expect(stale.getByTestId('pay-by-link')).toBeVisible()
  await expect(page.getByTestId('order-status')).toHaveText('Received — to be confirmed (pay on delivery)')
  await expect(page.getByTestId('payment-state')).not.toHaveAttribute('data-state', 'paid')
  await payThroughLink(page, number, placed.grand_total_minor)

  // The stale tab's offer, pressed now, is refused in words and opens nothing.
  await stale.getByRole('button', { name: 'Pay now by UPI or card instead' }).click()
  await expect(stale.getByTestId('pay-by-link-note')).toHaveText(
    `Order ${number} is paid already. There is nothing more to pay.`,
  )
  expect(new URL(stale.url()).pathname).toBe(`/order/${number}`)

  expect(orderOf(number)).toMatchObject({ status: 'processing', payment_state: 'paid' })
  expectPaidOnce(placed)
})

test('a COD order confirmed on WhatsApp switches to prepaid and is paid once', async ({
  page,
  request,
  baseURL,
}) => {
  const { number } = await placeCodOrderInBrowser(page, request, { prefix: 'paylink-wa', whatsapp: true })
  await page.getByTestId('order-page-link').click()
  await page.waitForURL(/\/order\/\d+$/)
  const linkToken = await page.evaluate((n) => sessionStorage.getItem(`order-link:${n}`), number)

  const message = page.locator('li.msg', { hasText: number })
  await openStandInTestPage(page, baseURL, 'whatsapp', message)
  await message.getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect.poll(() => orderOf(number).status, { timeout: 15_000 }).toBe('processing')
  const confirmed = orderOf(number)
  expect(confirmed.payment_state).not.toBe('paid')

  await page.goto(`/order/${number}#k=${linkToken}`)
  await waitForHydration(page)
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed')
  await expect(page.getByTestId('payment-state')).not.toHaveAttribute('data-state', 'paid')
  const returnUrl = await payThroughLink(page, number, confirmed.grand_total_minor)

  // The provider's return replayed (a reload, a second tab) records nothing more.
  expect((await request.get(returnUrl, { maxRedirects: 0 })).status()).toBeLessThan(400)
  expect(orderOf(number)).toMatchObject({ status: 'processing', payment_state: 'paid' })
  expect(orderOf(number).grand_total_minor).toBe(confirmed.grand_total_minor)
  expectPaidOnce(confirmed)
})
