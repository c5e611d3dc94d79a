/**
 * The prepaid switch: a cash-on-delivery shopper opens their order page, chooses "Pay now by UPI or
 * card instead", pays the Razorpay payment link at the local test payment provider and comes back
 * to the order page, which says paid; the amount shown, the amount on the link and the order total
 * are one figure, and one payment is recorded; the offer pressed afterwards in a tab left open is
 * refused in words.
 */
import { expect, test } from '@playwright/test'
import {
  addVariantToCart,
  fillPersonalStep,
  fillShippingAddress,
  ordersFromOwnAddresses,
  pickProduct,
  placeCashOnDeliveryOrder,
} from './checkout-fixtures'
import { d1, sqlText, waitForHydration } from './pages'

test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

test('a COD shopper switches to prepaid through the payment link and the order page says paid', async ({
  page,
  request,
}) => {
  await addVariantToCart(page, await pickProduct(request))
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await fillPersonalStep(form, `paylink-${Date.now()}@example.com`)
  await fillShippingAddress(form)
  const number = await placeCashOnDeliveryOrder(page, form)
  const order = () =>
    d1<{ client_order_id: string; status: string; payment_state: string; grand_total_minor: number }>(
      `SELECT client_order_id, status, payment_state, grand_total_minor FROM orders WHERE increment_id = ${sqlText(number)}`,
    )[0]
  const placed = order()
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
  const offer = page.getByTestId('pay-by-link')
  const total = (await page.locator('[data-row="to_pay"] dd').textContent())?.trim() ?? ''
  expect(total).toMatch(/^₹[\d,]+(\.\d\d)?$/)
  await expect(offer).toContainText(`Pay ${total} by UPI or card`)

  await offer.getByRole('button', { name: 'Pay now by UPI or card instead' }).click()
  await page.waitForURL(/\/pl\/plink_/)
  const rupees = ((placed?.grand_total_minor ?? 0) / 100).toFixed(2)
  await expect(page.locator('main')).toContainText(`Order ${number} — INR ${rupees}`)
  await page.getByRole('button', { name: `Pay INR ${rupees} by UPI` }).click()

  await page.waitForURL(new RegExp(`/order/${number}$`))
  await waitForHydration(page)
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed')
  await expect(page.getByTestId('payment-state')).toHaveAttribute('data-state', 'paid')
  await expect(page.getByTestId('payment-state')).toHaveText('Payment: Paid (UPI)')
  await expect(page.getByTestId('pay-by-link')).toHaveCount(0)

  // The stale tab's offer, pressed now, is refused in words and opens nothing.
  await stale.getByRole('button', { name: 'Pay now by UPI or card instead' }).click()
  await expect(stale.getByTestId('pay-by-link-note')).toHaveText(
    `Order ${number} is paid already. There is nothing more to pay.`,
  )
  expect(new URL(stale.url()).pathname).toBe(`/order/${number}`)

  expect(order()).toMatchObject({ status: 'processing', payment_state: 'paid' })
  const id = sqlText(placed?.client_order_id ?? '')
  const paid = d1<{ amount_minor: number; currency: string; status: string }>(
    `SELECT amount_minor, currency, status FROM provider_payments WHERE client_order_id = ${id}`,
  )
  expect(paid).toEqual([{ amount_minor: placed?.grand_total_minor, currency: 'INR', status: 'paid' }])
  const links = d1<{ status: string }>(`SELECT status FROM payments WHERE client_order_id = ${id}`)
  expect(links).toEqual([{ status: 'paid' }])
})
