/**
 * One price everywhere, in a real browser: the same product's price is the same string on its
 * search tile, its product page ("Inclusive of all taxes"), the cart line and the confirmation; the
 * checkout explains the price for a foreign country as soon as it is chosen and hides cash on
 * delivery for a PIN code the courier does not serve.
 */
import { expect, test } from '@playwright/test'
import {
  fillPersonalStep,
  fillShippingAddress,
  ordersFromOwnAddresses,
  type ProductDoc,
  simpleProducts,
} from './checkout-fixtures'
import { waitForHydration } from './pages'

// Each order from a network address of its own (the shop limits orders per address).
test.beforeEach(({ context }) => ordersFromOwnAddresses(context))
test('tile, product page, cart and confirmation show the same price; checkout explains tax and COD', async ({
  page,
  request,
}) => {
  // A plain simple product (no custom options) in stock now.
  const [p] = await simpleProducts(request, 1)
  if (!p) throw new Error('no product')

  await page.goto(`/search?q=${encodeURIComponent(p.name)}`)
  await waitForHydration(page)
  const tile = page.locator(`[data-sku="${p.sku}"]`).first()
  const tilePrice = (
    (await tile.getByTestId('tile-price').locator('.price').first().textContent()) ?? ''
  ).trim()
  expect(tilePrice).toMatch(/^₹[\d,]+$/)

  await page.goto(`/${p.url_path}`)
  await waitForHydration(page)
  await expect(page.getByTestId('price-final')).toHaveText(tilePrice)
  await expect(page.getByTestId('price-note')).toHaveText('Inclusive of all taxes')
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')

  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByTestId('line-total')).toHaveText(tilePrice)
  await expect(page.locator('[data-segment="tax"] dt')).toHaveText('Includes GST')
  await expect(page.locator('[data-segment="subtotal"] dd')).toHaveText(tilePrice)

  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await fillPersonalStep(form, `prices-${Date.now()}@example.com`)
  await fillShippingAddress(form, { pin: null })
  // A foreign country: the sentence appears at once, and COD is explained away.
  await form.getByLabel('Country').selectOption('GB')
  await expect(page.getByTestId('tax-sentence')).toHaveText(
    'Shipping to the United Kingdom: Indian GST is removed and UK VAT is included.',
  )
  // The bag is re-priced for it, visibly: the price seen struck through before the one charged now.
  await expect(page.getByTestId('line-was')).toHaveText(tilePrice)
  await expect(page.getByTestId('cod-note-shipping')).toHaveText(
    'Cash on delivery is available only for addresses in India.',
  )
  // Back to India with a PIN code where the courier collects no cash, though the shop's PIN table
  // lists it: the note is the courier's answer, which the checkout waits for (never the table's
  // answer given while the courier had not answered yet).
  await form.getByLabel('Country').selectOption('IN')
  const courierAnswer = page.waitForResponse(
    async (res) =>
      res.url().includes('/api/checkout/cod?') &&
      res.url().includes('postcode=400050') &&
      (await res.json()).result?.pending === false,
  )
  await form.getByLabel('Zip / Postal code').fill('400050')
  expect((await (await courierAnswer).json()).result).toMatchObject({ available: false })
  await expect(page.getByTestId('cod-note-shipping')).toHaveText(
    'Cash on delivery is not available for PIN 400050.',
  )
  await form.getByLabel('Zip / Postal code').fill('560001')
  await expect(page.getByTestId('cod-note-shipping')).toHaveCount(0)
  await expect(page.getByTestId('tax-sentence')).toHaveText('Shipping within India: prices include GST.')
  // The shipping step states what shipping costs here (the rules: free above ₹2,999, else ₹149 in
  // Bengaluru's zone) and the courier's estimate for the PIN, before the review.
  const rupees = (text: string) => Number(text.replace(/[^\d]/g, ''))
  const shipping = rupees(tilePrice) > 2999 ? 0 : 149
  await expect(page.getByTestId('shipping-rate')).toHaveText(
    shipping ? 'Courier within India: ₹149' : 'Free shipping',
  )
  await expect(page.getByTestId('delivery-estimate')).toHaveText(
    /^Delivery to 560001 by \d+\w\w of \w+, \d{4}\.$/,
  )
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  await form.getByLabel('Cash On Delivery').check()
  await expect(page.locator('.checkout__cod')).toContainText(
    'A cash-on-delivery fee of ₹49 is added to your order.',
  )
  await form.getByLabel('I accept the terms and conditions').check()
  await form.getByRole('button', { name: 'Review order' }).click()
  await expect(page.getByTestId('checkout-review')).toBeVisible()
  await expect(page.getByTestId('review-line').locator('.price')).toHaveText(tilePrice)
  // The review's total is the piece, its shipping and the COD fee, each a line of the summary.
  const total = `₹${(rupees(tilePrice) + shipping + 49).toLocaleString('en-IN')}`
  await expect(page.locator('[data-segment="cod_fee"] dd')).toHaveText('₹49')
  await expect(page.locator('[data-segment="grand_total"] dd')).toHaveText(total)
  await expect(page.getByTestId('charge-sentence')).toHaveText(`You will be charged ${total}.`)
  await page.getByTestId('place-order').click()
  await page.waitForURL(/\/confirmation\?orderId=/)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
  await expect(page.getByTestId('confirmation-line').locator('.price')).toHaveText(tilePrice)
  await expect(page.getByTestId('confirmation-total')).toHaveText(`Total: ${total}`)
})

test('an e-gift card costs its face value and asks for no shipping address', async ({ page, request }) => {
  const res = await request.get('/api/catalog/vue_storefront_catalog/product/_search', {
    params: {
      size: 20,
      from: 0,
      request: JSON.stringify({
        query: {
          bool: {
            filter: { bool: { must: [{ terms: { type_id: ['virtual'] } }, { terms: { status: [1] } }] } },
          },
        },
      }),
    },
  })
  const hits = ((await res.json()) as { hits: { hits: { _source: ProductDoc & { price: number } }[] } }).hits
    .hits
  // An e-gift card's recipient, message and date are optional: bought without them it comes to the buyer.
  const gift = hits
    .map((h) => h._source)
    .find(
      (p) =>
        /gift card/i.test(p.name) &&
        !p.custom_options?.some((o) => (o as { is_require?: boolean }).is_require),
    )
  expect(gift, 'an e-gift card in the demo catalogue').toBeTruthy()
  const card = gift as ProductDoc & { price: number }
  const face = `₹${card.price.toLocaleString('en-US')}`

  await page.goto(`/${card.url_path}`)
  await waitForHydration(page)
  await expect(page.getByTestId('price-final')).toHaveText(face)
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')

  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await expect(page.locator('.checkout__steps')).not.toContainText('Shipping')
  await form.getByLabel('First name').fill('Asha')
  await form.getByLabel('Last name').fill('Rao')
  await form.getByLabel('Email address').fill(`gift-${Date.now()}@example.com`)
  await expect(form.getByRole('button', { name: 'Continue to shipping' })).toHaveCount(0)
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  // Straight to payment: cash on delivery is not offered for goods that do not ship.
  await expect(form.getByLabel('Cash On Delivery')).toHaveCount(0)
  await expect(page.locator('[data-segment="grand_total"] dd')).toHaveText(face)
})
