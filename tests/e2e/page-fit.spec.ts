/**
 * Every page type as a shopper meets it on a phone, a small phone and a tablet: no page is wider
 * than the window (nothing to scroll sideways, no form cut off at its right edge), and axe-core
 * (from the npm registry, injected by Playwright; nothing fetched from a CDN) finds no violation.
 * The pages of a signed-in shopper with an order are visited after a real checkout.
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
import { waitForHydration } from './pages'

test.describe.configure({ mode: 'serial' })
test.beforeEach(({ context }) => ordersFromOwnAddresses(context))

const WIDTHS = [320, 390, 768] as const
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

/** How much wider than the window the page is, and the elements that reach past its right edge. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth
    const past = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((e) => {
        const b = e.getBoundingClientRect()
        return b.width > 0 && b.right > vw + 1 && getComputedStyle(e).position !== 'fixed'
      })
      .slice(0, 3)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
    return { extra: document.documentElement.scrollWidth - vw, past }
  })
}

/** axe-core's violations on the page as it stands: rule id and how many nodes. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE })
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (c?: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>
        }
      }
    ).axe
    const r = await axe.run(document)
    return r.violations.map((v) => `${v.id} ×${v.nodes.length} (${v.nodes[0]?.target.join(' ')})`)
  })
  return found
}

async function expectFits(page: Page, label: string, withAxe: boolean) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    const o = await overflow(page)
    expect(o.extra, `${label} at ${width} px: ${o.past.join(', ')}`).toBeLessThanOrEqual(0)
  }
  if (withAxe) {
    for (const width of [390, 1366]) {
      await page.setViewportSize({ width, height: 800 })
      expect(await axeViolations(page), `${label} at ${width} px`).toEqual([])
    }
  }
}

async function visit(page: Page, path: string) {
  await page.goto(path)
  await waitForHydration(page)
}

test('public page types fit 320, 390 and 768 px', async ({ page, request }) => {
  const product = await pickProduct(request)
  // Every grouped and bundle set: the pieces' table is the widest part of a product page.
  const sets = (await findProducts<{ sku: string; slug: string }>(request, ['grouped', 'bundle'], [4])).map(
    (p) => `/p/${p.sku}/${p.slug}`,
  )
  const pages = [
    '/',
    '/c/women',
    product.url,
    ...sets,
    '/search?q=silk',
    '/i/about-us',
    '/store-locator',
    '/this-page-does-not-exist',
    '/wishlist',
    '/compare',
    '/cart',
  ]
  for (const path of pages) {
    await visit(page, path)
    // The history has loaded its order (a line with its price), so its card is what is measured.
    if (path === '/my-account/orders') await expect(page.getByTestId('order-row-line').first()).toBeVisible()
    await expectFits(page, path, false)
  }
})

test('a shopper’s checkout steps, confirmation, order page, account and order history fit', async ({
  page,
  request,
}) => {
  const email = `fit-${Date.now()}@example.com`
  await addVariantToCart(page, await pickProduct(request))
  await visit(page, '/checkout')
  const form = page.getByTestId('checkout')
  await expectFits(page, 'checkout: personal details', false)
  await fillPersonalStep(form, email, { createAccount: 'Fit-check-2026!' })
  // Each step's heading takes the focus, so a screen reader says where the shopper is.
  await expect(page.getByRole('heading', { name: 'Shipping' })).toBeFocused()
  await expectFits(page, 'checkout: shipping', false)
  await fillAddress(form, KOLKATA_ADDRESS)
  let number = ''
  await placeCashOnDeliveryOrder(page, form, {
    onPayment: async () => {
      await expect(page.getByRole('heading', { name: 'Payment' })).toBeFocused()
      await expectFits(page, 'checkout: payment', false)
    },
  }).then((n) => {
    number = n
  })
  await expectFits(page, 'confirmation', false)
  await page.getByTestId('order-page-link').click()
  await waitForHydration(page)
  await expectFits(page, `order page ${number}`, false)
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
    await expectFits(page, path, false)
  }
  // The single order is the history's card: its number, price and status in words; a pay-on-delivery
  // order still to be confirmed can be canceled there.
  await expect(page.getByTestId('single-order')).toContainText(`Order #${number}`)
  await expect(page.getByTestId('single-order-total')).toContainText('₹')
  await page.getByRole('button', { name: 'Cancel this order' }).click()
  await page.getByTestId('confirm-cancel').click()
  await expect(page.getByTestId('single-order-status')).toHaveText('Canceled')
  await expect(page.getByRole('button', { name: 'Cancel this order' })).toHaveCount(0)
})
