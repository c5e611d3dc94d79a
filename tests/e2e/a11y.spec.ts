/**
 * axe-core on every page type a shopper meets, at desktop (1366 px) and phone (390 px) width, with
 * no violation. axe-core comes from the npm registry (a devDependency) and is injected from
 * node_modules: nothing is fetched from a CDN. Each page type is loaded once; both widths are
 * checked on that load by resizing the window (the layout answers the width through CSS alone).
 * The signed-in pages (checkout steps, confirmation, order page, account) follow one real checkout.
 */
import { createRequire } from 'node:module'
import { expect, type Page, test } from '@playwright/test'
import {
  addVariantToCart,
  fillPersonalStep,
  fillShippingAddress,
  findProducts,
  ordersFromOwnAddresses,
  pickProduct,
  placeCashOnDeliveryOrder,
} from './checkout-fixtures'
import { waitForHydration } from './pages'

test.describe.configure({ mode: 'serial' })
// Two dozen axe runs each: slower than one journey, not than the tier.
test.setTimeout(240_000)
test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const WIDTHS = [1366, 390] as const

interface AxeResult {
  violations: { id: string; nodes: { target: string[] }[] }[]
}

/** axe-core's violations on the page as it stands, at each width: "label @ width: rule ×n (first target)". */
async function violations(page: Page, label: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE })
  const out: string[] = []
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
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

test('public page types have no axe violation at 1366 and 390 px', async ({ page, request }) => {
  const pages: [string, string][] = [
    ['home', '/'],
    ['category', '/c/women'],
    ['product (configurable)', (await pickProduct(request)).url],
    ['product (simple)', await productOf(request, 'simple')],
    ['product (bundle)', await productOf(request, 'bundle')],
    ['product (grouped)', await productOf(request, 'grouped')],
    ['search', '/search?q=silk'],
    ['CMS page', '/i/about-us'],
    ['404', '/this-page-does-not-exist'],
    ['wishlist', '/wishlist'],
    ['compare', '/compare'],
    ['cart (empty)', '/cart'],
  ]
  const found: string[] = []
  for (const [label, path] of pages) {
    await visit(page, path)
    found.push(...(await violations(page, label)))
    if (label === 'home') {
      // The sign-in dialog, over the page it opened on.
      await page.evaluate(() =>
        window.dispatchEvent(new CustomEvent('auth:open', { detail: { mode: 'login' } })),
      )
      await expect(page.getByTestId('auth-modal').getByLabel('Password')).toBeVisible()
      found.push(...(await violations(page, 'login')))
    }
  }
  expect(found).toEqual([])
})

test('checkout steps, confirmation, order page and account have no axe violation at 1366 and 390 px', async ({
  page,
  request,
}) => {
  const found: string[] = []
  await addVariantToCart(page, await pickProduct(request))
  await visit(page, '/cart')
  found.push(...(await violations(page, 'cart')))
  await visit(page, '/checkout')
  const form = page.getByTestId('checkout')
  found.push(...(await violations(page, 'checkout: personal details')))
  await fillPersonalStep(form, `a11y-${Date.now()}@example.com`, { createAccount: 'A11y-check-2026!' })
  await expect(page.getByRole('heading', { name: 'Shipping' })).toBeFocused()
  found.push(...(await violations(page, 'checkout: shipping')))
  await fillShippingAddress(form)
  await placeCashOnDeliveryOrder(page, form, {
    onPayment: async () => {
      found.push(...(await violations(page, 'checkout: payment')))
    },
  })
  found.push(...(await violations(page, 'confirmation')))
  await page.getByTestId('order-page-link').click()
  await waitForHydration(page)
  found.push(...(await violations(page, 'order page')))
  await visit(page, '/my-account')
  found.push(...(await violations(page, 'account')))
  expect(found).toEqual([])
})
