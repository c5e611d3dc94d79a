// A cart read back from the server (a bag opened on another device, or merged at sign-in) names
// each line's picture and product page, as the product page adds them: a variant's own picture and
// page; a piece chosen on its grouped set's page, its picture and the set's page (a set that does
// not hold the piece is not believed: the piece keeps its own page).
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { api } from '../../../helpers/user'

interface Doc {
  sku: string
  slug: string
  image?: string
  thumbnail?: string
  configurable_children: Array<{ sku: string; image?: string; status?: number }>
  product_links: Array<{ linked_product_sku: string }>
}

const docOf = async (where: string) => {
  const row = await env.DB.prepare(`SELECT doc FROM products WHERE ${where} ORDER BY id LIMIT 1`).first<{
    doc: string
  }>()
  if (!row) throw new Error(`the demo catalogue has a product where ${where}`)
  return JSON.parse(row.doc) as Doc
}

describe('a cart pulled from the server', () => {
  it("names each line's picture and page: a variant's own, a set's piece the set's", async () => {
    const kurta = await docOf("type_id = 'configurable' AND status = 1")
    const child = kurta.configurable_children.find((c) => c.status !== 2 && c.image)
    if (!child?.image) throw new Error('a variant with its own picture')
    const set = await docOf("type_id = 'grouped' AND status = 1")
    const pieceSku = set.product_links[0]?.linked_product_sku as string
    const piece = await docOf(`sku = '${pieceSku.replace(/'/g, "''")}'`)
    await env.DB.prepare('UPDATE inventory SET qty = 10, is_in_stock = 1 WHERE sku IN (?, ?)')
      .bind(child.sku, pieceSku)
      .run()

    const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result as string
    for (const cartItem of [
      { sku: child.sku, qty: 1 },
      { sku: pieceSku, qty: 1, parentSku: set.sku },
    ]) {
      const res = await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem } })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
    }
    const pulled = (await api(`/cart/pull?token=&cartId=${cartId}`)).json.result as Array<{
      sku: string
      extension_attributes?: { image?: string; url_path?: string }
    }>
    const look = (sku: string) => pulled.find((l) => l.sku === sku)?.extension_attributes
    expect(look(child.sku)).toMatchObject({
      image: child.image,
      url_path: `/p/${encodeURIComponent(kurta.sku)}/${kurta.slug}/${encodeURIComponent(child.sku)}`,
    })
    expect(look(pieceSku)).toMatchObject({
      image: piece.image ?? piece.thumbnail,
      url_path: `/p/${encodeURIComponent(set.sku)}/${set.slug}`,
    })
  })

  it('believes a set only when it holds the piece', async () => {
    const set = await docOf("type_id = 'grouped' AND status = 1")
    const other = await docOf(
      `type_id = 'simple' AND status = 1 AND visibility = 4 AND sku NOT IN (${set.product_links
        .map((l) => `'${l.linked_product_sku.replace(/'/g, "''")}'`)
        .join(',')})`,
    )
    await env.DB.prepare('UPDATE inventory SET qty = 10, is_in_stock = 1 WHERE sku = ?').bind(other.sku).run()
    const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result as string
    const res = await api(`/cart/update?token=&cartId=${cartId}`, {
      body: { cartItem: { sku: other.sku, qty: 1, parentSku: set.sku } },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const pulled = (await api(`/cart/pull?token=&cartId=${cartId}`)).json.result as Array<{
      sku: string
      extension_attributes?: { url_path?: string }
    }>
    expect(pulled.find((l) => l.sku === other.sku)?.extension_attributes?.url_path).toBe(
      `/p/${encodeURIComponent(other.sku)}/${other.slug}`,
    )
  })
})
