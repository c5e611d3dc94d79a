/**
 * Every back-office screen on a phone: no screen is wider than a 390 px window (tables scroll
 * inside themselves, forms wrap). With ADMIN_SHOTS=1 it also writes a full-page screenshot of each
 * screen at 1366 and 390 px into .tmp/admin-shots/ (not part of the default run's work), and
 * checks the 1366 px window too.
 */
import { mkdirSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { createTestOperator, d1, overflow, signInOperator } from './pages'

const SHOTS = process.env.ADMIN_SHOTS === '1' ? '.tmp/admin-shots' : null

test.beforeAll(() => createTestOperator())

/** Every screen of the back office, with a record of each kind the demo shop holds. */
function screens(): [string, string][] {
  const order = d1<{ increment_id: string }>(
    'SELECT increment_id FROM orders ORDER BY entity_id DESC LIMIT 1',
  )[0]
  const product = d1<{ id: number }>(
    "SELECT id FROM products WHERE type_id = 'configurable' AND status = 1 ORDER BY id LIMIT 1",
  )[0]
  const cms = d1<{ id: number }>("SELECT id FROM cms_pages WHERE identifier = 'about-us'")[0]
  return [
    ['dashboard', '/admin'],
    ['orders', '/admin/orders'],
    ...(order ? ([['order', `/admin/orders/${order.increment_id}`]] as [string, string][]) : []),
    ['fulfilment', '/admin/fulfilment'],
    ['gst-reports', '/admin/tax'],
    ['reviews', '/admin/reviews'],
    ['catalogue', '/admin/products?q=kurta'],
    ['product-new', '/admin/products/new?type=configurable'],
    ['product-new-bundle', '/admin/products/new?type=bundle'],
    ...(product ? ([['product-edit', `/admin/products/${product.id}/edit`]] as [string, string][]) : []),
    ['bulk', '/admin/products/bulk'],
    ['categories', '/admin/categories'],
    ['size-charts', '/admin/size-charts'],
    ['customers', '/admin/customers'],
    ['mails', '/admin/mail'],
    ['coupons', '/admin/coupons'],
    ['content', '/admin/content'],
    ...(cms ? ([['content-editor', `/admin/content/page/${cms.id}`]] as [string, string][]) : []),
    ['home', '/admin/home?q=saree'],
    ['media', '/admin/media'],
    ['cod-rules', '/admin/rules'],
    ['operations', '/admin/operations'],
    ['field-data', '/admin/field-data'],
    ['operators', '/admin/operators'],
    ['audit', '/admin/audit'],
  ]
}

test('every back-office screen fits a 390 px phone', async ({ page }) => {
  test.setTimeout(120_000)
  if (SHOTS) mkdirSync(SHOTS, { recursive: true })
  await page.setViewportSize({ width: 390, height: 844 })
  if (SHOTS) {
    await page.goto('/admin/login')
    await page.screenshot({ path: `${SHOTS}/sign-in-390.png`, fullPage: true })
  }
  await signInOperator(page)
  const wide: string[] = []
  for (const [name, path] of screens()) {
    await page.setViewportSize({ width: 390, height: 844 })
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(200)
    const o = await overflow(page)
    if (o.extra > 0) wide.push(`${path}: ${o.extra} px too wide (${o.past.join(', ')})`)
    if (SHOTS) {
      await page.screenshot({ path: `${SHOTS}/${name}-390.png`, fullPage: true })
      await page.setViewportSize({ width: 1366, height: 900 })
      const desk = await overflow(page)
      if (desk.extra > 0) wide.push(`${path} at 1366 px: ${desk.extra} px too wide (${desk.past.join(', ')})`)
      await page.screenshot({ path: `${SHOTS}/${name}-1366.png`, fullPage: true })
    }
  }
  expect(wide).toEqual([])
})
