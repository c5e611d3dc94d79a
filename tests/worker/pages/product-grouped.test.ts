import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { decodeEntities } from '../../helpers/html'

interface Doc {
  sku: string
  slug: string
  type_id: string
  product_links: Array<{ linked_product_sku: string }>
}

/** A grouped product of the demo catalogue with pieces both in and out of stock (live inventory). */
async function mixedGrouped(): Promise<{ doc: Doc; out: string[]; inStock: string[] }> {
  const rows = await env.DB.prepare(
    "SELECT doc FROM products WHERE json_extract(doc, '$.type_id') = 'grouped'",
  ).all<{ doc: string }>()
  for (const r of rows.results) {
    const doc = JSON.parse(r.doc) as Doc
    const out: string[] = []
    const inStock: string[] = []
    for (const l of doc.product_links) {
      const inv = await env.DB.prepare('SELECT qty, is_in_stock FROM inventory WHERE sku = ?')
        .bind(l.linked_product_sku)
        .first<{ qty: number; is_in_stock: number }>()
      ;(inv && inv.qty > 0 && inv.is_in_stock === 1 ? inStock : out).push(l.linked_product_sku)
    }
    if (out.length && inStock.length) return { doc, out, inStock }
  }
  throw new Error('the demo catalogue has no grouped product with an out-of-stock piece')
}

function pieceRow(html: string, sku: string): string {
  const m = html.match(
    new RegExp(`<tr[^>]*data-testid="grouped-piece" data-sku="${sku}"[^>]*>[\\s\\S]*?</tr>`),
  )
  return m?.[0] ?? ''
}

describe('a grouped product page', () => {
  it('marks each out-of-stock piece and offers no quantity for it; the others keep theirs', async () => {
    const { doc, out, inStock } = await mixedGrouped()
    const res = await SELF.fetch(`https://shop.test/p/${doc.sku}/${doc.slug}`)
    expect(res.status).toBe(200)
    const html = decodeEntities(await res.text())
    for (const sku of out) {
      const row = pieceRow(html, sku)
      expect(row, sku).toContain('data-out-of-stock=""')
      expect(row).toContain('badge--oos')
      expect(row).not.toContain('<input')
    }
    for (const sku of inStock) {
      const row = pieceRow(html, sku)
      expect(row, sku).not.toContain('data-out-of-stock')
      const piece = await env.DB.prepare('SELECT doc FROM products WHERE sku = ?')
        .bind(sku)
        .first<{ doc: string }>()
      const pieceDoc = JSON.parse(piece?.doc ?? '{}') as {
        slug: string
        custom_options?: Array<{ is_require?: boolean }>
      }
      if ((pieceDoc.custom_options ?? []).some((o) => o.is_require)) {
        // Its own options (an engraving) are chosen on its page: a link there, no quantity here.
        expect(row).toContain('data-needs-options=""')
        expect(row).toContain(`href="/p/${sku}/${pieceDoc.slug}"`)
        expect(row).not.toContain('<input')
      } else expect(row).toContain('<input')
    }
  })
})
