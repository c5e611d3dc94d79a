/**
 * Messages: a cash-on-delivery shopper who ticked "order updates on WhatsApp" gets the
 * confirmation at the local WhatsApp stand-in, presses Confirm on its TEST page, and the order
 * moves to confirmed ('processing').
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

test('a COD order confirmed from the WhatsApp TEST page moves to confirmed', async ({
  page,
  request,
  baseURL,
}) => {
  await addVariantToCart(page, await pickProduct(request))
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await fillPersonalStep(form, `wa-${Date.now()}@example.com`)
  await fillShippingAddress(form)
  await form.getByLabel('Send me order updates on WhatsApp', { exact: false }).check()
  const number = await placeCashOnDeliveryOrder(page, form)
  const status = () =>
    d1<{ status: string }>(`SELECT status FROM orders WHERE increment_id = ${sqlText(number)}`)[0]?.status
  expect(status()).toBe('pending')

  // The stand-in runs next to the shop, on its port + 300 (scripts/start.mjs).
  const shopPort = Number(new URL(baseURL as string).port)
  await page.goto(`http://127.0.0.1:${shopPort + 300}/test`)
  const message = page.locator('li.msg', { hasText: number })
  await expect
    .poll(
      async () => {
        await page.reload()
        return message.count()
      },
      { timeout: 15_000 },
    )
    .toBe(1)
  await expect(message).toContainText('Please confirm your cash-on-delivery order')
  await message.getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect.poll(status, { timeout: 15_000 }).toBe('processing')
})
