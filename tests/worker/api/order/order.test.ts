// POST /api/order and GET /api/order/get: exactly-once placement, whole-body validation,
// catalogue prices, atomic stock, payment status, access rules.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { guestOrder, seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api, registerAndLogin } from '../../../helpers/user'
import { orderCount } from './place-orders'

beforeEach(seedCartFixtures)

const orderId = () => newOrderId('test')
const address = testAddress('asha.guest@example.com')
function order(over: Record<string, unknown> = {}, products?: unknown[], payment = 'cashondelivery') {
  return orderBody(
    orderId(),
    products ?? [
      { sku: 'FX-SCARF', qty: 2, price: 1, name: 'Silk Scarf' },
      { sku: 'FX-KURTA-S', qty: 1, price: 1, parentSku: 'FX-KURTA' },
    ],
    testAddress(freshEmail('asha.guest')),
    { payment, ...over },
  )
}

describe('placing orders', () => {
  it('places a cash-on-delivery order at catalogue prices and decrements stock exactly', async () => {
    const body = order()
    const res = await api('/order', { body })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const result = res.json.result
    expect(result).toMatchObject({ status: 'pending', paymentPending: false })
    expect(result.orderNumber).toMatch(/^\d{9}$/)
    expect(result.magentoOrderId).toBe(result.backendOrderId)
    expect(typeof result.transferedAt).toBe('string')
    expect(typeof result.accessKey).toBe('string')
    expect(await stockOf('FX-SCARF')).toBe(3)
    expect(await stockOf('FX-KURTA-S')).toBe(2)
    const got = await guestOrder(result.orderNumber, result.accessKey)
    expect(got.status).toBe(200)
    // The client said price 1; the order uses the catalogue (GST included): 2 × 1000 + 1500, above
    // the free-shipping threshold, and the ₹49 cash-on-delivery fee with the goods' GST inside it.
    expect(got.json.result).toMatchObject({
      grand_total: 3549,
      tax_amount:
        (Math.round((200_000 * 12) / 112) +
          Math.round((150_000 * 12) / 112) +
          Math.round((4900 * 12) / 112)) /
        100,
      order_currency_code: 'INR',
      grand_total_minor: 354_900,
      status: 'pending',
      customer_is_guest: 1,
    })
    expect(
      got.json.result.items.map((i: { sku: string; qty_ordered: number }) => [i.sku, i.qty_ordered]),
    ).toEqual([
      ['FX-SCARF', 2],
      ['FX-KURTA-S', 1],
    ])
  })

  it('returns the first result for a replayed order_id and writes nothing more', async () => {
    const body = order()
    const first = await api('/order', { body })
    const again = await api('/order', { body })
    expect(again.status).toBe(200)
    expect(again.json.result).toEqual(first.json.result)
    expect(await orderCount(body.order_id)).toBe(1)
    expect(await stockOf('FX-SCARF')).toBe(3)
  })

  it('creates exactly one order for concurrent duplicates', async () => {
    const body = order()
    const answers = await Promise.all([1, 2, 3, 4].map(() => api('/order', { body })))
    for (const a of answers) expect(a.status).toBe(200)
    const ids = new Set(answers.map((a) => a.json.result.orderNumber))
    expect(ids.size).toBe(1)
    expect(await orderCount(body.order_id)).toBe(1)
    expect(await stockOf('FX-SCARF')).toBe(3)
    expect(await stockOf('FX-KURTA-S')).toBe(2)
  })

  it('validates every product, not just the first, with clear messages', async () => {
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM orders').first<{ n: number }>()
    const bad = await api('/order', {
      body: order({}, [
        { sku: 'FX-SCARF', qty: 1, price: 1000 },
        { sku: 'FX-KURTA-S', qty: 0, price: 1500 },
      ]),
    })
    expect(bad.status).toBe(400)
    expect(bad.json.result).toContain('products.1.qty')
    const noSku = await api('/order', {
      body: order({}, [
        { sku: 'FX-SCARF', qty: 1, price: 1 },
        { qty: 1, price: 1 },
      ]),
    })
    expect(noSku.json.result).toContain('products.1.sku')
    const noAddress = await api('/order', { body: { ...order(), addressInformation: undefined } })
    expect(noAddress.status).toBe(400)
    expect(noAddress.json.result).toContain('addressInformation')
    const noCity = order()
    noCity.addressInformation.billingAddress = { ...address, city: '' }
    expect((await api('/order', { body: noCity })).json.result).toContain('billingAddress.city')
    const noShipCity = order()
    noShipCity.addressInformation.shippingAddress = { ...address, city: '' }
    expect((await api('/order', { body: noShipCity })).json.result).toContain(
      'addressInformation.shippingAddress.city',
    )
    const noShipping = order()
    noShipping.addressInformation.shippingAddress = undefined as never
    expect((await api('/order', { body: noShipping })).json.result).toContain(
      'shippingAddress: a shipping address is required',
    )
    const empty = await api('/order', { body: order({}, []) })
    expect(empty.json.result).toContain('at least one product')
    const unknown = await api('/order', { body: order({}, [{ sku: 'NOPE', qty: 1, price: 1 }]) })
    expect(unknown.status).toBe(400)
    const payment = await api('/order', { body: order({}, undefined, 'bitcoin') })
    expect(payment.status).toBe(400)
    expect(payment.json.result).toContain('payment_method_code')
    const codVirtual = await api('/order', { body: order({}, [{ sku: 'FX-GIFT', qty: 1, price: 500 }]) })
    expect(codVirtual.status).toBe(400)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM orders').first<{ n: number }>()).toEqual(before)
  })

  it('writes nothing when any line lacks stock (500 add-products error)', async () => {
    const body = order({}, [
      { sku: 'FX-SCARF', qty: 1, price: 1000 },
      { sku: 'FX-KURTA-S', qty: 4, price: 1500 },
    ])
    const res = await api('/order', { body })
    expect(res.status).toBe(500)
    expect(res.json.code).toBe(500)
    expect(res.json.result).toBe('Error: Error while adding products')
    expect(res.json.meta.detail).toContain('FX-KURTA-S')
    expect(await orderCount(body.order_id)).toBe(0)
    expect(await stockOf('FX-SCARF')).toBe(5)
    expect(await stockOf('FX-KURTA-S')).toBe(3)
    const soldOut = await api('/order', { body: order({}, [{ sku: 'FX-KURTA-M', qty: 1, price: 1 }]) })
    expect(soldOut.status).toBe(500)
  })

  it('never oversells: of two concurrent orders for the last units exactly one succeeds', async () => {
    const a = order({}, [{ sku: 'FX-KURTA-S', qty: 2, price: 1 }])
    const b = order({}, [{ sku: 'FX-KURTA-S', qty: 2, price: 1 }])
    const answers = await Promise.all([api('/order', { body: a }), api('/order', { body: b })])
    expect(answers.map((x) => x.status).sort()).toEqual([200, 500])
    expect(await stockOf('FX-KURTA-S')).toBe(1)
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM order_items WHERE client_order_id IN (?, ?)')
      .bind(a.order_id, b.order_id)
      .first<{ n: number }>()
    expect(rows?.n).toBe(1)
  })

  it('ignores an empty shipping form on a virtual-only order', async () => {
    const body = order({}, [{ sku: 'FX-GIFT', qty: 1, price: 500 }], 'card')
    body.addressInformation.shippingAddress = { ...address, firstname: '', city: '', street: [''] }
    const res = await api('/order', { body })
    expect(res.status).toBe(200)
  })

  it('places card and PayPal orders as pending_payment without pretending to charge', async () => {
    for (const [method, currency] of [
      ['card', 'INR'],
      ['paypal_standard', 'USD'],
    ]) {
      const res = await api('/order', {
        body: order({}, [{ sku: 'FX-GIFT', qty: 1, price: 500 }], method),
        headers: { cookie: `currency=${currency}` },
      })
      expect(res.status).toBe(200)
      expect(res.json.result).toMatchObject({ status: 'pending_payment', paymentPending: true })
      expect(res.json.result.message).toContain('no payment has been taken')
    }
  })

  it('uses the coupon of the cart it came from and closes that cart', async () => {
    const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result
    await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem: { sku: 'FX-SCARF', qty: 1 } } })
    await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=WELCOME10`, { method: 'POST' })
    const res = await api('/order', {
      body: order({ cart_id: cartId }, [{ sku: 'FX-SCARF', qty: 1, price: 1120 }]),
    })
    const got = await guestOrder(res.json.result.orderNumber, res.json.result.accessKey)
    // ₹1,000 − 10 %, shipping ₹149 (the threshold is judged before the coupon) and the COD fee ₹49.
    expect(got.json.result).toMatchObject({
      grand_total: 900 + 149 + 49,
      coupon_code: 'WELCOME10',
      discount_amount: -100,
    })
    expect((await api(`/cart/pull?token=&cartId=${cartId}`)).status).toBe(404)
  })
})

describe('who may see an order', () => {
  it('guests need the access key; customers see only their own orders and history', async () => {
    const a = await registerAndLogin('order-a')
    const b = await registerAndLogin('order-b')
    const guest = (await api('/order', { body: order() })).json.result
    expect((await api(`/order/get?orderId=${guest.orderNumber}`)).status).toBe(403)
    expect((await guestOrder(guest.orderNumber, 'wrong')).status).toBe(403)
    expect((await api(`/order/get?orderId=${guest.orderNumber}&token=${b.token}`)).status).toBe(403)

    const mine = await api(`/order?token=${a.token}`, { body: order({ user_id: String(a.id) }) })
    expect(mine.status).toBe(200)
    const number = mine.json.result.orderNumber
    expect((await api(`/order/get?orderId=${number}&token=${a.token}`)).json.result.customer_email).toBe(
      a.email,
    )
    expect((await api(`/order/get?orderId=${number}&token=${b.token}`)).status).toBe(403)
    expect((await api(`/order/get?orderId=${number}`)).status).toBe(401)
    const historyA = await api(`/user/order-history?token=${a.token}`)
    expect(historyA.json.result.items.map((o: { increment_id: string }) => o.increment_id)).toEqual([number])
    expect(historyA.json.result.total_count).toBe(1)
    expect((await api(`/user/order-history?token=${b.token}`)).json.result.items).toEqual([])
    // An order naming someone else's user id is refused; a customer replay by another user too.
    expect((await api(`/order?token=${b.token}`, { body: order({ user_id: String(a.id) }) })).status).toBe(
      403,
    )
    const replayBody = order({ user_id: String(a.id) }, [{ sku: 'FX-GIFT', qty: 1, price: 500 }], 'card')
    expect((await api(`/order?token=${a.token}`, { body: replayBody })).status).toBe(200)
    const stolen = await api(`/order?token=${b.token}`, { body: { ...replayBody, user_id: String(b.id) } })
    expect(stolen.status).toBe(409)
    expect(JSON.stringify(stolen.json)).not.toContain('accessKey')
    expect((await api('/order/get')).status).toBe(400)
    expect((await api('/order/get?orderId=999999999')).status).toBe(404)
  })
})
