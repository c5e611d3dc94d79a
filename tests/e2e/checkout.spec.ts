/**
 * Guest checkout journeys: two variants, a quantity change, a coupon, cash on delivery, the
 * confirmation with the order number; a bundle configured on its product page and ordered (the
 * stock of each linked product taken once; the guest access key never in a URL, a Referer or an
 * analytics event); then the same journey offline at 'Place order' (pending, never confirmed), a
 * reload while offline (still queued), back online → exactly one order in D1 and the confirmation.
 */
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  type Route,
  test,
} from '@playwright/test'
import { SHIPPING_RULES } from '../../shared/config/shipping'
import {
  addVariantToCart,
  fillPersonalStep,
  fillShippingAddress,
  ordersFromOwnAddresses,
  type PickedProduct,
  pickProduct,
  type Variant,
} from './checkout-fixtures'
import { d1, sqlText, storedRecords, waitForHydration } from './pages'
import { waitForServiceWorkerControl } from './sw-helpers'

test.describe.configure({ mode: 'serial' })

// Each order from a network address of its own (the shop limits orders per address).
test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

const COUPON = 'WELCOME10'

/** Counts orders in the e2e server's local D1. */
function countOrdersInD1(email: string): number {
  return (
    d1<{ n: number }>(`SELECT COUNT(*) AS n FROM orders WHERE customer_email = ${sqlText(email)}`)[0]?.n ?? -1
  )
}

/** The orders the client keeps on this device: each with its id, whether it was sent, its confirmation. */
const storedOrders = (page: Page) =>
  storedRecords<{ order_id: string; transmited: boolean; confirmation?: Record<string, unknown> | null }>(
    page,
    'orders',
  )

/** The confirmations of the orders stored on this device. */
async function storedConfirmations(page: Page): Promise<Record<string, unknown>[]> {
  return (await storedOrders(page)).flatMap((o) => (o.confirmation ? [o.confirmation] : []))
}

/** Ids of the orders queued on this device and not sent yet. */
async function untransmittedOrderIds(page: Page): Promise<string[]> {
  return (await storedOrders(page)).filter((o) => !o.transmited).map((o) => o.order_id)
}

async function addVariant(page: Page, v: Variant, expectedCount: number) {
  for (const [label, value] of v.options)
    await page.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  await expect(page.getByTestId('variant-sku')).toContainText(v.sku)
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText('Product has been added to the cart!').last()).toBeVisible()
  // The add is done once the minicart counts it (the stock check runs first).
  await expect(page.getByTestId('minicart-count')).toHaveText(String(expectedCount))
}

/**
 * Fills the shipping address while the courier's answer (the delivery estimate) is held back, then
 * lets it arrive: "Continue to payment", below the estimate, must not move when it does (a button
 * moving under the pointer loses the click that was on its way).
 */
async function fillShippingWithLateEstimate(page: Page, form: Locator) {
  const held: Route[] = []
  let release = false
  await page.route('**/api/checkout/cod?**', (route) => (release ? route.continue() : void held.push(route)))
  await fillShippingAddress(form)
  await expect.poll(() => held.length).toBeGreaterThan(0)
  const button = form.getByRole('button', { name: 'Continue to payment' })
  const before = await button.boundingBox()
  release = true
  for (const route of held.splice(0)) await route.continue()
  await expect(page.getByTestId('delivery-estimate')).toContainText('560001')
  expect(await button.boundingBox()).toEqual(before)
}

async function fillCheckout(
  page: Page,
  email: string,
  opts: { createAccount?: string; lateEstimate?: boolean } = {},
) {
  const form = page.getByTestId('checkout')
  await fillPersonalStep(form, email, opts)
  if (opts.lateEstimate) await fillShippingWithLateEstimate(page, form)
  else await fillShippingAddress(form)
  await form.getByRole('button', { name: 'Continue to payment' }).click()
  await form.getByLabel('Cash On Delivery').check()
  await expect(page.getByText('Pay in cash when your order is delivered.')).toBeVisible()
  await form.getByLabel('I accept the terms and conditions').check()
  await form.getByRole('button', { name: 'Review order' }).click()
  await expect(page.getByTestId('checkout-review')).toBeVisible()
}

/** From the cart: checks out as `email` with cash on delivery, places the order, sees it confirmed. */
async function checkOutToConfirmation(page: Page, email: string, opts: { lateEstimate?: boolean } = {}) {
  await page.getByTestId('proceed-to-checkout').click()
  await waitForHydration(page)
  await fillCheckout(page, email, opts)
  await page.getByTestId('place-order').click()
  await page.waitForURL(/\/confirmation\?orderId=/)
  await expect(page.getByTestId('confirmation-success')).toBeVisible()
}

async function fillCart(page: Page, product: PickedProduct) {
  await page.goto(product.url)
  await waitForHydration(page)
  for (const [i, v] of product.variants.entries()) await addVariant(page, v, i + 1)
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByTestId('cart-line')).toHaveCount(2)
}

/**
 * A cart of two variants checked out as `email` with cash on delivery, the connection dropped, and
 * "Place order" pressed. The checkout is controlled by the service worker first: a reload while
 * offline is answered by it only then.
 */
async function placeOffline(page: Page, context: BrowserContext, request: APIRequestContext, email: string) {
  await fillCart(page, await pickProduct(request))
  await page.getByTestId('proceed-to-checkout').click()
  await waitForHydration(page)
  await waitForServiceWorkerControl(page)
  await waitForHydration(page)
  await fillCheckout(page, email)
  await context.setOffline(true)
  await page.getByTestId('place-order').click()
}

test('a checkbox the page put back before its change event is still ticked by the click', async ({
  page,
  request,
}) => {
  await addVariantToCart(page, await pickProduct(request))
  await page.goto('/checkout')
  await waitForHydration(page)
  const form = page.getByTestId('checkout')
  const box = form.getByLabel('I want to create an account')
  await expect(box).not.toBeChecked()
  // What a re-render pending when the click came does: it runs after a click listener, before the
  // change event, and sets the box back to what the checkout shows.
  await page.evaluate(() => {
    document.addEventListener(
      'click',
      (e) => {
        const target = e.target
        if (target instanceof HTMLInputElement && target.id === 'personal-createAccount')
          target.checked = !target.checked
      },
      { capture: true, once: true },
    )
  })
  await box.click()
  await expect(box).toBeChecked()
  await expect(form.getByLabel('Password')).toBeVisible()
  await box.click()
  await expect(box).not.toBeChecked()
  await expect(form.getByLabel('Password')).toHaveCount(0)
})

test('a guest buys two variants with a coupon and cash on delivery and sees the confirmation', async ({
  page,
  request,
}) => {
  const email = `guest-${Date.now()}@example.com`
  const events: Record<string, unknown>[] = []
  page.on('request', (req) => {
    if (req.url().includes('/api/fbconversion/callFbConversionApi')) events.push(req.postDataJSON())
  })
  // Three pieces stay under the cash-on-delivery cap (above it, cash on delivery is not offered).
  await fillCart(page, await pickProduct(request, 3, SHIPPING_RULES.cod.maxOrderValue / 4))

  // Quantity change through the stepper.
  const first = page.getByTestId('cart-line').first()
  await first.getByRole('button', { name: /Increase quantity/ }).click()
  await expect(first.getByTestId('line-qty')).toHaveValue('2')
  await expect(page.getByText('Product quantity has been updated!').last()).toBeVisible()

  // Remove asks first; cancelling keeps the line.
  await first.getByTestId('line-remove').click()
  await expect(page.getByRole('alertdialog', { name: 'Remove product' })).toBeVisible()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByTestId('cart-line')).toHaveCount(2)

  // Coupon (the cart is connected to the server by now).
  await page.getByLabel('Discount code').fill(COUPON)
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('coupon-applied')).toContainText(COUPON)
  await expect(page.locator('[data-segment="discount"]')).toBeVisible()

  await checkOutToConfirmation(page, email, { lateEstimate: true })
  await expect(page.getByTestId('order-number')).not.toBeEmpty()
  await expect(page.getByText('Thank you, your order has been received.')).toBeVisible()
  expect(countOrdersInD1(email)).toBe(1)

  // Conversion events: InitiateCheckout and Purchase, INR, ids 'name_hex', PII only hashed.
  const purchase = events.find((e) => e.event_name === 'Purchase') as
    | { event_id: string; user_data: Record<string, string>; custom_data: { currency: string } }
    | undefined
  expect(events.some((e) => e.event_name === 'InitiateCheckout')).toBe(true)
  expect(purchase?.event_id).toMatch(/^Purchase_[0-9a-f]{16}$/)
  expect(purchase?.custom_data.currency).toBe('INR')
  expect(purchase?.user_data.em).toMatch(/^[0-9a-f]{64}$/)
  expect(purchase?.user_data.zp).toMatch(/^[0-9a-f]{64}$/)
  expect(JSON.stringify(purchase)).not.toContain(email)
})

interface BundleDoc {
  sku: string
  url_path: string
  bundle_options: {
    option_id: number
    product_links: { id: number; sku: string; is_default?: boolean }[]
  }[]
}

test('a guest orders a bundle from its product page: linked stock taken once, the access key never in a URL', async ({
  page,
  request,
}) => {
  const email = `bundle-${Date.now()}@example.com`
  const search = await request.get('/api/catalog/vue_storefront_catalog/product/_search', {
    params: {
      size: 1,
      from: 0,
      request: JSON.stringify({
        query: { bool: { filter: { bool: { must: [{ terms: { type_id: ['bundle'] } }] } } } },
      }),
    },
  })
  const bundle = ((await search.json()) as { hits: { hits: { _source: BundleDoc }[] } }).hits.hits[0]?._source
  expect(bundle, 'the demo catalogue has a bundle').toBeTruthy()
  const { sku, url_path, bundle_options } = bundle as BundleDoc
  // The page preselects each option's default link (else the first): those are what gets ordered.
  const linked = bundle_options.map(
    (o) => (o.product_links.find((l) => l.is_default) ?? o.product_links[0])?.sku,
  )
  const skuList = linked.map((s) => sqlText(String(s))).join(', ')
  // The e2e state persists across runs: give the linked products a known stock first.
  d1(`UPDATE inventory SET qty = 7, is_in_stock = 1 WHERE sku IN (${skuList})`)

  const seen: { url: string; referer: string; body: string }[] = []
  page.on('request', (req) =>
    seen.push({ url: req.url(), referer: req.headers().referer ?? '', body: req.postData() ?? '' }),
  )
  await page.goto(`/${url_path}`)
  await waitForHydration(page)
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByText('Product has been added to the cart!').last()).toBeVisible()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')
  await page.goto('/cart')
  await waitForHydration(page)
  await expect(page.getByTestId('cart-line')).toHaveCount(1)
  await checkOutToConfirmation(page, email)
  await expect(page.getByTestId('confirmation-success')).toContainText('× 1')
  expect(countOrdersInD1(email)).toBe(1)
  const stock = d1<{ sku: string; qty: number }>(`SELECT sku, qty FROM inventory WHERE sku IN (${skuList})`)
  expect(stock.map((r) => r.qty)).toEqual(linked.map(() => 6))
  const rows = d1<{ sku: string; qty: number; parent_sku: string | null }>(
    `SELECT i.sku, i.qty, i.parent_sku FROM order_items i JOIN orders o ON o.client_order_id = i.client_order_id
     WHERE o.customer_email = ${sqlText(email)} ORDER BY i.id`,
  )
  expect(rows).toEqual([
    { sku, qty: 1, parent_sku: null },
    ...linked.map((s) => ({ sku: s, qty: 1, parent_sku: sku })),
  ])

  // How the guest secret travelled: in the order answer, kept on this device, sent in a POST body.
  const [confirmation] = await storedConfirmations(page)
  const accessKey = String(confirmation?.accessKey ?? '')
  expect(accessKey.length).toBeGreaterThan(20)
  expect(page.url()).not.toContain(accessKey)
  for (const r of seen) {
    expect(r.url, r.url).not.toContain(accessKey)
    expect(r.referer, r.url).not.toContain(accessKey)
  }
  const fetched = seen.filter((r) => r.url.includes('/api/order/get'))
  expect(fetched.some((r) => r.body.includes(accessKey))).toBe(true)
  const purchase = seen.find((r) => r.url.includes('/api/fbconversion/') && r.body.includes('"Purchase"'))
  expect(purchase?.body).toBeTruthy()
  expect(purchase?.body).not.toContain(accessKey)
  expect(JSON.parse(purchase?.body ?? '{}').custom_data.order_id).toBe(confirmation?.orderNumber)
})

test.describe('with its service worker', () => {
  // Offline, the checkout's reload is answered by the service worker (playwright.config.ts blocks
  // the worker in other tests).
  test.use({ serviceWorkers: 'allow' })

  test('offline at Place order: pending (never confirmed), still queued after a reload, sent exactly once online', async ({
    page,
    context,
    request,
  }) => {
    const email = `offline-${Date.now()}@example.com`
    await placeOffline(page, context, request, email)
    const pending = page.getByTestId('order-pending')
    await expect(pending).toBeVisible()
    await expect(pending).toContainText('pending')
    await expect(page.getByTestId('confirmation-success')).toHaveCount(0)
    expect(countOrdersInD1(email)).toBe(0)

    const queued = await untransmittedOrderIds(page)
    expect(queued).toHaveLength(1)

    // A reload while still offline: the service worker answers (the checkout is never cached, so it
    // serves its offline page) and the order is still queued on this device.
    await page.reload()
    expect(await untransmittedOrderIds(page)).toEqual(queued)
    expect(countOrdersInD1(email)).toBe(0)

    // Back online: the pending order's page sends it once and shows the confirmation.
    await context.setOffline(false)
    // The offline page reloads itself when the browser is back online; that reload and this
    // navigation both load the checkout, whichever wins.
    await page.goto('/checkout').catch((err: Error) => {
      if (!/interrupted by another navigation|ERR_ABORTED/.test(err.message)) throw err
    })
    // Polled, not awaited as one navigation: either of the two loads may be the one cut short.
    await expect(page).toHaveURL(/\/confirmation\?orderId=/, { timeout: 30_000 })
    expect(page.url()).toContain(encodeURIComponent(queued[0] as string))
    await expect(page.getByTestId('confirmation-success')).toBeVisible()
    await expect(page.getByTestId('order-number')).not.toBeEmpty()
    expect(countOrdersInD1(email)).toBe(1)
    expect(await untransmittedOrderIds(page)).toEqual([])
    // Another reload online must not send it again.
    await page.reload()
    await waitForHydration(page)
    await expect(page.getByTestId('confirmation-success')).toBeVisible()
    expect(countOrdersInD1(email)).toBe(1)
  })

  test('an order placed offline survives a reload and is sent once on reconnect from any page, without asking', async ({
    page,
    context,
    request,
  }) => {
    const email = `offline-any-${Date.now()}@example.com`
    await placeOffline(page, context, request, email)
    await expect(page.getByTestId('order-pending')).toContainText(
      'will be sent as soon as you are back online',
    )
    const queued = await untransmittedOrderIds(page)
    expect(queued).toHaveLength(1)
    await page.reload()
    // Still offline: nothing is asked (the promise was made) and nothing is sent.
    await expect(page.getByText(/placed an order while offline/)).toHaveCount(0)
    expect(await untransmittedOrderIds(page)).toEqual(queued)
    // Back online on another page than the checkout: the order is sent once, and the shopper told.
    await context.setOffline(false)
    await page.goto('/').catch((err: Error) => {
      if (!/interrupted by another navigation|ERR_ABORTED/.test(err.message)) throw err
    })
    await expect.poll(() => countOrdersInD1(email), { timeout: 30_000 }).toBe(1)
    await expect(page.getByText(/placed an order while offline/)).toHaveCount(0)
    expect(await untransmittedOrderIds(page)).toEqual([])
    await page.reload()
    await waitForHydration(page)
    expect(countOrdersInD1(email)).toBe(1)
  })
})
