/**
 * Checkout steps the e2e specs share. `pickProduct` picks a configurable product with two variants
 * that are in stock NOW (the e2e state persists between runs and orders decrement stock, so a fixed
 * sku would run dry), and names the option buttons the product page shows for each variant;
 * `simpleProducts` picks plain simple products in stock the same way.
 */
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test'
import { waitForHydration } from './pages'

export interface Variant {
  sku: string
  /** [attribute label, value label] per configurable option, e.g. ['Color', 'Black']. */
  options: [string, string][]
}

export interface PickedProduct {
  url: string
  name: string
  variants: Variant[]
}

interface ConfigurableOption {
  attribute_code: string
  label: string
  values: { value_index: number; label: string }[]
}

export interface ProductDoc {
  sku: string
  name: string
  url_path: string
  status?: number
  configurable_options?: ConfigurableOption[]
  configurable_children?: (Record<string, unknown> & { sku: string })[]
  custom_options?: unknown[]
  /** The catalogue price in rupees (the document's own field). */
  final_price?: number
  price?: number
}

/**
 * The first 60 enabled products of `types` shown at one of `visibility`, through the catalogue API
 * the shop's own pages call.
 */
export async function findProducts<T>(
  request: APIRequestContext,
  types: string[],
  visibility: number[],
): Promise<T[]> {
  const query = {
    query: {
      bool: {
        filter: {
          bool: {
            must: [{ terms: { type_id: types } }, { terms: { status: [1] } }, { terms: { visibility } }],
          },
        },
      },
    },
  }
  const res = await request.get('/api/catalog/vue_storefront_catalog/product/_search', {
    params: { size: 60, from: 0, request: JSON.stringify(query) },
  })
  return ((await res.json()) as { hits: { hits: { _source: T }[] } }).hits.hits.map((h) => h._source)
}

/** A product with at least two variants having `minQty` units in live stock. */
export async function pickProduct(
  request: APIRequestContext,
  minQty = 3,
  /** A piece's highest catalogue price, in rupees (a bag that must stay under a cap). */
  maxPrice = Number.POSITIVE_INFINITY,
): Promise<PickedProduct> {
  for (const p of await findProducts<ProductDoc>(request, ['configurable'], [2, 3, 4])) {
    if ((p.final_price ?? p.price ?? 0) > maxPrice) continue
    const options = p.configurable_options ?? []
    const children = p.configurable_children ?? []
    // Custom options (stitching, monogram...) would need filling in: keep to plain variants.
    if (options.length === 0 || children.length < 2 || p.custom_options?.length) continue
    const stock = await request.get('/api/stock/list', {
      params: { skus: children.map((c) => c.sku).join(',') },
    })
    const live = ((await stock.json()) as { result: { sku: string; qty: number; is_in_stock: boolean }[] })
      .result
    const ok = children.filter((c) => live.some((s) => s.sku === c.sku && s.is_in_stock && s.qty >= minQty))
    if (ok.length < 2) continue
    const variants = ok.slice(0, 2).map((c) => ({
      sku: c.sku,
      options: options.map((o): [string, string] => {
        const value = o.values.find((v) => v.value_index === Number(c[o.attribute_code]))
        return [o.label, value?.label ?? '']
      }),
    }))
    if (variants.some((v) => v.options.some(([, value]) => !value))) continue
    return { url: `/${p.url_path}`, name: p.name, variants }
  }
  throw new Error('no configurable product with two variants in stock')
}

/** Opens the product's page, chooses the variant's options and adds it: the cart's first line. */
export async function addVariantToCart(page: Page, product: PickedProduct) {
  await page.goto(product.url)
  await waitForHydration(page)
  for (const [label, value] of product.variants[0]?.options ?? []) {
    await page.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  }
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText('Product has been added to the cart!').last()).toBeVisible()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
}

/** The personal step as a guest: name and email (and a password to create an account), then on. */
export async function fillPersonalStep(form: Locator, email: string, opts: { createAccount?: string } = {}) {
  await form.getByLabel('First name').fill('Asha')
  await form.getByLabel('Last name').fill('Rao')
  await form.getByLabel('Email address').fill(email)
  if (opts.createAccount) {
    await form.getByLabel('I want to create an account').check()
    await form.getByLabel('Password').fill(opts.createAccount)
  }
  await form.getByRole('button', { name: 'Continue to shipping' }).click()
}

/** Address fields of a checkout step, by what the shopper types; a field not given is left as it is. */
interface AddressFields {
  firstName?: string
  lastName?: string
  street?: string
  apartment?: string
  city?: string
  state?: string
  postcode?: string
  phone?: string
}

/** A shopper's delivery address in Kolkata, as typed into the checkout. */
export const KOLKATA_ADDRESS: AddressFields = {
  firstName: 'Asha',
  lastName: 'Rao',
  street: '4 Park Street',
  city: 'Kolkata',
  postcode: '700016',
  phone: '+91 98300 00000',
}

/** Types the given address fields into the step's form (the state chosen from its list). */
export async function fillAddress(form: Locator, a: AddressFields) {
  const typed: [string, string | undefined][] = [
    ['First name', a.firstName],
    ['Last name', a.lastName],
    ['Street address', a.street],
    ['Apartment / house number', a.apartment],
    ['City', a.city],
  ]
  for (const [label, value] of typed) if (value !== undefined) await form.getByLabel(label).fill(value)
  if (a.state !== undefined) await form.getByLabel('State', { exact: true }).selectOption(a.state)
  if (a.postcode !== undefined) await form.getByLabel('Zip / Postal code').fill(a.postcode)
  if (a.phone !== undefined) await form.getByLabel('Phone number').fill(a.phone)
}

/** The shipping step's address in Bengaluru (the PIN code left empty when `pin` is null). */
export async function fillShippingAddress(form: Locator, { pin = '560001' }: { pin?: string | null } = {}) {
  await fillAddress(form, {
    firstName: 'Asha',
    lastName: 'Rao',
    street: '12 MG Road',
    apartment: 'Flat 4',
    city: 'Bengaluru',
    state: 'Karnataka',
    postcode: pin ?? undefined,
    phone: '+91 98450 12345',
  })
}

/**
 * From the shipping step on: cash on delivery, `onPayment` (e.g. a billing address of its own) on
 * the payment step, the terms accepted, the order placed; returns the order number the
 * confirmation page shows.
 */
export async function placeCashOnDeliveryOrder(
  page: Page,
  form: Locator,
  { onPayment }: { onPayment?: (form: Locator) => Promise<void> } = {},
): Promise<string> {
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  await form.getByLabel('Cash On Delivery').check()
  await onPayment?.(form)
  await form.getByLabel('I accept the terms and conditions').check()
  await form.getByRole('button', { name: 'Review order' }).click()
  await page.getByTestId('place-order').click()
  await page.waitForURL(/\/confirmation\?orderId=/)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
  return (await page.getByTestId('order-number').textContent())?.trim() ?? ''
}

/**
 * A guest's cash-on-delivery order placed in the browser: one variant of a product in stock, a
 * fresh address `<prefix>-<time>@example.com`, delivery in Bengaluru and, with `whatsapp`, the
 * "order updates on WhatsApp" box ticked. Ends on the confirmation page; returns the order's
 * number and the shopper's address.
 */
export async function placeCodOrderInBrowser(
  page: Page,
  request: APIRequestContext,
  { prefix, whatsapp = false }: { prefix: string; whatsapp?: boolean },
): Promise<{ number: string; email: string }> {
  const email = `${prefix}-${Date.now()}@example.com`
  await addVariantToCart(page, await pickProduct(request))
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await fillPersonalStep(form, email)
  await fillShippingAddress(form)
  if (whatsapp) await form.getByLabel('Send me order updates on WhatsApp', { exact: false }).check()
  return { number: await placeCashOnDeliveryOrder(page, form), email }
}

/** Where `npm start` runs each local stand-in: the shop's port plus this (scripts/start.mjs). */
export const STAND_IN_PORT_OFFSET = { whatsapp: 300, mail: 400 } as const

/**
 * Opens a stand-in's TEST page and reloads it until `item` shows exactly once (messages reach it
 * from the outbox a moment after the shop's answer).
 */
export async function openStandInTestPage(
  page: Page,
  baseURL: string | undefined,
  standIn: keyof typeof STAND_IN_PORT_OFFSET,
  item: Locator,
): Promise<void> {
  const shopPort = Number(new URL(baseURL as string).port)
  await page.goto(`http://127.0.0.1:${shopPort + STAND_IN_PORT_OFFSET[standIn]}/test`)
  await expect
    .poll(
      async () => {
        await page.reload()
        return item.count()
      },
      { timeout: 15_000 },
    )
    .toBe(1)
}

let orderAddressSeq = 0
/**
 * A network address of its own for an order. The shop limits orders per address (and what unpaid
 * orders hold per address), and locally every browser request comes from 127.0.0.1;
 * the state also persists between runs, so each run starts from another block.
 */
export function orderAddress(): string {
  orderAddressSeq++
  const run = Math.floor(Date.now() / 60_000) % 250
  return `198.19.${run}.${orderAddressSeq % 250}`
}

/**
 * The set-up of a spec that follows one shopper through its tests in order: the tests run one after
 * another, each sending its orders from a network address of its own (the shop limits orders per
 * address). Returns the shopper's e-mail address (`tag` and the time: new every run) and password.
 */
export function oneShopperSpec(tag: string): { email: string; password: string } {
  test.describe.configure({ mode: 'serial' })
  test.beforeEach(({ context }) => ordersFromOwnAddresses(context))
  return { email: `${tag}-${Date.now()}@example.com`, password: 'Sup3rSecret!' }
}

/**
 * Sends every order the pages of `context` place from a network address of its own. The route is
 * a pattern, not a function of the URL: Playwright then hands this test only the requests that
 * match it, where a function would be asked about every request the pages make (each script,
 * image and call of every page load waiting on the test process).
 */
export async function ordersFromOwnAddresses(context: BrowserContext): Promise<void> {
  await context.route(/^https?:\/\/[^/]+\/api\/order(?:[?#]|$)/, (route) =>
    route.request().method() === 'POST'
      ? route.continue({ headers: { ...route.request().headers(), 'cf-connecting-ip': orderAddress() } })
      : route.fallback(),
  )
}

/**
 * One variant in the cart, checkout with the UPI/cards method, and the review's one button: it
 * places the order and opens the TEST payment window at once, where `choice` is pressed; the
 * shopper then lands on the confirmation. Returns the variant's sku.
 */
export async function placeOnlineOrder(
  page: Page,
  request: Parameters<typeof pickProduct>[0],
  email: string,
  choice: PaymentChoice = 'Abandon',
) {
  const product = await pickProduct(request)
  const v = product.variants[0]
  if (!v) throw new Error('no variant')
  await addVariantToCart(page, product)
  await checkOutOnline(page, email, choice)
  return v.sku
}

/**
 * Checks the cart out as a guest delivering to Bengaluru, with the UPI/cards method: the review's
 * one button places the order and opens the TEST payment window, where `choice` is pressed; the
 * shopper then lands on the confirmation.
 */
export async function checkOutOnline(page: Page, email: string, choice: PaymentChoice) {
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  await fillPersonalStep(form, email)
  await fillShippingAddress(form)
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  await form.getByLabel('UPI, cards, netbanking or wallets').check()
  await expect(page.getByTestId('online-payment-note')).toContainText('opens a secure payment window')
  await form.getByLabel('I accept the terms and conditions').check()
  await form.getByRole('button', { name: 'Review order' }).click()
  // The button says what it does: the amount and how it is paid.
  await expect(page.getByTestId('place-order')).toHaveText(/^Pay ₹[\d,]+ with UPI, cards or netbanking$/)
  await page.getByTestId('place-order').click()
  await chooseInTestWindow(page, choice)
  await page.waitForURL(/\/confirmation\?orderId=/)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
}

type PaymentChoice = 'Succeed' | 'Fail' | 'Abandon'

/** Presses one of the TEST payment window's buttons (paid by UPI) once it is open. */
export async function chooseInTestWindow(page: Page, choice: PaymentChoice) {
  const frame = page.frameLocator('iframe[title="TEST payment"]')
  await expect(frame.getByText('TEST MODE')).toBeVisible()
  await frame.getByLabel('Method').selectOption('upi')
  await frame.getByRole('button', { name: choice, exact: true }).click()
  await expect(page.locator('iframe[title="TEST payment"]')).toHaveCount(0)
}

/** Opens the TEST payment window from a pay button and presses one of its buttons. */
export async function payInTestWindow(page: Page, choice: PaymentChoice) {
  await page.getByTestId('pay-now').click()
  await chooseInTestWindow(page, choice)
}

/** `count` plain simple products (no custom options), each with two units in live stock now. */
export async function simpleProducts(request: APIRequestContext, count: number): Promise<ProductDoc[]> {
  const picked: ProductDoc[] = []
  for (const p of await findProducts<ProductDoc>(request, ['simple'], [4])) {
    if (p.custom_options?.length) continue
    const stock = await request.get('/api/stock/check', { params: { sku: p.sku } })
    const s = (await stock.json()) as { result?: { is_in_stock?: boolean; qty?: number } }
    if (s.result?.is_in_stock && (s.result.qty ?? 0) >= 2) picked.push(p)
    if (picked.length === count) return picked
  }
  throw new Error(`fewer than ${count} simple products in stock`)
}
