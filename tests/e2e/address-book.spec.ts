/**
 * A signed-in shopper and their address book at checkout: a first order's new address is saved to
 * the book (on by default for an empty book), the next checkout starts from it, and the
 * confirmation and order pages show each line with the picture it was bought with, through the
 * image route. A billing address of its own can be saved the same way (once), and the account's
 * order list shows each order's pictures.
 */
import { expect, type Page, test } from '@playwright/test'
import {
  addVariantToCart,
  fillAddress,
  oneShopperSpec,
  pickProduct,
  placeCashOnDeliveryOrder,
} from './checkout-fixtures'
import { d1, logInThroughModal, sqlText, waitForHydration } from './pages'

const { email, password: PASSWORD } = oneShopperSpec('book')

async function register(page: Page) {
  const res = await page.request.post('/api/user/create', {
    data: { customer: { email, firstname: 'Meera', lastname: 'Iyer' }, password: PASSWORD },
  })
  expect(res.status()).toBe(200)
  await logInThroughModal(page, email, PASSWORD)
}

async function addToCart(page: Page) {
  await addVariantToCart(page, await pickProduct(page.request))
}

/** Every line picture is served by the image route, with a srcset, and has loaded (not broken). */
async function expectLinePictures(page: Page) {
  const images = page.getByTestId('order-line-image')
  await expect(images.first()).toBeVisible()
  for (const img of await images.all()) {
    await img.scrollIntoViewIfNeeded()
    expect(await img.getAttribute('src')).toMatch(/^\/img\/\d+\/\d+\//)
    expect(await img.getAttribute('srcset')).toMatch(/\/img\/.+ \d+w, /)
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true)
  }
}

test('a new address is saved to the book, the next checkout starts from it, lines show their pictures', async ({
  page,
}) => {
  await register(page)
  await addToCart(page)
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
  // An empty book: no saved address to pick, and saving the new one is on by default.
  await expect(form.getByLabel('Ship to')).toHaveCount(0)
  await expect(form.getByLabel('Save this address to my address book')).toBeChecked()
  await fillAddress(form, {
    street: '4 Park Street',
    city: 'Kolkata',
    postcode: '700016',
    phone: '+91 98300 00000',
  })
  const first = await placeCashOnDeliveryOrder(page, form)
  await expectLinePictures(page)

  // The address is in the book, as the default.
  const book = d1<{ doc: string }>(
    `SELECT a.doc FROM customer_addresses a JOIN customers c ON c.id = a.customer_id WHERE c.email = ${sqlText(email)}`,
  )
  expect(book).toHaveLength(1)
  expect(JSON.parse(book[0]?.doc ?? '{}')).toMatchObject({
    street: ['4 Park Street', ''],
    city: 'Kolkata',
    postcode: '700016',
    default_shipping: true,
  })
  await page.goto('/my-account/address-book')
  await waitForHydration(page)
  await expect(page.getByTestId('address-card')).toContainText('4 Park Street')

  // The next checkout starts from the saved address; nothing new to save.
  await addToCart(page)
  await page.goto('/checkout')
  await waitForHydration(page)
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
  await expect(form.getByLabel('Street address')).toHaveValue('4 Park Street')
  await expect(form.getByLabel('Zip / Postal code')).toHaveValue('700016')
  await expect(form.getByLabel('Ship to')).toHaveValue(/\d+/)
  await expect(form.getByLabel('Save this address to my address book')).toHaveCount(0)
  const second = await placeCashOnDeliveryOrder(page, form)
  expect(second).not.toBe(first)
  const shipped = d1<{ street: string }>(
    `SELECT json_extract(doc, '$.extension_attributes.shipping_assignments[0].shipping.address.street[0]') AS street
     FROM orders WHERE increment_id = ${sqlText(second)}`,
  )
  expect(shipped[0]?.street).toBe('4 Park Street')
  expect(
    d1<{ n: number }>(
      `SELECT count(*) AS n FROM customer_addresses a JOIN customers c ON c.id = a.customer_id WHERE c.email = ${sqlText(email)}`,
    )[0]?.n,
  ).toBe(1)

  // The order page shows the same pictures to the signed-in shopper.
  await page.goto(`/order/${second}`)
  await waitForHydration(page)
  await expect(page.getByTestId('order-page')).toBeVisible()
  await expectLinePictures(page)
})

const bookOf = () =>
  d1<{ doc: string }>(
    `SELECT a.doc FROM customer_addresses a JOIN customers c ON c.id = a.customer_id WHERE c.email = ${sqlText(email)} ORDER BY a.id`,
  ).map((r) => JSON.parse(r.doc) as { street: string[]; city: string; postcode: string })

/** From the shipping step: a billing address of its own typed in, then cash on delivery placed. */
async function placeWithBilling(page: Page, save: 'check' | 'leave' | 'absent') {
  const form = page.getByTestId('checkout')
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
  return placeCashOnDeliveryOrder(page, form, {
    onPayment: async () => {
      await form.getByLabel('Billing address is the same as the shipping address').uncheck()
      await fillAddress(form, {
        firstName: 'Meera',
        lastName: 'Iyer',
        street: '9 Marine Drive',
        city: 'Mumbai',
        postcode: '400020',
        phone: '+91 98200 00000',
      })
      const box = form.getByLabel('Save this billing address to my address book')
      if (save === 'absent') await expect(box).toHaveCount(0)
      else {
        // The book is not empty: saving is off until the shopper asks.
        await expect(box).not.toBeChecked()
        if (save === 'check') await box.check()
      }
    },
  })
}

test('a billing address of its own is saved to the book when asked, once', async ({ page }) => {
  await logInThroughModal(page, email, PASSWORD)
  expect(bookOf()).toHaveLength(1)

  // Left unchecked: the book stays as it was.
  await addToCart(page)
  await page.goto('/checkout')
  await waitForHydration(page)
  await placeWithBilling(page, 'leave')
  await expect.poll(() => bookOf().length).toBe(1)

  // Checked: the billing address joins the book after the order.
  await addToCart(page)
  await page.goto('/checkout')
  await waitForHydration(page)
  const billed = await placeWithBilling(page, 'check')
  await expect.poll(() => bookOf().length).toBe(2)
  expect(bookOf()[1]).toMatchObject({ street: ['9 Marine Drive', ''], city: 'Mumbai', postcode: '400020' })
  const billing = d1<{ street: string }>(
    `SELECT json_extract(doc, '$.billing_address.street[0]') AS street FROM orders WHERE increment_id = ${sqlText(billed)}`,
  )
  expect(billing[0]?.street).toBe('9 Marine Drive')

  // The same billing address again is in the book: nothing to offer, no copy.
  await addToCart(page)
  await page.goto('/checkout')
  await waitForHydration(page)
  await placeWithBilling(page, 'absent')
  expect(bookOf()).toHaveLength(2)
})

test("the account's order list shows every order's line pictures through the image route", async ({
  page,
}) => {
  await logInThroughModal(page, email, PASSWORD)
  await page.goto('/my-account/orders')
  await waitForHydration(page)
  const rows = page.getByTestId('order-row')
  await expect(rows.first()).toBeVisible()
  expect(await rows.count()).toBeGreaterThanOrEqual(5)
  for (const row of await rows.all()) await expect(row.getByTestId('order-line-image')).toHaveCount(1)
  await expectLinePictures(page)
})
