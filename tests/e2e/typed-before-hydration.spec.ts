/**
 * What a shopper enters in a server-rendered field before the page's code has arrived is kept: on a
 * slow network the product page's form is on screen before its island hydrates, and a quantity
 * typed there is the quantity Add puts in the bag, not the one the server rendered.
 */
import { expect, test } from '@playwright/test'
import { d1, holdBack, waitForHydration } from './pages'

test('a quantity typed before the product form hydrates is the quantity added', async ({ page }) => {
  const [product] = d1<{ url_path: string }>(
    `SELECT p.url_path FROM products p JOIN inventory i ON i.sku = p.sku
     WHERE p.type_id = 'simple' AND p.status = 1 AND p.visibility = 4 AND i.qty >= 5 AND i.is_in_stock = 1
       AND json_array_length(json_extract(p.doc, '$.custom_options')) = 0
     ORDER BY p.id LIMIT 1`,
  )
  if (!product) throw new Error('no simple product in stock in the demo catalogue')
  // A slow network: the page's code is held back until the shopper has typed.
  const { hold, release } = holdBack()
  await page.route('**/build/product-*.js', async (route) => {
    await hold
    await route.continue()
  })
  await page.goto(`/${product.url_path}`, { waitUntil: 'commit' })
  await page.getByTestId('product-qty').fill('3')
  const form = page.locator('[data-island="product-form"]')
  // Typed while the form was still the server's markup.
  expect(await form.getAttribute('data-hydrated')).toBeNull()
  release()
  await waitForHydration(page)
  await expect(page.getByTestId('product-qty')).toHaveValue('3')
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('3')
})
