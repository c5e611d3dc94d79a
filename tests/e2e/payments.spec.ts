/**
 * Paying through the local test payment provider that `npm start` runs when no payment keys are
 * set: a UPI purchase succeeds (the confirmation says paid only after the server verified it); a
 * failed payment is paid again from the order page's pay-now; an abandoned one expires when the
 * scheduled job runs, and its stock returns; an operator cancelling a paid order has the provider refund
 * it in full.
 */
import { expect, test } from '@playwright/test'
import { ordersFromOwnAddresses, payInTestWindow, placeOnlineOrder } from './checkout-fixtures'
import { createTestOperator, d1, OPERATOR, signInOperator, sqlText, waitForHydration } from './pages'

test.describe.configure({ mode: 'serial' })

// Each order from a network address of its own (the shop limits orders per address).
test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

function orderOf(email: string) {
  return d1<{
    increment_id: string
    status: string
    payment_state: string
    paid_minor: number
    grand_total_minor: number
  }>(
    `SELECT increment_id, status, payment_state, paid_minor, grand_total_minor FROM orders WHERE customer_email = ${sqlText(email)}`,
  )
}

test('a UPI purchase goes from the review to "paid" in one step, recorded as UPI', async ({
  page,
  request,
}) => {
  const email = `upi-${Date.now()}@example.com`
  await placeOnlineOrder(page, request, email, 'Succeed')
  // No second "Pay now": the review's button opened the payment window, the confirmation says paid.
  const status = page.getByTestId('confirmation-status')
  await expect(status).toHaveText('Thank you, your payment has been received and your order is confirmed.')
  await expect(status).toBeFocused()
  await expect(page.getByTestId('pay-now')).toHaveCount(0)
  await expect(page.getByTestId('order-payment-method')).toHaveText('UPI')
  await expect(page.getByTestId('confirmation-mailed')).toContainText(email)
  const [row] = orderOf(email)
  expect(row).toMatchObject({ status: 'processing', payment_state: 'paid' })
  expect(row?.paid_minor).toBe(row?.grand_total_minor)
  // One "received" mail: the payment's, none while the order was only held.
  const sent = d1<{ kind: string }>(
    `SELECT kind FROM mail_outbox WHERE target_address = ${sqlText(email)} AND kind LIKE 'order-%' ORDER BY id`,
  )
  expect(sent.map((m) => m.kind)).toEqual(['order-paid'])
})

test('a failed payment says so on the confirmation, keeps the order held and is paid again there', async ({
  page,
  request,
}) => {
  const email = `retry-${Date.now()}@example.com`
  await placeOnlineOrder(page, request, email, 'Fail')
  await expect(page.getByTestId('pay-window-note')).toContainText('did not go through')
  await expect(page.getByTestId('pay-window-note')).not.toContainText('Payment failed (Payment failed')
  await expect.poll(() => orderOf(email)[0]?.status, { timeout: 10_000 }).toBe('payment_failed')
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByTestId('confirmation-status')).toContainText('nothing has been charged')
  await expect(page.getByTestId('confirmation-status')).toContainText(/We hold it for you until .+ IST/)
  await expect(page.getByTestId('pay-now')).toHaveText(/^Pay ₹[\d,]+$/)
  await page.getByTestId('order-page-link').click()
  await page.waitForURL(/\/order\/\d+$/)
  await waitForHydration(page)
  await expect(page.getByTestId('order-status')).toHaveText('Payment failed — you can pay again')
  await expect(page.getByTestId('payment-state')).toHaveAttribute('data-state', 'failed')
  await payInTestWindow(page, 'Succeed')
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed')
  await expect(page.getByTestId('payment-state')).toHaveAttribute('data-state', 'paid')
  await expect(page.getByTestId('payment-state')).toContainText('(UPI)')
  expect(orderOf(email)[0]).toMatchObject({ status: 'processing', payment_state: 'paid' })
})

test('an abandoned payment expires when the scheduled job runs, and its stock returns', async ({
  page,
  request,
}) => {
  const email = `abandon-${Date.now()}@example.com`
  const sku = await placeOnlineOrder(page, request, email, 'Abandon')
  const stock = () => d1<{ qty: number }>(`SELECT qty FROM inventory WHERE sku = ${sqlText(sku)}`)[0]?.qty
  const held = stock() as number
  // Closed without paying: the order is held, and says until when.
  await expect(page.getByTestId('confirmation-status')).toContainText(
    /no payment has been taken\. We hold it for you until .+ IST/,
  )
  await expect(page.getByTestId('pay-window-note')).toContainText('not completed')
  expect(orderOf(email)[0]).toMatchObject({ status: 'pending_payment' })
  // Its time is up: the order's expiry moves into the past and the Cron Trigger runs.
  d1(`UPDATE orders SET expires_at = 1 WHERE customer_email = ${sqlText(email)}`)
  const cron = await request.get('/cdn-cgi/local/scheduled?cron=*/5+*+*+*+*')
  expect(cron.ok()).toBe(true)
  await expect.poll(() => orderOf(email)[0]?.status, { timeout: 10_000 }).toBe('expired')
  expect(stock()).toBe(held + 1)
  await page.reload()
  await waitForHydration(page)
  await expect(page.getByText('This order was not paid in time and has expired.')).toBeVisible()
  await expect(page.getByTestId('pay-now')).toHaveCount(0)
})

test('an operator cancels a paid order: the provider refunds it in full and the stock comes back', async ({
  page,
  request,
}) => {
  createTestOperator()
  const email = `cancel-paid-${Date.now()}@example.com`
  const sku = await placeOnlineOrder(page, request, email, 'Succeed')
  const stock = () => d1<{ qty: number }>(`SELECT qty FROM inventory WHERE sku = ${sqlText(sku)}`)[0]?.qty
  // Paid at once: the unit it took is still out of stock until the cancel gives it back.
  const held = stock() as number
  await expect.poll(() => orderOf(email)[0]?.payment_state, { timeout: 10_000 }).toBe('paid')
  const [paid] = orderOf(email)
  const number = paid?.increment_id as string

  await signInOperator(page)
  await page.goto(`/admin/orders/${number}`)
  await page.getByLabel('Reason for cancelling').fill('Out of stock at the atelier')
  await page.getByRole('button', { name: 'Cancel order' }).click()
  await expect(page.getByText('Status: Canceled')).toBeVisible()
  await expect(page.getByText(/payment refunded/)).toBeVisible()

  expect(orderOf(email)[0]).toMatchObject({ status: 'canceled', payment_state: 'refunded' })
  const refunds = d1<{
    provider: string
    provider_refund_id: string | null
    amount_minor: number
    actor: string
  }>(
    `SELECT r.provider, r.provider_refund_id, r.amount_minor, r.actor FROM refunds r JOIN orders o
       ON o.client_order_id = r.client_order_id WHERE o.increment_id = ${sqlText(number)}`,
  )
  expect(refunds).toHaveLength(1)
  expect(refunds[0]).toMatchObject({
    provider: 'razorpay',
    amount_minor: paid?.paid_minor,
    actor: OPERATOR.email,
  })
  expect(refunds[0]?.provider_refund_id).toMatch(/^rfnd_/)
  expect(stock()).toBe(held + 1)
})
