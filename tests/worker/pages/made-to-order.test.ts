// Pieces made to order say when they ship: the product page renders "Made to order — ships by …"
// on the server for a piece with a lead time and no ready-to-ship units, or one the back office
// listed as made to order; the bag's totals carry the same line for the cart; an order keeps each
// such line's date from the day it was placed, and its order page and confirmation show that date
// even after the catalogue's lead time changes.
import { env, SELF } from 'cloudflare:test'
import { shopTimeZone } from '@shared/config/store'
import { madeToOrderNote, shipsByDate } from '@shared/domain/made-to-order'
import { beforeEach, describe, expect, it } from 'vitest'
import { guestOrder, seedCartFixtures } from '../../helpers/cart-fixtures'
import { deliverTo, freshEmail, newOrderId, testAddress } from '../../helpers/orders'
import { api } from '../../helpers/user'
import { operator, post } from '../admin/operator'

beforeEach(seedCartFixtures)

const setDoc = (sku: string, path: string, value: number | null) =>
  env.DB.prepare(`UPDATE products SET doc = json_set(doc, '${path}', ?) WHERE sku = ?`).bind(value, sku).run()
const list = (sku: string) => env.DB.prepare('INSERT INTO made_to_order (sku) VALUES (?)').bind(sku).run()

/** The made-to-order line of a product page, or null when it has none. */
async function pageNote(sku: string): Promise<string | null> {
  const res = await SELF.fetch(`https://shop.test/p/${sku}/${sku.toLowerCase()}`)
  expect(res.status).toBe(200)
  const html = await res.text()
  return /data-testid="made-to-order">([^<]*)</.exec(html)?.[1] ?? null
}

const noteIn = (days: number, at = Date.now()) => madeToOrderNote(shipsByDate(at, days, shopTimeZone()))

describe('made to order', () => {
  it('shows the ships-by date on the product page of a piece made to order, and only there', async () => {
    await setDoc('FX-LEHENGA', '$.delivery_days', 4)
    // A lead time with ready-to-ship units ships from stock, unless the piece is listed.
    await setDoc('FX-EAR-A', '$.delivery_days', 5)
    await setDoc('FX-EAR-A', '$.rts_qty', 2)
    await setDoc('FX-EAR-B', '$.delivery_days', 5)
    await setDoc('FX-EAR-B', '$.rts_qty', 2)
    await list('FX-EAR-B')
    // Listed without a lead time: no date to show.
    await list('FX-BAG-A')

    expect(await pageNote('FX-LEHENGA')).toBe(noteIn(4))
    expect(await pageNote('FX-LEHENGA')).toMatch(
      /^Made to order — ships by (Mon|Tue|Wed|Thu|Fri|Sat), \d{1,2} \w{3}$/,
    )
    expect(await pageNote('FX-EAR-A')).toBeNull()
    expect(await pageNote('FX-EAR-B')).toBe(noteIn(5))
    expect(await pageNote('FX-BAG-A')).toBeNull()
    expect(await pageNote('FX-SCARF')).toBeNull()
  })

  it('purges the product page when the back office lists or unlists the product', async () => {
    await setDoc('FX-KURTA', '$.delivery_days', 4)
    await setDoc('FX-KURTA', '$.rts_qty', 2)
    expect(await pageNote('FX-KURTA')).toBeNull()
    const staff = await operator('staff')
    expect(
      (await post(staff, '/api/rules/made-to-order', '/admin/rules', [['sku', 'FX-KURTA']])).status,
    ).toBe(303)
    expect(await pageNote('FX-KURTA')).toBe(noteIn(4))
    const gone = await post(staff, '/api/rules/made-to-order/delete', '/admin/rules', [['sku', 'FX-KURTA']])
    expect(gone.status).toBe(303)
    expect(await pageNote('FX-KURTA')).toBeNull()
  })

  it('says so on the bag line of a piece made to order, from the totals the server sends', async () => {
    await setDoc('FX-LEHENGA', '$.delivery_days', 4)
    const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result as string
    for (const sku of ['FX-SCARF', 'FX-LEHENGA']) {
      expect(
        (await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem: { sku, qty: 1 } } })).status,
      ).toBe(200)
    }
    const totals = await api(`/cart/totals?cartId=${cartId}`)
    expect(totals.status).toBe(200)
    const notes = Object.fromEntries(
      (totals.json.result.items as { sku: string; extension_attributes: { made_to_order?: string } }[]).map(
        (i) => [i.sku, i.extension_attributes.made_to_order ?? null],
      ),
    )
    expect(notes).toEqual({ 'FX-SCARF': null, 'FX-LEHENGA': noteIn(4) })
  })

  it('keeps the date an order was placed with on the order page and confirmation', async () => {
    await setDoc('FX-LEHENGA', '$.delivery_days', 4)
    const placedAt = Date.now()
    const res = await api('/order', {
      body: {
        order_id: newOrderId('mto'),
        user_id: '',
        cart_id: '',
        products: [
          { sku: 'FX-SCARF', qty: 1, price: 1 },
          { sku: 'FX-LEHENGA', qty: 1, price: 1 },
        ],
        addressInformation: deliverTo(testAddress(freshEmail('mto'))),
      },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const order = res.json.result as { orderNumber: string; accessKey: string }
    const shipsBy = shipsByDate(placedAt, 4, shopTimeZone())

    // Later the lead time changes: the order's date does not move.
    await setDoc('FX-LEHENGA', '$.delivery_days', 20)
    const view = await api('/payment/order', {
      body: { orderNumber: order.orderNumber, accessKey: order.accessKey },
    })
    expect(view.status).toBe(200)
    const notes = Object.fromEntries(
      (view.json.result.items as { sku: string; madeToOrder: string | null }[]).map((i) => [
        i.sku,
        i.madeToOrder,
      ]),
    )
    expect(notes).toEqual({ 'FX-SCARF': null, 'FX-LEHENGA': madeToOrderNote(shipsBy) })

    const confirmation = await guestOrder(order.orderNumber, order.accessKey)
    expect(confirmation.status).toBe(200)
    const items = confirmation.json.result.items as { sku: string; ships_by?: string }[]
    expect(items.find((i) => i.sku === 'FX-LEHENGA')?.ships_by).toBe(shipsBy)
    expect(items.find((i) => i.sku === 'FX-SCARF')?.ships_by).toBeUndefined()
  })

  // A listing names a configurable (all its sizes) or one size; a line may be ordered by the size's
  // sku or by the configurable's with the size chosen in its options.
  it.each([
    { listed: 'FX-KURTA', ordered: 'FX-KURTA-S', ships: true },
    { listed: 'FX-KURTA', ordered: 'FX-KURTA', ships: true },
    { listed: 'FX-KURTA-S', ordered: 'FX-KURTA', ships: true },
    { listed: 'FX-KURTA-S', ordered: 'FX-KURTA-S', ships: true },
    { listed: 'FX-KURTA-M', ordered: 'FX-KURTA', ships: false },
  ])('dates a size of $listed ordered as $ordered: $ships', async ({ listed, ordered, ships }) => {
    // Ready-to-ship units in every size: only a listing makes a size made to order.
    await setDoc('FX-KURTA', '$.delivery_days', 4)
    for (const path of [
      '$.rts_qty',
      '$.configurable_children[0].rts_qty',
      '$.configurable_children[1].rts_qty',
    ])
      await setDoc('FX-KURTA', path, 5)
    await env.DB.prepare("DELETE FROM made_to_order WHERE sku LIKE 'FX-KURTA%'").run()
    await list(listed)
    const res = await api('/order', {
      body: {
        order_id: newOrderId('mto-size'),
        user_id: '',
        cart_id: '',
        products: [
          {
            sku: ordered,
            qty: 1,
            price: 1,
            product_option: {
              extension_attributes: {
                configurable_item_options: [{ option_id: '142', option_value: '1' }],
                custom_options: [],
                bundle_options: [],
              },
            },
          },
        ],
        addressInformation: deliverTo(testAddress(freshEmail('mto-size')), 'card'),
      },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const order = res.json.result as { orderNumber: string; accessKey: string }
    const items = (await guestOrder(order.orderNumber, order.accessKey)).json.result.items as {
      sku: string
      ships_by?: string
    }[]
    const line = items.find((i) => i.sku === 'FX-KURTA-S')
    expect(line, JSON.stringify(items)).toBeDefined()
    expect(Boolean(line?.ships_by)).toBe(ships)
  })
})
