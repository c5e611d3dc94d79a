/**
 * Messages: a cash-on-delivery shopper who ticked "order updates on WhatsApp" gets the
 * confirmation at the local WhatsApp stand-in, presses Confirm on its TEST page, and the order
 * moves to confirmed ('processing').
 */
import { expect, test } from '@playwright/test'
import { openStandInTestPage, ordersFromOwnAddresses, placeCodOrderInBrowser } from './checkout-fixtures'
import { d1, sqlText } from './pages'

test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

test('a COD order confirmed from the WhatsApp TEST page moves to confirmed', async ({
  page,
  request,
  baseURL,
}) => {
  const { number } = await placeCodOrderInBrowser(page, request, { prefix: 'wa', whatsapp: true })
  const status = () =>
    d1<{ status: string }>(`SELECT status FROM orders WHERE increment_id = ${sqlText(number)}`)[0]?.status
  expect(status()).toBe('pending')

  const message = page.locator('li.msg', { hasText: number })
  await openStandInTestPage(page, baseURL, 'whatsapp', message)
  await expect(message).toContainText('Please confirm your cash-on-delivery order')
  await message.getByRole('button', { name: 'Confirm', exact: true }).click()
  await expect.poll(status, { timeout: 15_000 }).toBe('processing')
})
