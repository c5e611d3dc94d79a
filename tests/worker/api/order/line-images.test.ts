// Order lines keep the picture the shopper bought: the variant's own image (else the product's) is
// kept at placement and shown by the confirmation (/api/order/get) and the order page
// (/api/payment/order) even after the catalogue changes; an order placed before lines kept one
// shows the product's current image, and a line with no usable image shows none. The account's
// order history (/api/user/order-history) gives each of the customer's orders the same pictures.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { guestOrder, seedCartFixtures } from '../../../helpers/cart-fixtures'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api, registerAndLogin } from '../../../helpers/user'

beforeEach(seedCartFixtures)

async function place(customer?: { id: number; token: string }) {
  const res = await api(customer ? `/order?token=${customer.token}` : '/order', {
    body: orderBody(
      newOrderId('img'),
      [
        { sku: 'FX-SCARF', qty: 1, price: 1 },
        { sku: 'FX-KURTA-S', qty: 1, price: 1, parentSku: 'FX-KURTA' },
        { sku: 'FX-LEHENGA', qty: 1, price: 1 },
      ],
      testAddress(freshEmail('images')),
      { user_id: customer ? String(customer.id) : '' },
    ),
  })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return res.json.result as { orderNumber: string; accessKey: string; order_id?: string }
}

const setDoc = (sku: string, path: string, value: string) =>
  env.DB.prepare(`UPDATE products SET doc = json_set(doc, '${path}', ?) WHERE sku = ?`).bind(value, sku).run()

/** The image of each line, by sku, as the confirmation and the order page get them. */
async function imagesOf(order: { orderNumber: string; accessKey: string }) {
  const got = await guestOrder(order.orderNumber, order.accessKey)
  expect(got.status).toBe(200)
  const confirmation = Object.fromEntries(
    (got.json.result.items as { sku: string; image: string | null }[]).map((i) => [i.sku, i.image]),
  )
  const view = await api('/payment/order', {
    body: { orderNumber: order.orderNumber, accessKey: order.accessKey },
  })
  expect(view.status).toBe(200)
  const page = Object.fromEntries(
    (view.json.result.items as { sku: string; image: string | null }[]).map((i) => [i.sku, i.image]),
  )
  expect(page).toEqual(confirmation)
  return confirmation
}

describe('order line images', () => {
  it('keeps the image each line was bought with, after the catalogue changes', async () => {
    await setDoc('FX-SCARF', '$.image', '/p/scarf-rose.svg')
    await setDoc('FX-KURTA', '$.image', '/p/kurta.svg')
    await setDoc('FX-KURTA', '$.configurable_children[0].image', '/p/kurta-small-indigo.svg')
    await setDoc('FX-LEHENGA', '$.image', 'no_selection')
    const order = await place()
    const bought = {
      'FX-SCARF': '/p/scarf-rose.svg',
      'FX-KURTA-S': '/p/kurta-small-indigo.svg',
      'FX-LEHENGA': null,
    }
    expect(await imagesOf(order)).toEqual(bought)

    await setDoc('FX-SCARF', '$.image', '/p/scarf-new-season.svg')
    await setDoc('FX-KURTA', '$.configurable_children[0].image', '/p/kurta-restyled.svg')
    expect(await imagesOf(order)).toEqual(bought)
  })

  it("shows an older order's lines with the product's current image, or none", async () => {
    await setDoc('FX-SCARF', '$.image', '/p/scarf-rose.svg')
    await setDoc('FX-KURTA', '$.image', '/p/kurta.svg')
    await setDoc('FX-LEHENGA', '$.image', '/p/lehenga.svg')
    const order = await place()
    // As an order placed before lines kept their picture.
    await env.DB.prepare(
      'UPDATE order_items SET image = NULL WHERE client_order_id = (SELECT client_order_id FROM orders WHERE increment_id = ?)',
    )
      .bind(order.orderNumber)
      .run()
    await setDoc('FX-LEHENGA', '$.image', '')
    expect(await imagesOf(order)).toEqual({
      'FX-SCARF': '/p/scarf-rose.svg',
      'FX-KURTA-S': '/p/kurta.svg',
      'FX-LEHENGA': null,
    })
  })

  it('gives the images only to whoever may open the order', async () => {
    await setDoc('FX-SCARF', '$.image', '/p/scarf-rose.svg')
    const order = await place()
    const other = await place()
    const wrong = await api('/payment/order', {
      body: { orderNumber: order.orderNumber, accessKey: other.accessKey },
    })
    expect(wrong.status).toBeGreaterThanOrEqual(400)
    expect(wrong.status).toBeLessThan(500)
    expect(JSON.stringify(wrong.json)).not.toContain('scarf-rose')
  })

  it("gives each order of the account's history the pictures its order page shows, and only the customer's own", async () => {
    await setDoc('FX-SCARF', '$.image', '/p/scarf-rose.svg')
    await setDoc('FX-KURTA', '$.image', '/p/kurta.svg')
    await setDoc('FX-KURTA', '$.configurable_children[0].image', '/p/kurta-small-indigo.svg')
    await setDoc('FX-LEHENGA', '$.image', 'no_selection')
    const shopper = await registerAndLogin('pictures')
    const stranger = await registerAndLogin('stranger')
    const first = await place(shopper)
    // The older order: placed before lines kept their picture (the product's current image counts).
    await env.DB.prepare(
      'UPDATE order_items SET image = NULL WHERE client_order_id = (SELECT client_order_id FROM orders WHERE increment_id = ?)',
    )
      .bind(first.orderNumber)
      .run()
    await setDoc('FX-SCARF', '$.image', '/p/scarf-new-season.svg')
    const second = await place(shopper)
    await place(stranger)
    const history = await api(`/user/order-history?token=${shopper.token}`)
    expect(history.status).toBe(200)
    const byOrder = Object.fromEntries(
      (
        history.json.result.items as {
          increment_id: string
          items: { sku: string; image: string | null }[]
        }[]
      ).map((o) => [o.increment_id, Object.fromEntries(o.items.map((i) => [i.sku, i.image]))]),
    )
    expect(Object.keys(byOrder).sort()).toEqual([first.orderNumber, second.orderNumber].sort())
    expect(byOrder[first.orderNumber]).toEqual({
      'FX-SCARF': '/p/scarf-new-season.svg',
      'FX-KURTA-S': '/p/kurta.svg',
      'FX-LEHENGA': null,
    })
    expect(byOrder[second.orderNumber]).toEqual(await imagesOf(second))
    expect(byOrder[second.orderNumber]).toEqual({
      'FX-SCARF': '/p/scarf-new-season.svg',
      'FX-KURTA-S': '/p/kurta-small-indigo.svg',
      'FX-LEHENGA': null,
    })
  })
})
