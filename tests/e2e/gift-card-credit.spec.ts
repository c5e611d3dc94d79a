/**
 * A gift card redeemed at checkout is store credit the order spends, and that spend is a row
 * wherever the order shows its money: the review (whose "You will be charged" is the order's total
 * less the credit), the confirmation, and the order mail.
 */
import { expect, test } from '@playwright/test'
import { chooseInTestWindow, fillShippingAddress, pickProduct } from './checkout-fixtures'
import { issueCard } from './gift-cards'
import { d1, logInThroughModal, sqlText, waitForHydration } from './pages'

test('a gift card redeemed at checkout is a store credit row on the review, the confirmation and the mail', async ({
  page,
  request,
}) => {
  const code = await issueCard(request, 100_000)
  const email = `credit-${Date.now()}@example.com`
  const password = 'a long enough password 42'
  const created = await page.request.post('/api/user/create', {
    data: { customer: { email, firstname: 'Asha', lastname: 'Rao' }, password },
  })
  expect(created.status(), await created.text()).toBe(200)
  await logInThroughModal(page, email, password)
  const product = await pickProduct(request)
  const v = product.variants[0]
  if (!v) throw new Error('no variant')
  await page.goto(product.url)
  await waitForHydration(page)
  for (const [label, value] of v.options)
    await page.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  await expect(page.getByTestId('variant-sku')).toContainText(v.sku)
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
  await fillShippingAddress(form)
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  await form.getByLabel('UPI, cards, netbanking or wallets').check()
  await form.getByLabel('Gift card code').fill(code)
  await form.getByRole('button', { name: 'Redeem' }).click()
  await expect(
    form.getByText('The gift card was added to your store credit and applied to this order.'),
  ).toBeVisible()
  await form.getByLabel('I accept the terms and conditions').check()
  await form.getByRole('button', { name: 'Review order' }).click()

  const review = page.getByTestId('checkout-review')
  await expect(review.getByTestId('review-credit')).toHaveText('Store credit: −₹1,000')
  // The order can be placed once the review's totals are the server's for this address and method.
  await expect(page.getByTestId('place-order')).toBeEnabled()
  const sentence = (await review.getByTestId('charge-sentence').textContent()) ?? ''
  const charged = /You will be charged ₹([\d,]+)\./.exec(sentence)?.[1]
  expect(charged, sentence).toBeDefined()
  // One step: the button opens the payment window for what is left to pay; paid there.
  await page.getByTestId('place-order').click()
  await chooseInTestWindow(page, 'Succeed')
  await page.waitForURL(/\/confirmation\?orderId=/)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()

  // The order as stored: what is left to pay after the credit is what the review said would be
  // charged (and what the provider is asked for).
  const [order] = d1<{ increment_id: string; grand_total_minor: number }>(
    `SELECT increment_id, grand_total_minor FROM orders WHERE customer_email = ${sqlText(email)}`,
  )
  expect(order).toBeDefined()
  expect(Number(charged?.replace(/,/g, '')) * 100).toBe(order?.grand_total_minor)

  const money = page.getByTestId('order-money')
  await expect(money.locator('[data-row="store_credit"] dd')).toHaveText('−₹1,000')
  await expect(page.getByTestId('confirmation-total')).toContainText(`₹${charged}`)

  await expect
    .poll(
      () =>
        d1<{ body: string }>(
          `SELECT body FROM mail_outbox WHERE target_address = ${sqlText(email)} AND subject LIKE ${sqlText(`%${order?.increment_id}%`)}`,
        )[0]?.body ?? '',
      { timeout: 10_000 },
    )
    .toMatch(/Store credit[\s\S]{0,80}1,000/)
})
