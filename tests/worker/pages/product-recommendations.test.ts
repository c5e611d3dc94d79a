// "Complete the look" on the product page: the product's own cross-sell/related/up-sell links first,
// in their order, only pieces a shopper can buy, then pieces by the same designer or from the same
// category ("You may also like" when the product has no usable link).
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { lookSkus } from '../../../worker/pages/product/recommendations'
import { productLink, setProductLinks } from '../../helpers/cart-fixtures'

interface Row {
  id: number
  sku: string
  url_path: string
  designer: number | null
  category: number | null
}

async function listedSimples(n: number): Promise<Row[]> {
  const { results } = await env.DB.prepare(
    `SELECT p.id, p.sku, p.url_path, json_extract(p.doc, '$.designer') AS designer,
       json_extract(p.doc, '$.category[0].category_id') AS category
     FROM products p JOIN inventory i ON i.sku = p.sku
     WHERE p.type_id = 'simple' AND p.status = 1 AND p.visibility = 4 AND i.qty > 0 AND i.is_in_stock = 1
     ORDER BY p.id LIMIT ?`,
  )
    .bind(n)
    .all<Row>()
  return results
}

/** The recommended skus in page order, and the section's heading. */
async function recommended(urlPath: string) {
  const html = await SELF.fetch(`https://shop.test/${urlPath}`).then((r) => r.text())
  const start = html.indexOf('data-testid="recommendations"')
  if (start < 0) return { title: null, skus: [] as string[] }
  const section = html.slice(start, html.indexOf('</section>', start))
  return {
    title: /<h2 id="recommendations-title">([^<]+)<\/h2>/.exec(section)?.[1] ?? null,
    skus: [...section.matchAll(/data-sku="([^"]+)"/g)].map((m) => m[1]),
  }
}

describe('complete the look', () => {
  it('orders links by kind then position, leaving out the product itself, repeats and other kinds', () => {
    expect(
      lookSkus({
        sku: 'A',
        product_links: [
          productLink('A', 'U1', 'upsell', 1),
          productLink('A', 'R2', 'related', 2),
          productLink('A', 'R1', 'related', 1),
          productLink('A', 'C1', 'crosssell', 5),
          productLink('A', 'A', 'related', 0),
          productLink('A', 'R1', 'upsell', 0),
          productLink('A', 'G1', 'associated', 0),
        ],
      }),
    ).toEqual(['C1', 'R1', 'R2', 'U1'])
  })

  it('shows the linked pieces first in their order, skipping one out of stock, then fills from the designer or category', async () => {
    const [product, first, second, soldOut] = (await listedSimples(4)) as [Row, Row, Row, Row]
    await env.DB.prepare('UPDATE inventory SET qty = 0, is_in_stock = 0 WHERE sku = ?')
      .bind(soldOut.sku)
      .run()
    await setProductLinks(product.sku, [
      productLink(product.sku, second.sku, 'related', 2),
      productLink(product.sku, soldOut.sku, 'crosssell', 1),
      productLink(product.sku, first.sku, 'related', 1),
      productLink(product.sku, 'NO-SUCH-SKU', 'crosssell', 2),
    ])
    const { title, skus } = await recommended(product.url_path)
    expect(title).toBe('Complete the look')
    expect(skus.slice(0, 2)).toEqual([first.sku, second.sku])
    expect(skus).not.toContain(soldOut.sku)
    expect(skus).not.toContain(product.sku)
    expect(skus).toHaveLength(4)
    expect(new Set(skus).size).toBe(4)
  })

  it('falls back to "You may also like" from the same designer or category without links', async () => {
    const rows = await listedSimples(8)
    const product = rows[5] as Row
    await setProductLinks(product.sku, [])
    const { title, skus } = await recommended(product.url_path)
    expect(title).toBe('You may also like')
    expect(skus.length).toBeGreaterThan(0)
    expect(skus).not.toContain(product.sku)
    const { results } = await env.DB.prepare(
      `SELECT sku, json_extract(doc, '$.designer') AS designer, doc FROM products WHERE sku IN (${skus.map(() => '?').join(',')})`,
    )
      .bind(...skus)
      .all<{ sku: string; designer: number | null; doc: string }>()
    for (const r of results) {
      const sameDesigner = product.designer != null && r.designer === product.designer
      const cats = (JSON.parse(r.doc).category as { category_id: number }[]).map((c) => c.category_id)
      expect(sameDesigner || cats.includes(product.category as number), r.sku).toBe(true)
    }
  })
})
