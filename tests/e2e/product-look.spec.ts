/**
 * "Complete the look" on a product with links: the linked pieces are shown on the product page,
 * server-rendered in their order, each leading to its own page.
 */
import { expect, test } from '@playwright/test'
import { d1, purgeCachedPages, sqlText } from './pages'

interface Row {
  sku: string
  url_path: string
  name: string
}

test('complete the look shows a product’s linked pieces, in order, and leads to them', async ({
  page,
  request,
}) => {
  // The last listed in-stock simples: pieces few other browser tests open.
  const rows = d1<Row>(
    `SELECT p.sku, p.url_path, p.name FROM products p JOIN inventory i ON i.sku = p.sku
     WHERE p.type_id = 'simple' AND p.status = 1 AND p.visibility = 4 AND i.qty > 0 AND i.is_in_stock = 1
     ORDER BY p.id DESC LIMIT 3`,
  )
  const [product, first, second] = rows as [Row, Row, Row]
  /** Writes the product's links as an import does: the rows, the catalogue version, then a purge. */
  const setLinks = async (links: unknown[]) => {
    d1(
      `UPDATE products SET doc = json_set(doc, '$.product_links', json(${sqlText(JSON.stringify(links))})) WHERE sku = ${sqlText(product.sku)}`,
    )
    d1(`UPDATE search_meta SET value = value + 1 WHERE key = 'version'`)
    // Without the purge, the copy in the output cache is served (stale, while it revalidates).
    await purgeCachedPages(request, [`P${product.sku}`])
  }
  // The page without links, as shoppers saw it before the edit: now in the output cache, as any
  // earlier visit or prefetch may have left it (and as an earlier try of this test leaves it).
  await setLinks([])
  await page.goto(`/${product.url_path}`)
  await expect(page.getByTestId('recommendations')).toHaveAttribute('data-linked', 'false')
  await setLinks(
    [second, first].map((r, i) => ({
      sku: product.sku,
      link_type: i === 0 ? 'related' : 'crosssell',
      linked_product_sku: r.sku,
      linked_product_type: 'simple',
      position: 1,
    })),
  )

  await page.goto(`/${product.url_path}`)
  const section = page.getByRole('region', { name: 'Complete the look' })
  await expect(section).toBeVisible()
  const names = section.getByRole('link')
  // The cross-sell first, then the related piece; then pieces by the same designer or category.
  await expect(names.nth(0)).toContainText(first.name)
  await expect(names.nth(1)).toContainText(second.name)
  await names.nth(0).click()
  await expect(page.getByTestId('product-name')).toHaveText(first.name)
})
