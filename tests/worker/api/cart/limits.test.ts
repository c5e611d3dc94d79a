// Bounded carts and strict quantities: the 100-line cap holds under concurrent adds (one atomic
// statement), quantities/ids are decimal integers only ("0x10" is not 16), and cart and order
// bodies are read up to a named size.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api } from '../../../helpers/user'

beforeAll(seedCartFixtures)

const MAX_LINES = 100
const guestCart = async (): Promise<string> => (await api('/cart/create', { method: 'POST' })).json.result
const add = (cartId: string, cartItem: Record<string, unknown>) =>
  api(`/cart/update?cartId=${cartId}`, { body: { cartItem } })
const lineCount = async (cartId: string) =>
  (
    await env.DB.prepare(
      'SELECT COUNT(*) AS n FROM cart_items WHERE cart_id = (SELECT id FROM carts WHERE guest_token = ?)',
    )
      .bind(cartId)
      .first<{ n: number }>()
  )?.n

/** Sellable skus of the demo catalogue that a cart accepts (checked one by one in a scratch cart). */
async function addableSkus(count: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT i.sku FROM inventory i JOIN products p ON p.sku = COALESCE(i.parent_sku, i.sku)
     WHERE i.qty > 2 AND i.is_in_stock = 1 AND p.status = 1 ORDER BY i.sku LIMIT ?`,
  )
    .bind(count * 2)
    .all<{ sku: string }>()
  const scratch = await guestCart()
  const ok: string[] = []
  for (const { sku } of results) {
    if (ok.length === count) break
    if ((await add(scratch, { sku, qty: 1 })).status === 200) ok.push(sku)
  }
  expect(ok).toHaveLength(count)
  return ok
}

/** Fills a cart with `n` placeholder lines straight in D1 (the cap counts lines, not products). */
async function fill(cartId: string, n: number) {
  const cart = await env.DB.prepare('SELECT id FROM carts WHERE guest_token = ?')
    .bind(cartId)
    .first<{ id: number }>()
  await env.DB.batch(
    Array.from({ length: n }, (_, i) =>
      env.DB.prepare(
        `INSERT INTO cart_items (cart_id, sku, product_id, qty, created_at) VALUES (?, ?, 1, 1, '2026-01-01 00:00:00')`,
      ).bind(cart?.id, `FILL-${i}`),
    ),
  )
}

describe('the 100-line cart cap', () => {
  it('holds when many different products are added at the same time', async () => {
    const skus = await addableSkus(12)
    const cartId = await guestCart()
    await fill(cartId, MAX_LINES - 1)
    const answers = await Promise.all(skus.map((sku) => add(cartId, { sku, qty: 1 })))
    const statuses = answers.map((a) => a.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 400)).toHaveLength(skus.length - 1)
    for (const a of answers.filter((x) => x.status === 400))
      expect(a.json.result).toBe(`A cart holds at most ${MAX_LINES} different products.`)
    expect(await lineCount(cartId)).toBe(MAX_LINES)
  })

  it('still changes quantities and replays adds of lines already in a full cart', async () => {
    const cartId = await guestCart()
    await fill(cartId, MAX_LINES - 1)
    const scarf = await add(cartId, { sku: 'FX-SCARF', qty: 1 })
    expect(scarf.status).toBe(200)
    expect((await add(cartId, { sku: 'FX-LEHENGA', qty: 1 })).status).toBe(400)
    expect((await add(cartId, { sku: 'FX-SCARF', qty: 2 })).json.result.qty).toBe(2)
    expect((await add(cartId, { sku: 'FX-SCARF', qty: 3, item_id: scarf.json.result.item_id })).status).toBe(
      200,
    )
    expect(await lineCount(cartId)).toBe(MAX_LINES)
  })
})

describe('quantities are decimal integers', () => {
  const refused = ['0x10', '1e1', '16.0', ' 16', '16 ', '+16', '-1', '١٦', '0b1', 16.5, true, [16], { n: 16 }]

  it('cart adds accept 16 and "16", and refuse every other spelling with a 400 naming qty', async () => {
    const cartId = await guestCart()
    expect((await add(cartId, { sku: 'FX-GIFT', qty: 16 })).json.result.qty).toBe(16)
    expect((await add(cartId, { sku: 'FX-GIFT', qty: '15' })).json.result.qty).toBe(15)
    expect((await add(cartId, { sku: 'FX-GIFT', qty: '007' })).json.result.qty).toBe(7)
    for (const qty of refused) {
      const res = await add(cartId, { sku: 'FX-GIFT', qty })
      expect(res.status, JSON.stringify(qty)).toBe(400)
      expect(res.json.result, JSON.stringify(qty)).toMatch(/cartItem\.qty: qty must be/)
    }
    const hexItem = await add(cartId, { sku: 'FX-GIFT', qty: 1, item_id: '0x1' })
    expect(hexItem.status).toBe(400)
    expect(hexItem.json.result).toContain('item_id must be a whole number written with the digits 0-9')
    const del = await api(`/cart/delete?cartId=${cartId}`, { body: { cartItem: { item_id: '0x1' } } })
    expect(del.status).toBe(400)
    expect((await api(`/cart/pull?cartId=${cartId}`)).json.result[0].qty).toBe(7)
  })

  it('orders refuse "0x10" (it was read as 16) and take nothing from stock', async () => {
    const order = (qty: unknown) =>
      orderBody(newOrderId('qty'), [{ sku: 'FX-LEHENGA', qty, price: 1 }], testAddress('qty@example.com'), {
        flatRate: false,
      })
    for (const qty of refused) {
      const res = await api('/order', { body: order(qty) })
      expect(res.status, JSON.stringify(qty)).toBe(400)
      expect(res.json.result, JSON.stringify(qty)).toContain('products.0.qty: qty must be')
    }
    const tooMany = await api('/order', { body: order('10001') })
    expect(tooMany.json.result).toContain('qty must be at most 10000')
    expect(await stockOf('FX-LEHENGA')).toBe(10)
    expect((await api('/order', { body: order('2') })).status).toBe(200)
    expect(await stockOf('FX-LEHENGA')).toBe(8)
  })
})

describe('request bodies', () => {
  it('are read up to a named size on cart and order calls (400, nothing written)', async () => {
    const cartId = await guestCart()
    const bigItem = await api(`/cart/update?cartId=${cartId}`, {
      rawBody: JSON.stringify({ cartItem: { sku: 'FX-SCARF', qty: 1, note: 'x'.repeat(70_000) } }),
    })
    expect(bigItem.status).toBe(400)
    expect(bigItem.json.result).toBe('Request body is too large (at most 65536 bytes)')
    expect(await lineCount(cartId)).toBe(0)
    const address = {
      firstname: 'A',
      lastname: 'B',
      street: ['1'],
      city: 'C',
      country_id: 'IN',
      email: 'b@example.com',
    }
    const bigOrder = await api('/order', {
      rawBody: JSON.stringify({
        order_id: `${Date.now()}-big-order`,
        products: [{ sku: 'FX-SCARF', qty: 1, price: 1, blob: 'x'.repeat(1_100_000) }],
        addressInformation: {
          shippingAddress: address,
          billingAddress: address,
          payment_method_code: 'cashondelivery',
        },
      }),
    })
    expect(bigOrder.status).toBe(400)
    expect(bigOrder.json.result).toBe('Request body is too large (at most 1048576 bytes)')
    expect(await stockOf('FX-SCARF')).toBe(5)
    const bigGet = await api('/order/get', {
      body: { orderId: '000000001', accessKey: 'k', pad: 'x'.repeat(5000) },
    })
    expect(bigGet.status).toBe(400)
    expect(bigGet.json.result).toContain('at most 4096 bytes')
  })
})
