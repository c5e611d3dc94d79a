// Rules that a one-line slip would break without another test noticing: stock summed over lines of
// the same sku, a cart's coupon re-checked whenever totals are computed, a subtotal exactly at a
// coupon's minimum accepted, and the tax contained in a custom option's price.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { guestOrder, seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api } from '../../../helpers/user'

beforeEach(seedCartFixtures)

const address = testAddress('asha.rules@example.com')
const rulesOrder = (products: unknown[], over: Record<string, unknown> = {}) =>
  orderBody(newOrderId('rules'), products, address, { flatRate: false, ...over })
const guestCart = async (): Promise<string> => (await api('/cart/create', { method: 'POST' })).json.result
const add = (cartId: string, cartItem: Record<string, unknown>) =>
  api(`/cart/update?cartId=${cartId}`, { body: { cartItem } })
const totals = async (cartId: string) => (await api(`/cart/totals?cartId=${cartId}`)).json.result
/** What the goods come to: the grand total less shipping and handling (the rules' rate, the COD fee). */
const goods = (t: { grand_total: number; shipping_amount: number }) => t.grand_total - t.shipping_amount
const applyCoupon = (cartId: string, code: string) =>
  api(`/cart/apply-coupon?cartId=${cartId}&coupon=${code}`, { method: 'POST' })

async function coupon(
  code: string,
  over: { min?: number; starts?: string | null; expires?: string | null } = {},
) {
  await env.DB.prepare(
    `INSERT OR REPLACE INTO coupons (code, kind, amount, min_subtotal, starts_at, expires_at, is_active, label)
     VALUES (?, 'fixed', 100, ?, ?, ?, 1, ?)`,
  )
    .bind(code, over.min ?? 0, over.starts ?? null, over.expires ?? null, code)
    .run()
}

describe('several lines of the same sku', () => {
  it('are summed in the stock check and the decrement', async () => {
    const twoAndTwo = await api('/order', {
      body: rulesOrder([
        { sku: 'FX-SCARF', qty: 2, price: 1 },
        { sku: 'FX-SCARF', qty: 2, price: 1 },
      ]),
    })
    expect(twoAndTwo.status).toBe(200)
    expect(await stockOf('FX-SCARF')).toBe(1)
    await seedCartFixtures()
    // 3 + 3 of a sku with 5 in stock: refused, nothing taken.
    const body = rulesOrder([
      { sku: 'FX-SCARF', qty: 3, price: 1 },
      { sku: 'FX-SCARF', qty: 3, price: 1 },
    ])
    const threeAndThree = await api('/order', { body })
    expect(threeAndThree.status).toBe(500)
    expect(threeAndThree.json.meta.detail).toContain('FX-SCARF')
    expect(await stockOf('FX-SCARF')).toBe(5)
  })
})

describe("a cart's coupon", () => {
  it('is dropped from totals and orders once the subtotal falls below its minimum', async () => {
    const cartId = await guestCart()
    const lehenga = (await add(cartId, { sku: 'FX-LEHENGA', qty: 1 })).json.result
    expect((await applyCoupon(cartId, 'FLAT500')).status).toBe(200)
    expect(goods(await totals(cartId))).toBe(5500)
    await api(`/cart/delete?cartId=${cartId}`, { body: { cartItem: { item_id: lehenga.item_id } } })
    await add(cartId, { sku: 'FX-SCARF', qty: 1 })
    const t = await totals(cartId)
    expect(goods(t)).toBe(1000)
    expect(Math.abs(t.discount_amount)).toBe(0)
    expect(t.coupon_code).toBeUndefined()
    const placed = await api('/order', {
      body: rulesOrder([{ sku: 'FX-SCARF', qty: 1, price: 1 }], { cart_id: cartId }),
    })
    const order = (await guestOrder(placed.json.result.orderNumber, placed.json.result.accessKey)).json.result
    expect(goods(order)).toBe(1000)
    expect(order.coupon_code).toBeUndefined()
  })

  it('is dropped once its window has closed (or not yet opened)', async () => {
    const hour = 3_600_000
    await coupon('FX-WINDOW', { expires: new Date(Date.now() + hour).toISOString() })
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-SCARF', qty: 1 })
    expect((await applyCoupon(cartId, 'FX-WINDOW')).status).toBe(200)
    expect(goods(await totals(cartId))).toBe(900)
    // Time passes: the coupon expired while it sat on the cart.
    await coupon('FX-WINDOW', { expires: new Date(Date.now() - hour).toISOString() })
    expect(goods(await totals(cartId))).toBe(1000)
    await coupon('FX-WINDOW', { starts: new Date(Date.now() + hour).toISOString() })
    expect(goods(await totals(cartId))).toBe(1000)
    const placed = await api('/order', {
      body: rulesOrder([{ sku: 'FX-SCARF', qty: 1, price: 1 }], { cart_id: cartId }),
    })
    const order = (await guestOrder(placed.json.result.orderNumber, placed.json.result.accessKey)).json.result
    expect(goods(order)).toBe(1000)
  })

  it('applies to a subtotal exactly at its minimum', async () => {
    await coupon('FX-EXACT', { min: 1000 })
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-SCARF', qty: 1 })
    const applied = await applyCoupon(cartId, 'FX-EXACT')
    expect(applied.status, JSON.stringify(applied.json)).toBe(200)
    const t = await totals(cartId)
    expect(t.coupon_code).toBe('FX-EXACT')
    expect(goods(t)).toBe(900)
    // One paisa short is refused.
    await coupon('FX-EXACT', { min: 1000.01 })
    expect(goods(await totals(cartId))).toBe(1000)
  })
})

describe('custom option prices', () => {
  it('include GST like the product price: ₹1,000 + ₹100 engraving at 10 % is ₹1,100 with ₹100 GST inside', async () => {
    const engraving = {
      extension_attributes: {
        configurable_item_options: [],
        custom_options: [{ option_id: 99031, option_value: 'A & R' }],
        bundle_options: [],
      },
    }
    const cartId = await guestCart()
    expect((await add(cartId, { sku: 'FX-ENGRAVED', qty: 1, product_option: engraving })).status).toBe(200)
    const t = await totals(cartId)
    expect(goods(t)).toBe(1100)
    expect(t.items[0].tax_amount).toBe(100)
    const placed = await api('/order', {
      body: rulesOrder([{ sku: 'FX-ENGRAVED', qty: 1, price: 990, product_option: engraving }], {
        cart_id: cartId,
      }),
    })
    const order = (await guestOrder(placed.json.result.orderNumber, placed.json.result.accessKey)).json.result
    expect(goods(order)).toBe(1100)
    expect(order.items[0]).toMatchObject({ price: 1000, price_incl_tax: 1100, tax_amount: 100 })
    expect(order.items[0].options).toEqual([{ label: expect.any(String), value: 'A & R' }])
  })
})
