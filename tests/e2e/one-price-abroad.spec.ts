/**
 * The price shown is the price charged, abroad, in a real browser: a UK and a US shopper (the
 * platform's country of their requests, CF-IPCountry) see one price in their own currency from the
 * first tile to the paid order — tile, product page, cart line, review line, "You will be charged",
 * the amount the PayPal stand-in is asked for and the order's total. A currency switch with a full
 * bag re-prices every line at once.
 */
import { expect, type Locator, type Page, test } from '@playwright/test'
import { fillAddress, fillPersonalStep, simpleProducts } from './checkout-fixtures'
import { d1, sqlText, switchCurrency, waitForHydration } from './pages'

test.describe.configure({ mode: 'serial' })

const text = async (l: Locator) => ((await l.textContent()) ?? '').trim()

/** The minor units of a price string ('£59.00' → 5900, '$1,076.00' → 107600, '₹3,499' → 349900). */
const minorOf = (price: string) => Math.round(Number(price.replace(/[^\d.]/g, '')) * 100)

const SHOPPERS = [
  {
    country: 'GB',
    currency: 'GBP',
    sign: /^£[\d,]+\.\d{2}$/,
    note: 'Includes UK VAT',
    sentence: 'Shipping to the United Kingdom: Indian GST is removed and UK VAT is included.',
    address: { city: 'London', postcode: 'SW1A 1AA', phone: '+44 20 7946 0000' },
  },
  {
    country: 'US',
    currency: 'USD',
    sign: /^\$[\d,]+\.\d{2}$/,
    note: 'Import duties and sales tax not included',
    sentence:
      'Shipping to the United States: Indian GST is removed; import duties and sales tax are not included and may be collected on delivery.',
    address: { city: 'Austin', postcode: '78701', phone: '+1 512 555 0100' },
  },
] as const

for (const shopper of SHOPPERS) {
  test(`a shopper in ${shopper.country} sees one ${shopper.currency} price from tile to paid order`, async ({
    browser,
    request,
    baseURL,
  }) => {
    // The shop's own origin (PUBLIC_ORIGIN, localhost): PayPal sends the shopper back to it.
    const origin = new URL(baseURL ?? '')
    origin.hostname = 'localhost'
    const context = await browser.newContext({
      baseURL: origin.origin,
      extraHTTPHeaders: { 'CF-IPCountry': shopper.country },
    })
    const page = await context.newPage()
    const [p] = await simpleProducts(request, 1)
    if (!p) throw new Error('no product')

    // The first page: prices in the shopper's currency, their tax inside, before any choice.
    await page.goto(`/search?q=${encodeURIComponent(p.name)}`)
    await waitForHydration(page)
    await expect(page.locator('html')).toHaveAttribute('data-currency', shopper.currency)
    const tile = page.locator(`[data-sku="${p.sku}"]`).first()
    const price = await text(tile.getByTestId('tile-price').locator('.price').first())
    expect(price).toMatch(shopper.sign)

    await page.goto(`/${p.url_path}`)
    await waitForHydration(page)
    await expect(page.getByTestId('price-final')).toHaveText(price)
    await expect(page.getByTestId('price-note')).toHaveText(shopper.note)
    await page.getByTestId('add-to-cart').click()
    await expect(page.getByTestId('minicart-count')).toHaveText('1')

    await page.goto('/cart')
    await waitForHydration(page)
    await expect(page.getByTestId('line-total')).toHaveText(price)
    await expect(page.locator('[data-segment="subtotal"] dd')).toHaveText(price)

    await page.goto('/checkout')
    await waitForHydration(page)
    const form = page.getByTestId('checkout')
    const email = `abroad-${shopper.country.toLowerCase()}-${Date.now()}@example.com`
    await fillPersonalStep(form, email)
    // The shipping country starts as the shopper's own: nothing is re-priced.
    await expect(form.getByLabel('Country')).toHaveValue(shopper.country)
    await fillAddress(form, {
      firstName: 'Sam',
      lastName: 'Reed',
      street: '1 High Street',
      ...shopper.address,
    })
    await expect(page.getByTestId('tax-sentence')).toHaveText(shopper.sentence)
    await expect(page.getByTestId('line-was')).toHaveCount(0)
    await form.getByRole('button', { name: 'Continue to payment' }).click()
    // Only methods that charge the currency shown are offered; the card (rupees) says why not.
    await expect(form.getByTestId('method-unavailable').and(form.locator('[data-code="card"]'))).toHaveText(
      `UPI, cards, netbanking or wallets: charged in INR, not ${shopper.currency}. Choose INR as your currency to pay this way.`,
    )
    await form.getByLabel('PayPal').check()
    await form.getByLabel('I accept the terms and conditions').check()
    await form.getByRole('button', { name: 'Review order' }).click()
    await expect(page.getByTestId('review-line').locator('.price')).toHaveText(price)
    // The total is the piece and its shipping to the country (the rules' zone, in the currency shown).
    const shipping = await text(page.locator('[data-segment="shipping"] dd'))
    const total = await text(page.locator('[data-segment="grand_total"] dd'))
    expect(minorOf(total)).toBe(minorOf(price) + minorOf(shipping))
    await expect(page.getByTestId('charge-sentence')).toHaveText(`You will be charged ${total}.`)
    await expect(page.getByTestId('place-order')).toHaveText(`Pay ${total} with PayPal`)
    // One step: the review's button places the order and goes straight to PayPal's approval.
    await page.getByTestId('place-order').click()
    await expect(page.getByRole('heading', { name: 'TEST PayPal approval' })).toBeVisible()

    const order = () =>
      d1<{ currency: string; grand_total_minor: number; paid_minor: number; payment_state: string }>(
        `SELECT currency, grand_total_minor, paid_minor, payment_state FROM orders WHERE customer_email = ${sqlText(email)}`,
      )[0]
    expect(order()).toMatchObject({ currency: shopper.currency, grand_total_minor: minorOf(total) })

    // PayPal (the local stand-in) is asked for exactly that amount, in that currency, and paid.
    await payWithPayPal(page, `${shopper.currency} ${(minorOf(total) / 100).toFixed(2)}`)
    await expect.poll(() => order()?.payment_state, { timeout: 15_000 }).toBe('paid')
    expect(order()?.paid_minor).toBe(minorOf(total))
    await context.close()
  })
}

/** The stand-in's approval page (which states the amount asked), Succeed, back to the shop. */
async function payWithPayPal(page: Page, amount: string) {
  await expect(page.getByRole('heading', { name: 'TEST PayPal approval' })).toBeVisible()
  await expect(page.locator('p b').nth(1)).toHaveText(amount)
  await page.getByRole('button', { name: 'Succeed', exact: true }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/checkoutnow'))
}

test('a currency switch with a full bag re-prices every line at once', async ({ page, request }) => {
  const products = await simpleProducts(request, 2)
  for (const [i, p] of products.entries()) {
    await page.goto(`/${p.url_path}`)
    await waitForHydration(page)
    await page.getByTestId('add-to-cart').click()
    await expect(page.getByTestId('minicart-count')).toHaveText(String(i + 1))
  }
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByTestId('line-total')).toHaveCount(2)
  for (const line of await page.getByTestId('line-total').all()) await expect(line).toHaveText(/^₹[\d,]+$/)

  // The pound prices the shop shows for each product.
  await switchCurrency(page, 'GBP')
  const pounds: Record<string, string> = {}
  for (const p of products) {
    await page.goto(`/${p.url_path}`)
    await waitForHydration(page)
    pounds[p.sku] = await text(page.getByTestId('price-final'))
    expect(pounds[p.sku]).toMatch(/^£[\d,]+\.\d{2}$/)
  }

  // Back in INR with the same bag, then switching on the cart page itself.
  await switchCurrency(page, 'INR')
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.locator('[data-segment="grand_total"] dd')).toHaveText(/^₹/)
  await switchCurrency(page, 'GBP')
  // Every line is charged in pounds at once, at the pound price the product page shows (no rupee
  // amount, none shown with a £ sign). Pounds make the shopper a UK one (the currency's home), so a
  // line whose price changed with the country shows the earlier price, converted, struck through
  // before it.
  // The summary says in words what re-priced the bag.
  await expect(page.getByTestId('reprice-note')).toHaveText(
    'Your bag was re-priced: prices are now in GBP (£), not INR (₹), and for the United Kingdom, not India.',
  )
  for (const p of products) {
    const line = page.locator(`[data-sku="${p.sku}"]`).getByTestId('line-total')
    await expect(line).toHaveText(new RegExp(`(^| )${(pounds[p.sku] ?? '').replace(/[$.]/g, '\\$&')}$`))
    await expect(line).not.toContainText('₹')
  }
  const sum = products.reduce((s, p) => s + minorOf(pounds[p.sku] ?? ''), 0)
  await expect.poll(async () => minorOf(await text(page.locator('[data-segment="subtotal"] dd')))).toBe(sum)
  await expect(page.locator('[data-segment="subtotal"] dd')).toHaveText(/^£/)
})
