// Replays of an order id: only the caller that placed the order gets its result back (same
// customer, same guest cart, or the identical body); anyone else who learnt the id (confirmation
// URL, analytics) gets a 409 without any order data. The guest access key unlocks the order only
// from a POST body, never from a URL. Order numbers are the shop's, never a client's id.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { guestOrder, seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { newOrderId, orderBody } from '../../../helpers/orders'
import { api, type Json, registerAndLogin } from '../../../helpers/user'
import { orderCount } from './place-orders'

beforeEach(seedCartFixtures)

const orderId = () => newOrderId('replay')
const victim = {
  firstname: 'Meera',
  lastname: 'Iyer',
  street: ['7 Residency Road'],
  city: 'Bengaluru',
  postcode: '560025',
  country_id: 'IN',
  telephone: '9811122233',
  email: 'meera.victim@example.com',
}
const attacker = {
  ...victim,
  firstname: 'Eve',
  lastname: 'X',
  telephone: '9000000000',
  email: 'eve@example.com',
}

function body(id: string, addr: typeof victim, over: Record<string, unknown> = {}) {
  return orderBody(id, [{ sku: 'FX-SCARF', qty: 1, price: 1000 }], addr, over)
}

/** Nothing of the stored order may appear in an answer to someone else. */
function expectNoOrderData(answer: { json: Json }, placed: Json) {
  const text = JSON.stringify(answer.json)
  for (const secret of [
    placed.accessKey,
    placed.orderNumber,
    `"${placed.magentoOrderId}"`,
    victim.email,
    victim.telephone,
    victim.lastname,
  ])
    expect(text).not.toContain(secret)
}

describe('replaying an order id', () => {
  it("refuses another caller's body with a 409 that carries no order data", async () => {
    const id = orderId()
    const placed = await api('/order', { body: body(id, victim) })
    expect(placed.status).toBe(200)
    // The id leaked (confirmation URL, purchase event); the attacker posts any valid order with it.
    const stolen = await api('/order', { body: body(id, attacker) })
    expect(stolen.status).toBe(409)
    expect(stolen.json.code).toBe(409)
    expect(stolen.json.result).toContain('order_id is already used')
    expectNoOrderData(stolen, placed.json.result)
    // A signed-in attacker fares no better; nothing was written or taken from stock.
    const eve = await registerAndLogin('eve')
    const asCustomer = await api(`/order?token=${eve.token}`, { body: body(id, attacker) })
    expect(asCustomer.status).toBe(409)
    expectNoOrderData(asCustomer, placed.json.result)
    expect(await orderCount(id)).toBe(1)
    expect(await stockOf('FX-SCARF')).toBe(4)
  })

  it('answers the same client its own result again (lost answer, offline queue resend)', async () => {
    const id = orderId()
    const sent = body(id, victim)
    const first = await api('/order', { body: sent })
    const again = await api('/order', { body: JSON.parse(JSON.stringify(sent)) })
    expect(again.status).toBe(200)
    expect(again.json.result).toEqual(first.json.result)
    expect(typeof again.json.result.accessKey).toBe('string')
    // Key order and string quantities do not matter: the canonical body is hashed.
    const reordered = {
      addressInformation: sent.addressInformation,
      products: [{ price: 1000, qty: '1', sku: 'FX-SCARF' }],
      cart_id: '',
      user_id: '',
      order_id: id,
    }
    expect((await api('/order', { body: reordered })).json.result).toEqual(first.json.result)
    expect(await stockOf('FX-SCARF')).toBe(4)
  })

  it('answers the guest that holds the cart token even when the body changed', async () => {
    const cartId = (await api('/cart/create', { method: 'POST' })).json.result as string
    await api(`/cart/update?cartId=${cartId}`, { body: { cartItem: { sku: 'FX-SCARF', qty: 1 } } })
    const id = orderId()
    const first = await api('/order', { body: body(id, victim, { cart_id: cartId }) })
    expect(first.status).toBe(200)
    const changed = body(id, { ...victim, telephone: '9811100000' }, { cart_id: cartId })
    const again = await api('/order', { body: changed })
    expect(again.status).toBe(200)
    expect(again.json.result).toEqual(first.json.result)
    // Without the token the changed body is a stranger's.
    expect((await api('/order', { body: { ...changed, cart_id: '' } })).status).toBe(409)
  })

  it("answers a customer's replay to that customer only", async () => {
    const a = await registerAndLogin('replay-a')
    const b = await registerAndLogin('replay-b')
    const id = orderId()
    const first = await api(`/order?token=${a.token}`, { body: body(id, victim, { user_id: String(a.id) }) })
    expect(first.status).toBe(200)
    const changed = body(id, { ...victim, city: 'Mysuru' }, { user_id: String(a.id) })
    expect((await api(`/order?token=${a.token}`, { body: changed })).json.result).toEqual(first.json.result)
    for (const answer of [
      await api('/order', { body: body(id, attacker) }),
      await api(`/order?token=${b.token}`, { body: body(id, attacker) }),
    ]) {
      expect(answer.status).toBe(409)
      expectNoOrderData(answer, first.json.result)
    }
  })

  it('a retry after the last unit sold still gets its own order, not out of stock', async () => {
    const id = orderId()
    const lastUnits = body(id, victim, { products: [{ sku: 'FX-KURTA-S', qty: 3, price: 1 }] })
    const first = await api('/order', { body: lastUnits })
    expect(first.status).toBe(200)
    expect(await stockOf('FX-KURTA-S')).toBe(0)
    const retry = await api('/order', { body: lastUnits })
    expect(retry.status).toBe(200)
    expect(retry.json.result).toEqual(first.json.result)
    expect(await stockOf('FX-KURTA-S')).toBe(0)
  })
})

describe('the guest access key', () => {
  it('unlocks the order from a POST body only, never from a URL', async () => {
    const placed = (await api('/order', { body: body(orderId(), victim) })).json.result
    const viaBody = await guestOrder(placed.orderNumber, placed.accessKey)
    expect(viaBody.status).toBe(200)
    expect(viaBody.json.result.customer_email).toBe(victim.email)
    const viaUrl = await api(
      `/order/get?orderId=${placed.orderNumber}&accessKey=${encodeURIComponent(placed.accessKey)}`,
    )
    expect(viaUrl.status).toBe(403)
    expect(viaUrl.json.result).toContain('never in a URL')
    expectNoOrderData(viaUrl, placed)
    const viaPostUrl = await api(
      `/order/get?orderId=${placed.orderNumber}&accessKey=${encodeURIComponent(placed.accessKey)}`,
      { body: { orderId: placed.orderNumber } },
    )
    expect(viaPostUrl.status).toBe(403)
    expect((await guestOrder(placed.orderNumber, `${placed.accessKey}x`)).status).toBe(403)
    const tooLong = await guestOrder(placed.orderNumber, 'k'.repeat(201))
    expect(tooLong.status).toBe(400)
    expect(tooLong.json.result).toContain('at most 200')
  })
})

describe('order numbers', () => {
  it('are assigned by the shop: a client order id may not be a bare number', async () => {
    const row = await env.DB.prepare('SELECT COALESCE(MAX(entity_id), 0) AS n FROM orders').first<{
      n: number
    }>()
    const future = String((row?.n ?? 0) + 2).padStart(9, '0')
    const claim = await api('/order', { body: { ...body(future, attacker), increment_id: future } })
    expect(claim.status).toBe(400)
    expect(claim.json.result).toContain('order numbers are assigned by the shop')
    for (const bad of ['12345678 ', 'abc def gh', '../../etc/passwd', 'x'.repeat(101)]) {
      const res = await api('/order', { body: body(bad, attacker) })
      expect(res.status, bad).toBe(400)
      expect(res.json.result).toContain('order_id')
    }
    // The next real orders get the next numbers, whatever the clients called them.
    const placed = (await api('/order', { body: body(`${future}-x`, victim) })).json.result
    expect(placed.orderNumber).toBe(String((row?.n ?? 0) + 1).padStart(9, '0'))
    const byNumber = await guestOrder(placed.orderNumber, placed.accessKey)
    expect(byNumber.json.result.customer_email).toBe(victim.email)
  })

  it('a client id that starts like an entity id never finds another order', async () => {
    const first = (await api('/order', { body: body(orderId(), victim) })).json.result
    const mine = (await api('/order', { body: body(`${first.magentoOrderId}-mine-order`, attacker) })).json
      .result
    // Looked up by my client id I see my order (with my key), never the order whose entity id it starts with.
    const got = await guestOrder(`${first.magentoOrderId}-mine-order`, mine.accessKey)
    expect(got.status).toBe(200)
    expect(got.json.result.customer_email).toBe(attacker.email)
    expect((await guestOrder(first.magentoOrderId, mine.accessKey)).status).toBe(403)
  })
})
