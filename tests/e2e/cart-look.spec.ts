/**
 * "Complete the look" in the cart: the bag's product's linked pieces appear first under the bag once
 * it has painted, never the piece already in it; a simple piece is added in one step, a piece with
 * sizes after choosing one, and each added piece leaves the suggestions.
 */
import { expect, test } from '@playwright/test'
import { d1, sqlText, waitForHydration } from './pages'

interface Row {
  sku: string
  url_path: string
  name: string
}

test('the cart offers the look of what is in the bag, each piece added in one step', async ({ page }) => {
  // Pieces other browser tests leave alone (listed, in-stock simples past the ones they take).
  const [product, piece] = d1<Row>(
    `SELECT p.sku, p.url_path, p.name FROM products p JOIN inventory i ON i.sku = p.sku
     WHERE p.type_id = 'simple' AND p.status = 1 AND p.visibility = 4 AND i.qty > 5 AND i.is_in_stock = 1
       AND json_array_length(json_extract(p.doc, '$.custom_options')) IS NOT 1
     ORDER BY p.id DESC LIMIT 2 OFFSET 5`,
  ) as [Row, Row]
  const [sized] = d1<Row>(
    `SELECT p.sku, p.url_path, p.name FROM products p
     WHERE p.type_id = 'configurable' AND p.status = 1 AND p.visibility = 4
       AND (SELECT COUNT(*) FROM json_each(json_extract(p.doc, '$.configurable_children')) c
            JOIN inventory i ON i.sku = json_extract(c.value, '$.sku') WHERE i.qty > 5 AND i.is_in_stock = 1) >= 2
     ORDER BY p.id DESC LIMIT 1`,
  ) as [Row]
  const links = [
    { link_type: 'crosssell', linked_product_sku: piece.sku, linked_product_type: 'simple', position: 1 },
    { link_type: 'related', linked_product_sku: sized.sku, linked_product_type: 'configurable', position: 1 },
  ].map((l) => ({ sku: product.sku, ...l }))
  d1(
    `UPDATE products SET doc = json_set(doc, '$.product_links', json(${sqlText(JSON.stringify(links))})) WHERE sku = ${sqlText(product.sku)}`,
  )
  d1(`UPDATE search_meta SET value = value + 1 WHERE key = 'version'`)

  await page.goto(`/${product.url_path}`)
  await waitForHydration(page)
  await page.getByTestId('add-to-cart').click()
  await expect(page.getByTestId('minicart-count')).toHaveText('1')

  await page.goto('/cart')
  await expect(page.getByTestId('cart-line')).toHaveCount(1)
  const look = page.getByRole('region', { name: 'Complete the look' })
  // The two linked pieces first; the same designer's or category's fill the places left.
  await expect(look.getByRole('listitem').nth(0)).toHaveAttribute('data-sku', piece.sku)
  await expect(look.getByRole('listitem').nth(1)).toHaveAttribute('data-sku', sized.sku)
  await expect(look.locator(`[data-sku="${product.sku}"]`)).toHaveCount(0)

  await look.getByRole('button', { name: `Add to bag: ${piece.name}` }).click()
  await expect(page.getByTestId('cart-line')).toHaveCount(2)
  await expect(look.locator(`[data-sku="${piece.sku}"]`)).toHaveCount(0)

  // The piece with sizes asks for one first, then goes in.
  const add = look.getByRole('button', { name: `Add to bag: ${sized.name}` })
  const size = look.locator(`[data-sku="${sized.sku}"] select`)
  if ((await size.inputValue()) === '') {
    await add.click()
    await expect(look.getByRole('alert')).toContainText('first')
    const open = await size.locator('option:not([disabled]):not([value=""])').first().getAttribute('value')
    await size.selectOption(open ?? '')
  }
  await add.click()
  await expect(page.getByTestId('cart-line')).toHaveCount(3)
  for (const sku of [product.sku, piece.sku, sized.sku])
    await expect(page.locator(`[data-testid="cart-look"] [data-sku="${sku}"]`)).toHaveCount(0)
})
