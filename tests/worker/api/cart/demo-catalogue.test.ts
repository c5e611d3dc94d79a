// The cart and order paths against the seeded demo catalogue (not fixtures): a configurable
// product added by parent sku + configurable_item_options, priced and ordered.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Product } from '../../../../shared/schemas/catalog'
import { guestOrder } from '../../../helpers/cart-fixtures'
import { newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api } from '../../../helpers/user'

describe('demo catalogue', () => {
  it('adds a seeded configurable variant by its options, totals it and orders it', async () => {
    const rows = await env.DB.prepare(
      `SELECT p.doc FROM products p WHERE p.type_id = 'configurable' AND p.status = 1
         AND EXISTS (SELECT 1 FROM inventory i WHERE i.parent_sku = p.sku AND i.qty >= 2 AND i.is_in_stock = 1)
       ORDER BY p.id LIMIT 1`,
    ).all<{ doc: string }>()
    expect(rows.results.length, 'the demo catalogue has an in-stock configurable product').toBe(1)
    const product = JSON.parse((rows.results[0] as { doc: string }).doc) as Product
    const stockRows = await env.DB.prepare(
      'SELECT sku, qty FROM inventory WHERE parent_sku = ? AND qty >= 2 AND is_in_stock = 1',
    )
      .bind(product.sku)
      .all<{ sku: string; qty: number }>()
    const childSku = (stockRows.results[0] as { sku: string }).sku
    const child = product.configurable_children.find((c) => c.sku === childSku) as Record<string, unknown>
    const options = product.configurable_options.map((o) => ({
      option_id: String(o.attribute_id),
      option_value: Number(child[o.attribute_code]),
    }))
    const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result
    const added = await api(`/cart/update?token=&cartId=${cartId}`, {
      body: {
        cartItem: {
          sku: product.sku,
          qty: 2,
          quoteId: cartId,
          product_option: { extension_attributes: { configurable_item_options: options } },
        },
      },
    })
    expect(added.status).toBe(200)
    expect(added.json.result.sku).toBe(childSku)
    const totals = (await api(`/cart/totals?token=&cartId=${cartId}`)).json.result
    expect(totals.items_qty).toBe(2)
    expect(totals.grand_total).toBeGreaterThan(0)
    expect(totals.grand_total).toBe(totals.subtotal_incl_tax)
    const before = stockRows.results[0] as { qty: number }
    const placed = await api('/order', {
      body: orderBody(
        newOrderId('demo'),
        [{ sku: childSku, qty: 2, price: totals.items[0].price_incl_tax, parentSku: product.sku }],
        testAddress('demo@example.com'),
        { payment: 'card', flatRate: false, cart_id: cartId },
      ),
    })
    expect(placed.status).toBe(200)
    const after = await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?')
      .bind(childSku)
      .first<{ qty: number }>()
    expect(after?.qty).toBe(before.qty - 2)
    const order = await guestOrder(placed.json.result.orderNumber, placed.json.result.accessKey)
    expect(order.json.result.grand_total).toBe(totals.grand_total)
  })
})
