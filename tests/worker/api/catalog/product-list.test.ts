/** GET /api/product/list?skus=: the platform's product records, as vue-storefront-api passes them on. */
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../../scripts/catalogue/seed/generate'

const cat = generateCatalogue()
const simple = cat.products.find((p) => p.type_id === 'simple' && p.status === 1)!
const configurable = cat.products.find((p) => p.type_id === 'configurable' && p.status === 1)!
const child = configurable.configurable_children[0]!
const disabled = cat.products.find((p) => p.status === 2)

interface ListItem {
  sku: string
  id: number
  type_id: string
  price: number
  extension_attributes: { stock_item: { qty: number; is_in_stock: boolean } }
  custom_attributes: { attribute_code: string; value: unknown }[]
}
async function list(skus: string) {
  const res = await SELF.fetch(`https://shop.test/api/product/list?skus=${encodeURIComponent(skus)}`)
  return {
    status: res.status,
    json: (await res.json()) as { code: number; result: { items: ListItem[]; total_count: number } | string },
  }
}

describe('/api/product/list', () => {
  it('answers the records of the skus it has, in the order asked; a variant sku as a simple product', async () => {
    const { status, json } = await list(
      `${child.sku},NOPE,${simple.sku}${disabled ? `,${disabled.sku}` : ''}`,
    )
    expect(status).toBe(200)
    const result = json.result as { items: ListItem[]; total_count: number }
    expect(result.items.map((i) => i.sku)).toEqual([child.sku, simple.sku])
    expect(result.total_count).toBe(2)
    const [variant, product] = result.items as [ListItem, ListItem]
    expect(variant.type_id).toBe('simple')
    expect(variant.price).toBe(child.price)
    expect(product.id).toBe(simple.id)
    expect(product.price).toBe(simple.price)
    expect(product.extension_attributes.stock_item.is_in_stock).toBe(simple.stock.is_in_stock)
    const urlKey = product.custom_attributes.find((a) => a.attribute_code === 'url_key')
    expect(urlKey?.value).toBe(simple.url_key)
  })

  it.each([
    ['no skus', '', /Missing skus/],
    [
      'too many skus',
      Array.from({ length: 101 }, (_, i) => `S${i}`).join(','),
      /At most 100 skus per request/,
    ],
    ['an over-long sku', 'x'.repeat(129), /sku is too long/],
  ])('%s answers 400', async (_name, skus, message) => {
    const { status, json } = await list(skus)
    expect(status).toBe(400)
    expect(json.code).toBe(400)
    expect(String(json.result)).toMatch(message)
  })

  it('reads LIKE and glob characters as plain sku text', async () => {
    const { status, json } = await list('%,_,*')
    expect(status).toBe(200)
    expect((json.result as { items: unknown[] }).items).toEqual([])
  })
})
