/**
 * Tax documents in a real browser: a shopper pays an order through the test provider and downloads
 * its tax invoice from the order page (the file names the invoice, the label's GSTIN and the
 * delivery state); an operator opens an order billed to Mumbai and delivered to Bengaluru, sees the
 * delivery address first, and prints its packing slip with the delivery address first and no
 * prices.
 */
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { bookAddress, deliverTo, mumbaiBilling } from '../helpers/orders'
import { placeOnlineOrder } from './checkout-fixtures'
import { createTestOperator, d1, signInOperator, sqlText, waitForHydration } from './pages'

test.describe.configure({ mode: 'serial' })

test('a shopper downloads the tax invoice of a paid order from its order page', async ({ page, request }) => {
  const email = `invoice-${Date.now()}@example.com`
  await placeOnlineOrder(page, request, email, 'Succeed')
  await expect(
    page.getByText('Thank you, your payment has been received and your order is confirmed.'),
  ).toBeVisible()
  const [invoice] = d1<{ number: string; increment_id: string }>(
    `SELECT d.number, o.increment_id FROM tax_documents d JOIN orders o ON o.client_order_id = d.client_order_id
     WHERE o.customer_email = ${sqlText(email)} AND d.kind = 'invoice'`,
  )
  expect(invoice?.number).toMatch(/^OA\/\d{2}-\d{2}\/\d{6}$/)
  await page.getByTestId('order-page-link').click()
  await page.waitForURL(/\/order\/\d+$/)
  await waitForHydration(page)
  await expect(page.getByTestId('order-status')).toHaveText('Confirmed')
  const button = page.getByRole('button', { name: `Download tax invoice ${invoice?.number}` })
  await expect(button).toBeVisible()
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
  expect(download.suggestedFilename()).toBe(`invoice-${invoice?.number.replace(/\//g, '-')}.html`)
  const text = readFileSync((await download.path()) as string, 'utf8')
  expect(text).toContain('Tax Invoice')
  expect(text).toContain(invoice?.number as string)
  expect(text).toContain(invoice?.increment_id as string)
  expect(text).toContain('29AADCO4321K1ZC')
  expect(text).toContain('Karnataka, code 29')
  // The downloaded file is the stored document: it prints on its own, without the shop.
  const file = await page.context().newPage()
  await file.setContent(text)
  await expect(file.getByRole('heading', { name: 'Tax Invoice' })).toBeVisible()
  await file.close()
})

test('an operator prints the packing slip of an order billed elsewhere: the delivery address comes first', async ({
  page,
  request,
}) => {
  createTestOperator()
  // Billed to a company in Mumbai (with its GSTIN), delivered to Asha Rao in Bengaluru.
  const billing = mumbaiBilling
  const shipping = bookAddress({ region: 'Karnataka', email: 'asha.slip@example.com' })
  const [stocked] = d1<{ sku: string }>(
    `SELECT i.sku FROM inventory i JOIN products p ON p.sku = i.sku
     WHERE p.type_id = 'simple' AND i.qty > 5 AND i.is_in_stock = 1 ORDER BY i.sku LIMIT 1`,
  )
  const placed = await request.post('/api/order', {
    data: {
      order_id: `slip-${Date.now()}`,
      products: [{ sku: stocked?.sku, qty: 2, price: 1 }],
      addressInformation: { ...deliverTo(shipping), billingAddress: billing },
    },
  })
  expect(placed.ok(), await placed.text()).toBe(true)
  const number = ((await placed.json()) as { result: { orderNumber: string } }).result.orderNumber

  await signInOperator(page)
  await page.goto(`/admin/orders/${number}`)
  const shipTo = page.getByTestId('ship-to')
  const billTo = page.getByTestId('bill-to')
  await expect(shipTo).toContainText('Asha Rao')
  await expect(shipTo).toContainText('Karnataka (state code 29)')
  await expect(shipTo).toContainText('PIN 560001')
  await expect(billTo).toContainText('Shah Textiles Pvt Ltd')
  await expect(page.getByTestId('buyer-gstin')).toHaveText('GSTIN 27AAPFU0939F1ZV')
  const shipBox = await shipTo.boundingBox()
  const billBox = await billTo.boundingBox()
  // Ship to comes first: above, or on the left of, the billing address.
  expect(shipBox && billBox && (shipBox.y < billBox.y || shipBox.x < billBox.x)).toBe(true)

  await page.getByRole('link', { name: 'Packing slip (print)' }).click()
  await page.waitForURL(new RegExp(`/admin/orders/${number}/packing-slip$`))
  await page.emulateMedia({ media: 'print' })
  // Printed, the slip is the slip alone: no back-office header or navigation.
  await expect(page.getByRole('navigation', { name: 'Back office' })).toBeHidden()
  const deliver = page.getByTestId('slip-ship-to')
  await expect(deliver).toContainText('Asha Rao')
  await expect(deliver).toContainText('12 MG Road')
  const deliverBox = await deliver.boundingBox()
  const billingBox = await page.getByTestId('slip-bill-to').boundingBox()
  expect(deliverBox && billingBox && deliverBox.y < billingBox.y).toBe(true)
  await expect(page.getByTestId('slip-line')).toHaveCount(1)
  await expect(page.getByTestId('slip-line').first()).toContainText(stocked?.sku as string)
  await expect(page.getByTestId('slip-line').first().locator('td').first()).toHaveText('2')
  await expect(page.locator('main')).not.toContainText('₹')
  // It prints: Chromium renders it to an A4 PDF.
  const pdf = await page.pdf({ format: 'A4' })
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
})
