/**
 * Two tabs of the shop: a product added in one shows in the other's mini-cart count at once,
 * without a reload (the cart engine announces changes on a BroadcastChannel).
 */
import { expect, type Page, test } from '@playwright/test'
import { pickProduct } from './checkout-fixtures'
import { storedRecord, waitForHydration } from './pages'

// A tab is ready when its page has registered its service worker (`html[data-sw]`):
// playwright.config.ts blocks the worker in specs that do not need it.
test.use({ serviceWorkers: 'allow' })

/**
 * True once a tab's cart change has been through the server: every stored line carries the server
 * cart's item id and the synced hash is stored (the last write of a server round, after totals).
 * Until then the tab has a change of its own in flight and, by design, does not take over another
 * tab's cart (its own next sync reconciles them).
 */
async function cartSettled(page: Page): Promise<boolean> {
  const [lines, hash] = await Promise.all([
    storedRecord(page, 'cart', 'current-cart'),
    storedRecord(page, 'cart', 'current-cart-hash'),
  ])
  return (
    typeof hash === 'string' &&
    Array.isArray(lines) &&
    lines.length > 0 &&
    lines.every((l: { server_item_id?: unknown }) => l.server_item_id != null)
  )
}

test('a cart change in one tab shows in the other tab without a reload', async ({ context, request }) => {
  const product = await pickProduct(request)
  const variant = product.variants[0]
  const first = await context.newPage()
  const second = await context.newPage()
  await second.goto('/')
  await waitForHydration(second)
  await expect(second.getByTestId('minicart-count')).toHaveText('0')
  // The second tab's engine must be running (it starts when the page is idle).
  await expect(second.locator('html[data-sw]')).toHaveCount(1)

  await first.goto(product.url)
  await waitForHydration(first)
  for (const [label, value] of variant?.options ?? [])
    await first.getByRole('button', { name: `${label} ${value}`, exact: true }).click()
  await first.getByTestId('add-to-cart').click()
  await expect(first.getByTestId('minicart-count')).toHaveText('1')

  await expect(second.getByTestId('minicart-count')).toHaveText('1')
  // The first tab's add has finished with the server before the second tab changes the cart: the
  // test is about one tab following another's change, not two tabs editing at once.
  await expect
    .poll(() => cartSettled(first), { message: 'the first tab’s add reached the server' })
    .toBe(true)
  // And back: removing it in the second tab empties the first one's count.
  await second.goto('/cart')
  await waitForHydration(second)
  await expect(second.getByTestId('minicart-count')).toHaveText('1')
  await second.getByTestId('line-remove').first().click()
  await second.getByRole('button', { name: 'Yes, remove' }).click()
  await expect(second.getByTestId('minicart-count')).toHaveText('0')
  await expect(first.getByTestId('minicart-count')).toHaveText('0')
})
