import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../scripts/catalogue/seed/generate'
import { getProductById, getProductByUrlPath, getProductsBySku } from '../../../worker/catalog/products'
import { recordingDb } from '../../helpers/recording-db'

const cat = generateCatalogue()
const configurable = cat.products.find(
  (p) => p.type_id === 'configurable' && p.status === 1 && p.configurable_children.length > 2,
)!
const simple = cat.products.find((p) => p.type_id === 'simple' && p.stock.qty > 0)!

describe('getProductsBySku', () => {
  it('resolves parent, child and simple skus with live inventory', async () => {
    const child = configurable.configurable_children[1]!
    const found = await getProductsBySku(env.DB, [configurable.sku, child.sku, simple.sku, 'NOPE'])
    expect(found.get(configurable.sku)?.product.sku).toBe(configurable.sku)
    expect(found.get(configurable.sku)?.child).toBeUndefined()
    expect(found.get(child.sku)?.product.sku).toBe(configurable.sku)
    expect(found.get(child.sku)?.child?.sku).toBe(child.sku)
    expect(found.get(simple.sku)?.product.type_id).toBe('simple')
    expect(found.has('NOPE')).toBe(false)
  })

  it('reflects inventory decrements in the returned stock', async () => {
    const child = configurable.configurable_children[0]!
    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE parent_sku = ?').bind(configurable.sku).run()
    await env.DB.prepare('UPDATE inventory SET qty = 7, is_in_stock = 1 WHERE sku = ?').bind(child.sku).run()
    const found = await getProductsBySku(env.DB, [child.sku])
    const hit = found.get(child.sku)!
    expect(hit.child?.stock.qty).toBe(7)
    expect(hit.child?.stock.is_in_stock).toBe(true)
    const other = hit.product.configurable_children.find((c) => c.sku !== child.sku)!
    expect(other.stock.qty).toBe(0)
    expect(other.stock.is_in_stock).toBe(false)
    expect(hit.product.stock.qty).toBe(7)

    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE sku = ?').bind(child.sku).run()
    const again = (await getProductsBySku(env.DB, [configurable.sku])).get(configurable.sku)!
    expect(again.product.stock.is_in_stock).toBe(false)
    expect(again.product.stock.stock_status).toBe(0)
  })

  it('finds products by id and exact url_path only', async () => {
    expect((await getProductById(env.DB, simple.id))?.sku).toBe(simple.sku)
    expect((await getProductByUrlPath(env.DB, `/${simple.url_path}`))?.sku).toBe(simple.sku)
    expect(await getProductByUrlPath(env.DB, `${simple.url_path}-x`)).toBeNull()
  })

  it('asks the database one statement for skus of every kind (a product page reads its product with it)', async () => {
    const child = configurable.configurable_children[1]!
    const { db, sql } = recordingDb(env.DB)
    const found = await getProductsBySku(db, [child.sku, simple.sku, 'NOPE'])
    expect(sql).toHaveLength(1)
    expect(found.get(child.sku)?.child?.sku).toBe(child.sku)
    expect(found.get(child.sku)?.product.sku).toBe(configurable.sku)
    expect(found.get(child.sku)?.child?.stock.qty).toBeTypeOf('number')
    expect(found.get(simple.sku)?.product.stock.qty).toBeGreaterThan(0)
  })

  it('handles more skus than one statement can bind', async () => {
    const skus = cat.products.slice(0, 150).map((p) => p.sku)
    const found = await getProductsBySku(env.DB, skus)
    expect(found.size).toBe(150)
  })
})
