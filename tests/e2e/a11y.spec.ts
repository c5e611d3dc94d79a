/**
 * Every page type a shopper meets, loaded once and checked at several widths by resizing the window
 * (the layout answers the width through CSS alone):
 * - it fits a small phone, a phone and a tablet (320, 390, 768 px): no page is wider than the
 *   window (nothing to scroll sideways, no form cut off at its right edge);
 * - axe-core finds no violation at desktop (1366 px) and phone (390 px) width. axe-core comes from
 *   the npm registry (a devDependency) and is injected from node_modules: nothing is fetched from a
 *   CDN.
 * The pages of a signed-in shopper with an order (checkout steps, confirmation, order page,
 * account, order history) follow one real checkout.
 */
import { createRequire } from 'node:module'
import { expect, type Page, test } from '@playwright/test'
import {
  addVariantToCart,
  fillAddress,
  fillPersonalStep,
  findProducts,
  KOLKATA_ADDRESS,
  ordersFromOwnAddresses,
  pickProduct,
  placeCashOnDeliveryOrder,
} from './checkout-fixtures'
import { overflow, waitForHydration } from './pages'

// Two dozen page types, each measured at five widths: slower than one journey, not than the tier.
test.setTimeout(240_000)
test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const FIT_WIDTHS = [320, 390, 768] as const
const AXE_WIDTHS = [1366, 390] as const

interface AxeResult {
  violations: { id: string; nodes: { target: string[] }[] }[]
}

/**
 * What is wrong with the page as it stands: "label @ width: …" for every width it is wider than
 * the window at, and for every axe-core violation (rule ×nodes, first target) at each axe width.
 * `axe: false` measures the fit only (a page whose look another check already covers); `fit: false`
 * runs axe only.
 */
async function problems(page: Page, label: string, { axe = true, fit = true } = {}): Promise<string[]> {
  const out: string[] = []
  for (const width of fit ? FIT_WIDTHS : []) {
    await page.setViewportSize({ width, height: 800 })
    const o = await overflow(page)
    if (o.extra > 0)
      out.push(`${label} @ ${width}: ${o.extra} px wider than the window (${o.past.join(', ')})`)
  }
  if (!axe) return out
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE })
  for (const width of AXE_WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    await settled(page)
    const found = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (c: unknown) => Promise<AxeResult> } }).axe
      const r = await axe.run(document)
      return r.violations.map((v) => `${v.id} ×${v.nodes.length} (${v.nodes[0]?.target.join(' ')})`)
    })
    out.push(...found.map((f) => `${label} @ ${width}: ${f}`))
    if (process.env.A11Y_LOG && found.length) console.log(`${label} @ ${width}:\n  ${found.join('\n  ')}`)
  }
  return out
}

/**
 * Waits for the page's finite animations and transitions to end (a notice fading in, a drawer
 * sliding after a resize): axe measures contrast against what is painted, and text half-way
 * through a fade reads as too faint. Endless ones (a loading shimmer) are not waited for.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => {})),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  )
}

async function visit(page: Page, path: string) {
  await page.goto(path)
  await waitForHydration(page)
}

/** The URL of the first listed product of a type (bundle, grouped, simple). */
async function productOf(request: Parameters<typeof findProducts>[0], type: string): Promise<string> {
  const [p] = await findProducts<{ url_path: string }>(request, [type], [4])
  if (!p) throw new Error(`no ${type} product in the demo catalogue`)
  return `/${p.url_path}`
}

test('public page types fit 320, 390 and 768 px and have no axe violation at 1366 and 390 px', async ({
  page,
  request,
}) => {
  // Every grouped and bundle set fits: the pieces' table is the widest part of a product page.
  const sets = (await findProducts<{ sku: string; slug: string }>(request, ['grouped', 'bundle'], [4])).map(
    (p) => `/p/${p.sku}/${p.slug}`,
  )
  const pages: [string, string][] = [
    ['home', '/'],
    ['category', '/c/women'],
    ['product (configurable)', (await pickProduct(request)).url],
    ['product (simple)', await productOf(request, 'simple')],
    ['product (bundle)', await productOf(request, 'bundle')],
    ['product (grouped)', await productOf(request, 'grouped')],
    ['search', '/search?q=silk'],
    ['CMS page', '/i/about-us'],
    ['store locator', '/store-locator'],
    ['404', '/this-page-does-not-exist'],
    ['wishlist', '/wishlist'],
    ['compare', '/compare'],
    ['cart (empty)', '/cart'],
  ]
  const found: string[] = []
  for (const [label, path] of pages) {
    await visit(page, path)
    found.push(...(await problems(page, label)))
    if (label === 'home') {
      // The sign-in dialog, over the page it opened on.
      await page.getByTestId('account-button').click()
      await expect(page.getByTestId('auth-modal').getByLabel('Password')).toBeVisible()
      found.push(...(await problems(page, 'login')))
    }
  }
  // The other sets have the same look as the first of each type (axe above); their tables' widths
  // differ.
  for (const path of sets) {
    await visit(page, path)
    found.push(...(await problems(page, path, { axe: false })))
  }
  expect(found).toEqual([])
})

test('checkout steps, confirmation, order page, account and order history fit and have no axe violation', async ({
  page,
  request,
}) => {
  const found: string[] = []
  await addVariantToCart(page, await pickProduct(request))
  await visit(page, '/cart')
  found.push(...(await problems(page, 'cart')))
  await visit(page, '/checkout')
  const form = page.getByTestId('checkout')
  found.push(...(await problems(page, 'checkout: personal details')))
  await fillPersonalStep(form, `a11y-${Date.now()}@example.com`, { createAccount: 'A11y-check-2026!' })
  // Each step's heading takes the focus, so a screen reader says where the shopper is.
  await expect(page.getByRole('heading', { name: 'Shipping' })).toBeFocused()
  found.push(...(await problems(page, 'checkout: shipping')))
  await fillAddress(form, KOLKATA_ADDRESS)
  const number = await placeCashOnDeliveryOrder(page, form, {
    onPayment: async () => {
      await expect(page.getByRole('heading', { name: 'Payment' })).toBeFocused()
      found.push(...(await problems(page, 'checkout: payment')))
    },
  })
  found.push(...(await problems(page, 'confirmation')))
  await page.getByTestId('order-page-link').click()
  await waitForHydration(page)
  found.push(...(await problems(page, 'order page')))
  for (const path of [
    '/my-account',
    '/my-account/credit-details',
    '/my-account/orders',
    `/my-account/orders/${number}`,
  ]) {
    await visit(page, path)
    // The history has loaded its order (a line with its price), so its card is what is measured.
    if (path === '/my-account/orders') await expect(page.getByTestId('order-row-line').first()).toBeVisible()
    if (path !== '/my-account/orders' && path.startsWith('/my-account/orders/'))
      await expect(page.getByTestId('single-order-line').first()).toBeVisible()
    found.push(...(await problems(page, path, { axe: path === '/my-account' })))
  }
  expect(found).toEqual([])
  // The single order is the history's card: its number, price and status in words; a pay-on-delivery
  // order still to be confirmed can be canceled there.
  await expect(page.getByTestId('single-order')).toContainText(`Order #${number}`)
  await expect(page.getByTestId('single-order-total')).toContainText('₹')
  await page.getByRole('button', { name: 'Cancel this order' }).click()
  await page.getByTestId('confirm-cancel').click()
  await expect(page.getByTestId('single-order-status')).toHaveText('Canceled')
  await expect(page.getByRole('button', { name: 'Cancel this order' })).toHaveCount(0)
})
