import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { firstListedDemoProduct } from '../../helpers/cart-fixtures'
import { decodeEntities } from '../../helpers/html'
import { api } from '../../helpers/user'

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

/** The product form's headline price in minor units ('₹24,797' → 2479700). */
function headlineMinor(html: string): number {
  const shown = /data-testid="price-final">([^<]*)</.exec(html)?.[1] ?? ''
  expect(shown).toMatch(/^₹[\d,]+(\.\d\d)?$/)
  return Math.round(Number(shown.replace(/[^\d.]/g, '')) * 100)
}

/** A new guest cart with `items` in it; its totals as the server prices them. */
async function cartWith(items: Array<Record<string, unknown>>) {
  const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result as string
  for (const cartItem of items) {
    const res = await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
  }
  const totals = await api(`/cart/totals?cartId=${cartId}`)
  expect(totals.status).toBe(200)
  return totals.json.result as {
    items: Array<{ sku: string; qty: number }>
    extension_attributes: { subtotal_minor: number }
  }
}

describe('a grouped set: what the page shows is what Add buys', () => {
  it('shows each piece with its picture and a quantity of 1, heads with the chosen pieces, and the bag costs that', async () => {
    const { doc, inStock } = await mixedGrouped()
    const html = decodeEntities(await (await SELF.fetch(`https://shop.test/p/${doc.sku}/${doc.slug}`)).text())
    const addable: string[] = []
    for (const sku of inStock) {
      const row = pieceRow(html, sku)
      const piece = await env.DB.prepare(
        "SELECT json_extract(doc, '$.thumbnail') AS image FROM products WHERE sku = ?",
      )
        .bind(sku)
        .first<{ image: string }>()
      // Its own picture, not the set's nor a placeholder.
      expect(row, sku).toContain(String(piece?.image).replace(/\.\w+$/, ''))
      if (row.includes('<input')) {
        expect(row).toMatch(/min="0"[^>]*value="1"/)
        addable.push(sku)
      }
    }
    expect(addable.length).toBeGreaterThan(0)
    const shown = headlineMinor(html)
    const totals = await cartWith(addable.map((sku) => ({ sku, qty: 1, parentSku: doc.sku })))
    expect(totals.items.map((i) => i.sku).sort()).toEqual([...addable].sort())
    expect(totals.extension_attributes.subtotal_minor).toBe(shown)
  })
})

interface BundleDoc {
  sku: string
  slug: string
  bundle_options: Array<{
    option_id: number
    product_links: Array<{ id: number; sku: string; is_default: boolean }>
  }>
}

describe('a bundle page', () => {
  it('marks a piece out of stock and cannot choose it, starts from pieces in stock, and the bag costs what the page shows', async () => {
    const doc = await firstListedDemoProduct<BundleDoc>('bundle')
    const [first, second] = doc.bundle_options
    if (!first || !second) throw new Error('the demo bundle has two options')
    const preferred = first.product_links.find((l) => l.is_default) ?? first.product_links[0]
    const other = first.product_links.find((l) => l !== preferred)
    if (!preferred || !other) throw new Error('the demo bundle offers two earrings')
    await env.DB.batch([
      env.DB.prepare('UPDATE inventory SET qty = 0, is_in_stock = 0 WHERE sku = ?').bind(preferred.sku),
      env.DB.prepare('UPDATE inventory SET qty = 5, is_in_stock = 1 WHERE sku IN (?, ?)').bind(
        other.sku,
        second.product_links[0]?.sku,
      ),
    ])
    const html = decodeEntities(await (await SELF.fetch(`https://shop.test/p/${doc.sku}/${doc.slug}`)).text())
    const link = (sku: string) =>
      new RegExp(`<label[^>]*data-testid="bundle-link" data-sku="${sku}"[^>]*>[\\s\\S]*?</label>`).exec(
        html,
      )?.[0] ?? ''
    expect(link(preferred.sku)).toContain('data-out-of-stock=""')
    expect(link(preferred.sku)).toMatch(/disabled=""/)
    expect(link(preferred.sku)).toContain('Out Of Stock')
    expect(link(preferred.sku)).not.toMatch(/checked=""/)
    // The shop starts from the earring in stock; the set is in stock and costs what those pieces cost.
    expect(link(other.sku)).toMatch(/checked=""/)
    expect(link(other.sku)).toMatch(/<img src=/)
    expect(html).toMatch(/data-testid="product-stock"><span class="stock stock--in">/)
    const chosenBag = second.product_links.find((l) => link(l.sku).includes('checked=""'))
    if (!chosenBag) throw new Error('a bag is chosen')
    const totals = await cartWith([
      {
        sku: doc.sku,
        qty: 1,
        product_option: {
          extension_attributes: {
            bundle_options: [
              { option_id: first.option_id, option_qty: 1, option_selections: [other.id] },
              { option_id: second.option_id, option_qty: 1, option_selections: [chosenBag.id] },
            ],
          },
        },
      },
    ])
    expect(totals.extension_attributes.subtotal_minor).toBe(headlineMinor(html))
  })
})
