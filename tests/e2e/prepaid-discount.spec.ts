/**
 * The prepaid switch with a prepaid discount set (₹100 off): a guest's cash-on-delivery order (the
 * guest ticks "E-mail me a reminder if I leave my bag" on the way, and the answer is recorded for
 * their cart); the order page offers the total less ₹100 and says "You save ₹100"; the link at
 * the local payment stand-in asks that amount; paid, the order page says paid and shows it as the
 * order's total, which is what the order, the payment and the invoice record.
 */
import { expect, type Request, test } from '@playwright/test'
import { formatMinor } from '../../shared/domain/currency'
import {
  addVariantToCart,
  fillShippingAddress,
  ordersFromOwnAddresses,
  pickProduct,
  placeCashOnDeliveryOrder,
} from './checkout-fixtures'
import { d1, sqlText, waitForHydration } from './pages'

const SAVING_MINOR = 10_000

test.beforeEach(({ context }) => ordersFromOwnAddresses(context))
// The setting is the shop's: set for this file only, and taken away whatever the test did.
test.beforeAll(() =>
  d1(
    `INSERT INTO prepaid_discount (id, kind, percent, cap_minor, fixed_minor, updated_at)
     VALUES (1, 'fixed', 0, 0, ${SAVING_MINOR}, '')
     ON CONFLICT (id) DO UPDATE SET kind = 'fixed', percent = 0, cap_minor = 0, fixed_minor = ${SAVING_MINOR}`,
  ),
)
test.afterAll(() => d1('DELETE FROM prepaid_discount'))

/** An amount as the shop's pages show it. */
const rupees = (minor: number) => formatMinor(minor, 'INR')

test('a COD order paid by link with the prepaid discount: shown, asked and recorded at the same total', async ({
  page,
  request,
}) => {
  const email = `prepaid-${Date.now()}@example.com`
  await addVariantToCart(page, await pickProduct(request))
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await form.getByLabel('First name').fill('Asha')
  await form.getByLabel('Last name').fill('Rao')
  await form.getByLabel('Email address').fill(email)
  const reminder = form.getByLabel('E-mail me a reminder if I leave my bag')
  await expect(reminder).not.toBeChecked()
  await reminder.check()
  const consent = page.waitForResponse((r) => r.url().endsWith('/api/state/send-state'))
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
  expect((await consent).status()).toBe(200)
  expect(
    d1<{ opted_in: number }>(`SELECT opted_in FROM guest_reminder_consent WHERE email = ${sqlText(email)}`),
  ).toEqual([{ opted_in: 1 }])
  await fillShippingAddress(form)
  const number = await placeCashOnDeliveryOrder(page, form)
  const placed = d1<{ client_order_id: string; grand_total_minor: number }>(
    `SELECT client_order_id, grand_total_minor FROM orders WHERE increment_id = ${sqlText(number)}`,
  )[0] as { client_order_id: string; grand_total_minor: number }
  const asked = placed.grand_total_minor - SAVING_MINOR

  await page.getByTestId('order-page-link').click()
  await page.waitForURL(/\/order\/\d+$/)
  await waitForHydration(page)
  const offer = page.getByTestId('pay-by-link')
  await expect(page.locator('[data-row="to_pay"] dd')).toHaveText(rupees(placed.grand_total_minor))
  await expect(offer).toContainText(`Pay ${rupees(asked)} by UPI or card`)
  await expect(page.getByTestId('pay-by-link-saving')).toHaveText(`You save ${rupees(SAVING_MINOR)}.`)
  await offer.getByRole('button', { name: 'Pay now by UPI or card instead' }).click()
  await page.waitForURL(/\/pl\/plink_/)
  const inr = (asked / 100).toFixed(2)
  await expect(page.locator('main')).toContainText(`Order ${number} — INR ${inr}`)
  const returned = page.waitForRequest((r: Request) => r.url().includes('/api/payment/link/return'))
  await page.getByRole('button', { name: `Pay INR ${inr} by UPI` }).click()
  await returned
  await page.waitForURL(new RegExp(`/order/${number}$`))
  await waitForHydration(page)
  await expect(page.getByTestId('payment-state')).toHaveAttribute('data-state', 'paid')
  await expect(page.locator('[data-row="to_pay"] dd')).toHaveText(rupees(asked))
  await expect(page.getByTestId('pay-by-link')).toHaveCount(0)

  const id = sqlText(placed.client_order_id)
  expect(
    d1(
      `SELECT o.grand_total_minor AS total, o.paid_minor AS paid,
         (SELECT amount_minor FROM payments WHERE client_order_id = ${id}) AS link,
         (SELECT amount_minor FROM provider_payments WHERE client_order_id = ${id}) AS payment,
         (SELECT total_minor FROM tax_documents WHERE client_order_id = ${id} AND kind = 'invoice') AS invoice
       FROM orders o WHERE o.client_order_id = ${id}`,
    ),
  ).toEqual([{ total: asked, paid: asked, link: asked, payment: asked, invoice: asked }])
})
