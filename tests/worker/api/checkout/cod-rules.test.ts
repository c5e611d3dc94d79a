// The operator's cash-on-delivery rules: a phone number or PIN code on the blocklist, a piece made
// to order, an order above the highest total collected — each refused with one sentence the
// shopper reads before the review (GET /api/checkout/cod with the caller's own cart, the cart's
// payment methods) and again at placement, where the refusal is a 400 and nothing is written; the
// same order by card goes through. Someone else's cart is not readable through the endpoint.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { COD_REFUSALS } from '../../../../worker/api/checkout/cod'
import { seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { countRows } from '../../../helpers/d1-rows'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api, registerAndLogin } from '../../../helpers/user'

beforeEach(async () => {
  await seedCartFixtures()
  await env.DB.batch([
    env.DB.prepare('DELETE FROM cod_blocklist'),
    env.DB.prepare('DELETE FROM made_to_order'),
    env.DB.prepare('UPDATE inventory SET qty = 100 WHERE sku IN (?, ?)').bind('FX-SCARF', 'FX-LEHENGA'),
  ])
})

const orderCount = () => countRows('SELECT COUNT(*) AS n FROM orders')

/** An order line: a sku and a quantity, and the options the shopper chose when it has any. */
type Line = { sku: string; qty: number; product_option?: unknown }

/** Places an order of `lines` to `address`, paid by `method`. */
function place(lines: Line[], address: Record<string, unknown>, method: string) {
  return api('/order', {
    body: orderBody(
      newOrderId('cod-rules'),
      lines.map((l) => ({ ...l, price: 1 })),
      address,
      { payment: method },
    ),
  })
}

/** Expects an order of `lines` to `address`, paid by `method`, to be placed. */
async function expectPlaced(lines: Line[], address: Record<string, unknown>, method = 'cashondelivery') {
  const placed = await place(lines, address, method)
  expect(placed.status, JSON.stringify(placed.json)).toBe(200)
}

/** A guest cart holding `lines`; its id is its token. */
async function cartOf(lines: { sku: string; qty: number }[]) {
  const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result as string
  for (const cartItem of lines) {
    expect((await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem } })).status).toBe(200)
  }
  return cartId
}

/** The checkout's question before the review, for a cart and the form's phone. */
const codAnswer = (cartId: string, phone = '9876543210', postcode = '560001') =>
  api(`/checkout/cod?postcode=${postcode}&cartId=${cartId}&phone=${encodeURIComponent(phone)}`)

/** Expects a COD order to be refused with `why`, writing nothing and taking no stock, and a card order to pass. */
async function refusedAtPlacement(lines: Line[], address: Record<string, unknown>, why: string) {
  const before = { orders: await orderCount(), stock: await stockOf(lines[0]?.sku as string) }
  const cod = await place(lines, address, 'cashondelivery')
  expect(cod.status, JSON.stringify(cod.json)).toBe(400)
  expect(cod.json.result).toBe(`Invalid order: addressInformation.payment_method_code: ${why}`)
  expect({ orders: await orderCount(), stock: await stockOf(lines[0]?.sku as string) }).toEqual(before)
  await expectPlaced(lines, address, 'card')
}

describe('cash on delivery: the operator’s rules', () => {
  it('offers it for an ordinary order (the rules refuse nothing by themselves)', async () => {
    const cartId = await cartOf([{ sku: 'FX-SCARF', qty: 1 }])
    const answer = await codAnswer(cartId)
    expect(answer.status).toBe(200)
    expect(answer.json.result).toMatchObject({ available: true, message: null })
    expect(answer.headers.get('cache-control')).toBe('private, no-store')
    await expectPlaced([{ sku: 'FX-SCARF', qty: 1 }], testAddress(freshEmail('cod-ok')))
  })

  it('refuses a blocked phone number however it is typed', async () => {
    await env.DB.prepare(
      "INSERT INTO cod_blocklist (kind, value, created_at) VALUES ('phone', '9876543210', '2026-11-29')",
    ).run()
    const cartId = await cartOf([{ sku: 'FX-SCARF', qty: 1 }])
    for (const typed of ['9876543210', '+91 98765-43210', '098765 43210']) {
      const answer = await codAnswer(cartId, typed)
      expect(answer.json.result, typed).toMatchObject({ available: false, message: COD_REFUSALS.phone })
    }
    // Another number is served.
    expect((await codAnswer(cartId, '9000000001')).json.result.available).toBe(true)
    const address = testAddress(freshEmail('cod-phone'), { telephone: '+91 98765 43210' })
    await refusedAtPlacement([{ sku: 'FX-SCARF', qty: 1 }], address, COD_REFUSALS.phone)
  })

  it('refuses a PIN code on the blocklist with the PIN sentence', async () => {
    await env.DB.prepare(
      "INSERT INTO cod_blocklist (kind, value, created_at) VALUES ('pin', '560001', '2026-11-29')",
    ).run()
    const plain = await api('/checkout/cod?postcode=560001')
    expect(plain.json.result).toMatchObject({
      available: false,
      message: 'Cash on delivery is not available for PIN 560001.',
    })
    await refusedAtPlacement(
      [{ sku: 'FX-SCARF', qty: 1 }],
      testAddress(freshEmail('cod-pin')),
      'Cash on delivery is not available for PIN 560001.',
    )
  })

  it('refuses pieces made to order, named by their own or their parent’s sku', async () => {
    await env.DB.prepare("INSERT INTO made_to_order (sku) VALUES ('FX-LEHENGA')").run()
    const cartId = await cartOf([
      { sku: 'FX-SCARF', qty: 1 },
      { sku: 'FX-LEHENGA', qty: 1 },
    ])
    expect((await codAnswer(cartId)).json.result).toMatchObject({
      available: false,
      message: COD_REFUSALS.madeToOrder,
    })
    // The cart's own payment methods say the same: cash on delivery is not among them.
    const methods = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
      body: {
        addressInformation: {
          shippingAddress: testAddress('mto@example.com'),
          billingAddress: testAddress('mto@example.com'),
        },
      },
    })
    expect(methods.json.result.payment_methods.map((m: { code: string }) => m.code)).toEqual(['card'])
    await refusedAtPlacement(
      [{ sku: 'FX-LEHENGA', qty: 1 }],
      testAddress(freshEmail('cod-mto')),
      COD_REFUSALS.madeToOrder,
    )
  })

  it('refuses a size made to order chosen on its configurable, at placement', async () => {
    // Only the small size is listed; the order names the kurta and chooses that size.
    await env.DB.prepare("INSERT INTO made_to_order (sku) VALUES ('FX-KURTA-S')").run()
    try {
      const small = {
        sku: 'FX-KURTA',
        qty: 1,
        product_option: {
          extension_attributes: {
            configurable_item_options: [{ option_id: '142', option_value: '1' }],
            custom_options: [],
            bundle_options: [],
          },
        },
      }
      await refusedAtPlacement([small], testAddress(freshEmail('cod-mto-size')), COD_REFUSALS.madeToOrder)
    } finally {
      await env.DB.prepare("DELETE FROM made_to_order WHERE sku = 'FX-KURTA-S'").run()
    }
  })

  it('refuses an order above the highest total collected, and accepts one at it', async () => {
    // Two lehengas at ₹1,00,000 come to ₹2,00,000 exactly (free shipping): collected; one scarf more is above.
    await env.DB.prepare(
      "UPDATE products SET doc = json_set(doc, '$.price', 100000, '$.final_price', 100000) WHERE sku = 'FX-LEHENGA'",
    ).run()
    const above = [
      { sku: 'FX-LEHENGA', qty: 2 },
      { sku: 'FX-SCARF', qty: 1 },
    ]
    const cartId = await cartOf(above)
    const why = 'Cash on delivery is available for orders up to ₹200,000. Please choose another way to pay.'
    expect((await codAnswer(cartId)).json.result).toMatchObject({ available: false, message: why })
    await refusedAtPlacement(above, testAddress(freshEmail('cod-cap')), why)
    await expectPlaced([{ sku: 'FX-LEHENGA', qty: 2 }], testAddress(freshEmail('cod-cap-at')))
  })

  it('reads only the caller’s own cart, and answers malformed input with a sentence', async () => {
    const user = await registerAndLogin('cod-cart')
    const own = (await api(`/cart/create?token=${user.token}`, { method: 'POST' })).json.result
    // Someone else's customer cart without their token, and a guest token that names no cart.
    expect((await codAnswer(String(own))).status).toBe(401)
    expect((await codAnswer('0'.repeat(32))).status).toBe(404)
    const bad = await api('/checkout/cod?postcode=560001&phone=%3Cscript%3E')
    expect(bad.status).toBe(400)
    expect(bad.json.result).toContain('phone may hold only digits')
  })
})
