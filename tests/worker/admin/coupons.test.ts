// Coupons from the back office, and their usage rules as the shop enforces them: a first-order
// coupon refused to a shopper who has ordered (signed in at the cart, by e-mail at placement),
// per-shopper and total limits, a disabled coupon refused.
import { beforeEach, describe, expect, it } from 'vitest'
import { seedCartFixtures, stockOf } from '../../helpers/cart-fixtures'
import { countRows } from '../../helpers/d1-rows'
import { newOrderId, orderBody, testAddress } from '../../helpers/orders'
import { api, registerAndLogin } from '../../helpers/user'
import { admin, operator } from './operator'

beforeEach(seedCartFixtures)

const address = (email: string) => testAddress(email, { telephone: '9876500002' })
let n = 0
const code = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}${++n}`

/** A guest cart with a scarf and `coupon` applied; returns the cart id and the apply answer. */
async function cartWith(coupon: string, bearer?: string) {
  const cartId = (await api('/cart/create', { method: 'POST', bearer })).json.result
  await api(`/cart/update?cartId=${cartId}`, { body: { cartItem: { sku: 'FX-SCARF', qty: 1 } }, bearer })
  const applied = await api(`/cart/apply-coupon?cartId=${cartId}&coupon=${coupon}`, {
    method: 'POST',
    bearer,
  })
  return { cartId, applied }
}

function placeOrder(email: string, cartId: string | number = '', bearer?: string) {
  const body = orderBody(newOrderId('cpn'), [{ sku: 'FX-SCARF', qty: 1, price: 1 }], address(email), {
    cart_id: cartId,
  })
  return api('/order', { bearer, body })
}

describe('coupon administration', () => {
  it('is the owner’s: staff cannot create, bad rules are refused, codes are unique', async () => {
    const owner = await operator('owner')
    const staff = await operator('staff')
    const c = code('NEW')
    const body = { code: c, kind: 'percent', amount: 10, label: '10% off' }
    expect((await admin(staff, '/api/coupons', { body })).status).toBe(403)
    for (const bad of [
      { ...body, amount: 150 },
      { ...body, kind: 'bogus' },
      { ...body, code: 'a b' },
      { ...body, starts_at: '2027-01-02', expires_at: '2027-01-01' },
      { ...body, total_limit: 0 },
    ]) {
      expect((await admin(owner, '/api/coupons', { body: bad })).status, JSON.stringify(bad)).toBe(400)
    }
    expect((await admin(owner, '/api/coupons', { body })).status).toBe(200)
    expect((await admin(owner, '/api/coupons', { body })).status).toBe(409)
    const listed = await admin(staff, '/api/coupons')
    expect(listed.json.result.find((r: { code: string }) => r.code === c)).toMatchObject({
      kind: 'percent',
      amount: 10,
      used: 0,
    })
  })

  it('disables a coupon: the cart refuses it from then on', async () => {
    const owner = await operator('owner')
    const c = code('OFF')
    await admin(owner, '/api/coupons', { body: { code: c, kind: 'fixed', amount: 100, label: 'x' } })
    expect((await cartWith(c)).applied.status).toBe(200)
    expect((await admin(owner, `/api/coupons/${c}`, { body: { is_active: false } })).status).toBe(200)
    expect((await cartWith(c)).applied.status).toBe(400)
  })
})

describe('usage rules', () => {
  it('refuses a first-order coupon to a signed-in shopper who has ordered, at the cart', async () => {
    const owner = await operator('owner')
    const c = code('FIRST')
    await admin(owner, '/api/coupons', {
      body: { code: c, kind: 'percent', amount: 15, label: 'Welcome', first_order_only: true },
    })
    const shopper = await registerAndLogin('cpn-first')
    expect((await cartWith(c, shopper.token)).applied.status).toBe(200)
    expect((await placeOrder(shopper.email, '', shopper.token)).status).toBe(200)
    const again = await cartWith(c, shopper.token)
    expect(again.applied.status).toBe(400)
    expect(again.applied.json.result).toMatch(/first order/)
  })

  it('refuses a first-order coupon at placement to a guest whose e-mail has ordered', async () => {
    const owner = await operator('owner')
    const c = code('FIRSTG')
    await admin(owner, '/api/coupons', {
      body: { code: c, kind: 'fixed', amount: 100, label: 'Welcome', first_order_only: true },
    })
    const email = `guest-${Date.now()}@example.com`
    const first = await cartWith(c)
    expect((await placeOrder(email, first.cartId)).status).toBe(200)
    const second = await cartWith(c)
    expect(second.applied.status).toBe(200)
    const refused = await placeOrder(email, second.cartId)
    expect(refused.status).toBe(400)
    expect(refused.json.result).toMatch(/first order/)
    expect((await placeOrder(`other-${email}`, second.cartId)).status).toBe(200)
  })

  it('checks the per-shopper limit when the coupon is applied, by the e-mail the cart knows', async () => {
    const owner = await operator('owner')
    const c = code('MINE')
    await admin(owner, '/api/coupons', {
      body: { code: c, kind: 'fixed', amount: 100, label: 'Once each', per_customer_limit: 1 },
    })
    // Used once by a guest order with this e-mail, which then signs up.
    const shopper = await registerAndLogin('cpn-mine')
    const guest = await cartWith(c)
    expect((await placeOrder(shopper.email, guest.cartId)).status).toBe(200)
    const signedIn = await cartWith(c, shopper.token)
    expect(signedIn.applied.status).toBe(400)
    expect(signedIn.applied.json.result).toMatch(/has already been used the most times allowed for you/)
    // A guest whose checkout saved the address with that e-mail is refused at the cart too.
    const cartId = (await api('/cart/create', { method: 'POST' })).json.result
    await api(`/cart/update?cartId=${cartId}`, { body: { cartItem: { sku: 'FX-SCARF', qty: 1 } } })
    await api(`/cart/shipping-information?cartId=${cartId}`, {
      body: { addressInformation: { shippingAddress: address(shopper.email) } },
    })
    const applied = await api(`/cart/apply-coupon?cartId=${cartId}&coupon=${c}`, { method: 'POST' })
    expect(applied.status).toBe(400)
    expect(applied.json.result).toMatch(/used the most times allowed for you/)
    // A guest the cart knows nothing about yet is told at placement, in the same words.
    const unknown = await cartWith(c)
    expect(unknown.applied.status).toBe(200)
    const refused = await placeOrder(shopper.email, unknown.cartId)
    expect(refused.status).toBe(400)
    expect(refused.json.result).toBe(
      `The coupon code "${c}" has already been used the most times allowed for you.`,
    )
  })

  it('stops a coupon at its total limit', async () => {
    const owner = await operator('owner')
    const c = code('ONCE')
    await admin(owner, '/api/coupons', {
      body: { code: c, kind: 'fixed', amount: 100, label: 'One use', total_limit: 1 },
    })
    const a = await cartWith(c)
    expect((await placeOrder(`a-${Date.now()}@example.com`, a.cartId)).status).toBe(200)
    expect((await cartWith(c)).applied.json.result).toMatch(/used up/)
  })

  it('lets only one of several orders placed at the same instant take a coupon’s last use', async () => {
    const owner = await operator('owner')
    const c = code('RACE')
    await admin(owner, '/api/coupons', {
      body: { code: c, kind: 'fixed', amount: 100, label: 'One use', total_limit: 1 },
    })
    // Every cart holds the coupon before any order is placed, so every check before the write passes.
    const carts = await Promise.all([1, 2, 3, 4].map(() => cartWith(c)))
    for (const cart of carts) expect(cart.applied.status).toBe(200)
    const before = await stockOf('FX-SCARF')
    const answers = await Promise.all(
      carts.map((cart, i) => placeOrder(`race${i}-${Date.now()}@example.com`, cart.cartId)),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    const refused = answers.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(3)
    for (const r of refused) {
      expect(r.status).toBe(409)
      expect(r.json.result).toMatch(/used up/)
    }
    // The refused orders left nothing behind: one unit taken, one order carrying the code.
    expect(await stockOf('FX-SCARF')).toBe((before ?? 0) - 1)
    const used = await countRows(
      "SELECT COUNT(*) AS n FROM orders WHERE json_extract(doc, '$.coupon_code') = ? COLLATE NOCASE",
      c,
    )
    expect(used).toBe(1)
  })
})
