// "Complete the look" in the cart (/api/cart/look): the bag's products' linked pieces in the product
// page's order, then the same designer's or category's, never a piece already in the bag (nor one
// whose variant is),
// sizes to choose for a configurable piece, bounded input; no cart is ever read, so another
// shopper's cart named in the request changes nothing.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { LOOK_BAG_SKUS } from '../../../../worker/api/cart/look'
import { productLink, setProductLinks } from '../../../helpers/cart-fixtures'
import { api } from '../../../helpers/user'

interface Row {
  sku: string
}

const look = async (skus: string[], extra = '') => {
  const res = await api(`/cart/look?sku=${encodeURIComponent(skus.join(','))}${extra}`)
  return res
}
const skusOf = (res: { json: { result: { items: { sku: string }[] } } }) =>
  res.json.result.items.map((i) => i.sku)

let s: string[] = []
let conf: { sku: string; child: string }

describe('complete the look in the cart', () => {
  beforeAll(async () => {
    // Listed, in-stock simple pieces from the far end of the catalogue (no other test links them).
    const { results } = await env.DB.prepare(
      `SELECT p.sku FROM products p JOIN inventory i ON i.sku = p.sku
       WHERE p.type_id = 'simple' AND p.status = 1 AND p.visibility = 4 AND i.qty > 0 AND i.is_in_stock = 1
       ORDER BY p.id DESC LIMIT 7`,
    ).all<Row>()
    s = results.map((r) => r.sku)
    const c = await env.DB.prepare(
      `SELECT p.sku, json_extract(p.doc, '$.configurable_children[0].sku') AS child FROM products p
       WHERE p.type_id = 'configurable' AND p.status = 1 AND p.visibility = 4
         AND EXISTS (SELECT 1 FROM inventory i WHERE i.sku = json_extract(p.doc, '$.configurable_children[0].sku') AND i.qty > 0 AND i.is_in_stock = 1)
       ORDER BY p.id DESC LIMIT 1`,
    ).first<{ sku: string; child: string }>()
    if (!c) throw new Error('no configurable piece in stock')
    conf = c
    const [a, b, c1, d, e, f, g] = s as [string, string, string, string, string, string, string]
    await setProductLinks(a, [
      productLink(a, c1, 'related', 1),
      productLink(a, b, 'crosssell', 2),
      productLink(a, conf.sku, 'upsell', 1, 'configurable'),
      productLink(a, a, 'crosssell', 1),
    ])
    await setProductLinks(b, [productLink(b, a, 'crosssell', 1), productLink(b, d, 'related', 1)])
    await setProductLinks(f, [productLink(f, g, 'crosssell', 1)])
    void e
  })

  it("offers the bag's linked pieces in the product page's order, with price and sizes", async () => {
    const [a, b, c1] = s as [string, string, string]
    const res = await look([a])
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    // The linked pieces first; the fourth place is the fallback's (same designer or category).
    expect(skusOf(res).slice(0, 3)).toEqual([b, c1, conf.sku])
    expect(res.json.result.linked).toBe(true)
    const piece = res.json.result.items[2]
    expect(piece.formatted).toMatch(/₹/)
    expect(piece.price).toBeGreaterThan(0)
    expect(piece.offer.kind).toBe('sizes')
    expect(piece.offer.choices.map((x: { sku: string }) => x.sku)).toContain(conf.child)
    expect(res.json.result.items[0].offer).toEqual({ kind: 'piece', sku: b })
  })

  it('never offers a piece already in the bag, nor one whose variant is', async () => {
    const [a, b, c1, d] = s as [string, string, string, string]
    // b is in the bag: its own link to a (also in the bag) is left out, its link to d is offered.
    const both = skusOf(await look([a, b]))
    expect(both.slice(0, 3)).toEqual([c1, conf.sku, d])
    expect(both).not.toContain(a)
    expect(both).not.toContain(b)
    // A variant of the configurable piece in the bag (the line's sku) keeps its parent out.
    const withVariant = skusOf(await look([a, conf.child]))
    expect(withVariant.slice(0, 2)).toEqual([b, c1])
    expect(withVariant).not.toContain(conf.sku)
    expect(withVariant).not.toContain(a)
  })

  it("without linked pieces offers the same designer's or category's, never the bag's; nothing for an unknown or empty bag", async () => {
    const [, , , , e] = s as [string, string, string, string, string]
    const res = await look([e])
    expect(res.json.result.linked).toBe(false)
    expect(skusOf(res).length).toBeGreaterThan(0)
    expect(skusOf(res)).not.toContain(e)
    expect(skusOf(await look(['NO-SUCH-SKU']))).toEqual([])
    expect(skusOf(await api('/cart/look?sku=').then((r) => r))).toEqual([])
  })

  it("reads no cart: another shopper's cart named in the request changes nothing", async () => {
    const [a, , , , , f] = s as [string, string, string, string, string, string]
    const created = await api('/cart/create?token=', { method: 'POST' })
    const theirs = created.json.result as string
    const added = await api(`/cart/update?token=&cartId=${theirs}`, {
      body: { cartItem: { sku: f, qty: 1 } },
    })
    expect(added.status).toBe(200)
    const plain = await look([a])
    const named = await look([a], `&cartId=${theirs}&token=`)
    expect(named.status).toBe(200)
    // The stranger's bag (f, whose look is g) changes nothing in this answer.
    expect(named.json).toEqual(plain.json)
  })

  it('refuses, in words, a request naming too many skus or an overlong one', async () => {
    const many = Array.from({ length: LOOK_BAG_SKUS + 1 }, (_, i) => `SKU-${i}`)
    const tooMany = await look(many)
    expect(tooMany.status).toBe(400)
    expect(typeof tooMany.json.result).toBe('string')
    expect(tooMany.json.result).not.toMatch(/zod|too_big|Too big/i)
    expect((await look(['X'.repeat(65)])).status).toBe(400)
  })
})
