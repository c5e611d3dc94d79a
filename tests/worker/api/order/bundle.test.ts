// Bundle and grouped products: priced from the catalogue only (never from the option quantities or
// prices a client sends), options/selections/quantities checked against the product, ordered end
// to end with the stock of every linked product decremented exactly once, and only server-built
// item options stored.

import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { SHIPPING_RULES } from '../../../../shared/config/shipping'
import type { Product } from '../../../../shared/schemas/catalog'
import {
  bundleOption,
  firstListedDemoProduct,
  guestOrder,
  onePieceEach,
  seedCartFixtures,
  stockOf,
} from '../../../helpers/cart-fixtures'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api, type Json } from '../../../helpers/user'
import { orderCount } from './place-orders'

beforeEach(seedCartFixtures)

const orderId = () => newOrderId('bundle')
const bundleOrder = (
  products: unknown[],
  over: Record<string, unknown> = {},
  address = testAddress(freshEmail('bundle')),
) => orderBody(orderId(), products, address, { flatRate: false, ...over })
/** Earrings B × 2 and bag A × 1 (option quantities per bundle). */
const EAR_B_BAG_A = bundleOption([
  { option_id: 99021, option_qty: 2, option_selections: [9902102] },
  { option_id: 99022, option_qty: 1, option_selections: [9902201] },
])

async function guestCart(): Promise<string> {
  return (await api('/cart/create', { method: 'POST' })).json.result
}
const add = (cartId: string, cartItem: Record<string, unknown>) =>
  api(`/cart/update?cartId=${cartId}`, { body: { cartItem } })
const totals = async (cartId: string) => (await api(`/cart/totals?cartId=${cartId}`)).json.result

/** Every key anywhere in a JSON value. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysOf(v, out)
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.add(k)
      keysOf(v, out)
    }
  return out
}

describe('bundle prices come from the catalogue', () => {
  it('refuses option quantities that are not whole numbers (the ₹5,398 bundle was sold for ₹0.35)', async () => {
    // The demo catalogue's bundle, as the attack used it.
    const bundle = await firstListedDemoProduct<Product>('bundle')
    const cartId = await guestCart()
    const tiny = await add(cartId, {
      sku: bundle.sku,
      qty: 1,
      product_option: bundleOption(
        bundle.bundle_options.map((o) => ({
          option_id: o.option_id,
          option_qty: 0.0001,
          option_selections: [o.product_links[0]?.id],
        })),
      ),
    })
    expect(tiny.status).toBe(400)
    expect(tiny.json.result).toContain('option_qty')
    expect((await api(`/cart/pull?cartId=${cartId}`)).json.result).toEqual([])
  })

  it('prices the chosen links × their quantities from the catalogue, whatever price fields the client adds', async () => {
    const cartId = await guestCart()
    const option = bundleOption([
      { option_id: 99021, option_qty: 2, option_selections: [9902102], price: 0.01 } as never,
      { option_id: 99022, option_qty: '1', option_selections: ['9902201'] },
    ])
    const added = await add(cartId, { sku: 'FX-BUNDLE', qty: 1, price: 1, product_option: option })
    expect(added.status).toBe(200)
    // 2 × 3000 + 1 × 1500 = 7500: catalogue prices include GST, so that is the charged unit price.
    expect(added.json.result).toMatchObject({ sku: 'FX-BUNDLE', price: 7500, product_type: 'bundle' })
    expect(added.json.result.product_option).toEqual(EAR_B_BAG_A)
    const t = await totals(cartId)
    expect(t.subtotal_incl_tax).toBe(7500)
    expect(t.grand_total).toBe(7500)
    // The product page's default choice is the bundle's catalogue price.
    const defaults = await add(cartId, {
      sku: 'FX-BUNDLE',
      qty: 1,
      product_option: onePieceEach(9902101, 9902201),
    })
    expect(defaults.json.result.price).toBe(3500)
  })

  it('names the unknown option, selection or broken quantity rule in a 400', async () => {
    const cartId = await guestCart()
    const cases: [unknown[], string][] = [
      [[{ option_id: 1234, option_qty: 1, option_selections: [9902101] }], 'unknown bundle option 1234'],
      [
        [
          { option_id: 99021, option_qty: 1, option_selections: [9902201] },
          { option_id: 99022, option_qty: 1, option_selections: [9902201] },
        ],
        'unknown selection 9902201 for bundle option 99021',
      ],
      [
        [
          { option_id: 99021, option_qty: 1, option_selections: [9902101] },
          { option_id: 99022, option_qty: 0, option_selections: [9902201] },
        ],
        'bundle option 99022 (Bag) is required',
      ],
      [
        [{ option_id: 99021, option_qty: 1, option_selections: [9902101] }],
        'bundle option 99022 (Bag) is required',
      ],
      [
        [
          { option_id: 99021, option_qty: 101, option_selections: [9902101] },
          { option_id: 99022, option_qty: 1, option_selections: [9902201] },
        ],
        'at most 100',
      ],
      [
        [
          { option_id: 99021, option_qty: 1, option_selections: [9902101, 9902102] },
          { option_id: 99022, option_qty: 1, option_selections: [9902201] },
        ],
        'takes one selection',
      ],
      [
        [
          { option_id: 99021, option_qty: 1, option_selections: [9902101] },
          { option_id: 99021, option_qty: 1, option_selections: [9902102] },
        ],
        'given twice',
      ],
      [
        [
          { option_id: 99021, option_qty: '0x2', option_selections: [9902101] },
          { option_id: 99022, option_qty: 1, option_selections: [9902201] },
        ],
        'option_qty must be a whole number written with the digits 0-9',
      ],
      [
        [
          { option_id: 99021, option_qty: -1, option_selections: [9902101] },
          { option_id: 99022, option_qty: 1, option_selections: [9902201] },
        ],
        'option_qty must be at least 0',
      ],
    ]
    for (const [choices, message] of cases) {
      const res = await add(cartId, {
        sku: 'FX-BUNDLE',
        qty: 1,
        product_option: bundleOption(choices as never),
      })
      expect(res.status, message).toBe(400)
      expect(res.json.result, message).toContain(message)
    }
    const noOptions = await add(cartId, { sku: 'FX-BUNDLE', qty: 1 })
    expect(noOptions.status).toBe(400)
    expect(noOptions.json.result).toContain('is required')
    // Options of another product type are refused too.
    const onSimple = await add(cartId, { sku: 'FX-SCARF', qty: 1, product_option: EAR_B_BAG_A })
    expect(onSimple.status).toBe(400)
    expect(onSimple.json.result).toContain('FX-SCARF has no bundle options')
    expect((await api(`/cart/pull?cartId=${cartId}`)).json.result).toEqual([])
  })

  it("checks the linked products' stock, not the bundle's own stock field", async () => {
    const cartId = await guestCart()
    // Earrings B: 2 in stock; 1 bundle × 2 fits, 2 bundles × 2 do not.
    expect((await add(cartId, { sku: 'FX-BUNDLE', qty: 1, product_option: EAR_B_BAG_A })).status).toBe(200)
    const tooMany = await add(cartId, { sku: 'FX-BUNDLE', qty: 2, product_option: EAR_B_BAG_A })
    expect(tooMany.status).toBe(400)
    expect(tooMany.json.result).toBe('The requested qty is not available')
    const soldOutBag = await add(cartId, {
      sku: 'FX-BUNDLE',
      qty: 1,
      product_option: onePieceEach(9902101, 9902202),
    })
    expect(soldOutBag.status).toBe(400)
  })
})

describe('stock of bundle and grouped products', () => {
  it('is the number of whole sets the linked products allow', async () => {
    const check = async (sku: string) => (await api(`/stock/check?sku=${sku}`)).json.result
    // Bundle: earrings best link A (5), bag best link A (6) → 5 sets; grouped: min(ear A 5, bag A 6).
    expect(await check('FX-BUNDLE')).toMatchObject({ sku: 'FX-BUNDLE', qty: 5, is_in_stock: true })
    expect(await check('FX-GROUPED')).toMatchObject({ sku: 'FX-GROUPED', qty: 5, is_in_stock: true })
    await env.DB.prepare("UPDATE inventory SET qty = 0 WHERE sku IN ('FX-EAR-A', 'FX-EAR-B')").run()
    expect(await check('FX-BUNDLE')).toMatchObject({ qty: 0, is_in_stock: false })
    expect(await check('FX-GROUPED')).toMatchObject({ qty: 0, is_in_stock: false })
    const list = (await api('/stock/list?skus=FX-BUNDLE,FX-BAG-A')).json.result
    expect(list.map((i: Json) => [i.sku, i.qty])).toEqual([
      ['FX-BUNDLE', 0],
      ['FX-BAG-A', 6],
    ])
  })
})

describe('ordering bundles and grouped products', () => {
  it('orders a bundle from the cart: catalogue totals, every linked product decremented once', async () => {
    const cartId = await guestCart()
    const optional = bundleOption([
      { option_id: 99021, option_qty: 2, option_selections: [9902102] },
      { option_id: 99022, option_qty: 1, option_selections: [9902201] },
      { option_id: 99023, option_qty: 1, option_selections: [9902301] },
    ])
    expect((await add(cartId, { sku: 'FX-BUNDLE', qty: 1, product_option: optional })).status).toBe(200)
    expect((await add(cartId, { sku: 'FX-SCARF', qty: 1 })).status).toBe(200)
    const cartTotals = await totals(cartId)
    // (2 × 3000 + 1500 + 1000) + 1000, GST included
    expect(cartTotals.grand_total).toBe(9500)
    const body = bundleOrder(
      [
        { sku: 'FX-BUNDLE', qty: 1, price: 0.01, product_option: optional },
        { sku: 'FX-SCARF', qty: 1, price: 0.01 },
      ],
      { cart_id: cartId },
    )
    const placed = await api('/order', { body })
    expect(placed.status, JSON.stringify(placed.json)).toBe(200)
    expect(await stockOf('FX-EAR-B')).toBe(0)
    expect(await stockOf('FX-BAG-A')).toBe(5)
    // The scarf was ordered alone and inside the bundle: both draw on its stock.
    expect(await stockOf('FX-SCARF')).toBe(3)
    expect(await stockOf('FX-EAR-A')).toBe(5)
    const order = (await guestOrder(placed.json.result.orderNumber, placed.json.result.accessKey)).json.result
    // Paid on delivery: the cart's total and the cash-on-delivery fee.
    expect(order.grand_total).toBe(cartTotals.grand_total + SHIPPING_RULES.cod.fee)
    expect(order.items.map((i: Json) => [i.sku, i.product_type, i.qty_ordered, i.price_incl_tax])).toEqual([
      ['FX-BUNDLE', 'bundle', 1, 8500],
      ['FX-SCARF', 'simple', 1, 1000],
    ])
    // The order's rows say exactly what stock it took.
    const rows = await env.DB.prepare(
      'SELECT sku, qty, price_incl_tax, parent_sku FROM order_items WHERE client_order_id = ? ORDER BY id',
    )
      .bind(body.order_id)
      .all()
    expect(rows.results).toEqual([
      { sku: 'FX-BUNDLE', qty: 1, price_incl_tax: 8500, parent_sku: null },
      { sku: 'FX-EAR-B', qty: 2, price_incl_tax: 0, parent_sku: 'FX-BUNDLE' },
      { sku: 'FX-BAG-A', qty: 1, price_incl_tax: 0, parent_sku: 'FX-BUNDLE' },
      { sku: 'FX-SCARF', qty: 1, price_incl_tax: 0, parent_sku: 'FX-BUNDLE' },
      { sku: 'FX-SCARF', qty: 1, price_incl_tax: 1000, parent_sku: null },
    ])
    // Replays (lost answer) and concurrent duplicates never take stock twice.
    const replays = await Promise.all([1, 2, 3].map(() => api('/order', { body })))
    for (const r of replays) expect(r.json.result).toEqual(placed.json.result)
    expect(await stockOf('FX-EAR-B')).toBe(0)
    expect(await stockOf('FX-BAG-A')).toBe(5)
    expect(await stockOf('FX-SCARF')).toBe(3)
  })

  it('takes nothing when one linked product lacks stock (and leaves no half-written order)', async () => {
    const body = bundleOrder([
      {
        sku: 'FX-BUNDLE',
        qty: 2,
        price: 1,
        product_option: EAR_B_BAG_A,
      },
      { sku: 'FX-EAR-B', qty: 1, price: 1 },
    ])
    // 2 bundles × 2 + 1 = 5 of earrings B, 2 in stock.
    const res = await api('/order', { body })
    expect(res.status).toBe(500)
    expect(res.json.result).toBe('Error: Error while adding products')
    expect(res.json.meta.detail).toContain('FX-EAR-B')
    expect(await stockOf('FX-EAR-B')).toBe(2)
    expect(await stockOf('FX-BAG-A')).toBe(6)
    expect(await orderCount(body.order_id)).toBe(0)
    // Two concurrent bundle orders for the last two earrings B: exactly one succeeds.
    const a = bundleOrder([{ sku: 'FX-BUNDLE', qty: 1, price: 1, product_option: EAR_B_BAG_A }])
    const b = bundleOrder([{ sku: 'FX-BUNDLE', qty: 1, price: 1, product_option: EAR_B_BAG_A }])
    const answers = await Promise.all([api('/order', { body: a }), api('/order', { body: b })])
    expect(answers.map((x) => x.status).sort()).toEqual([200, 500])
    expect(await stockOf('FX-EAR-B')).toBe(0)
    expect(await stockOf('FX-BAG-A')).toBe(5)
  })

  it('orders a grouped product: one of each associated product, priced from the catalogue', async () => {
    const cartId = await guestCart()
    const added = await add(cartId, { sku: 'FX-GROUPED', qty: 2 })
    expect(added.status).toBe(200)
    expect(added.json.result).toMatchObject({ sku: 'FX-GROUPED', price: 3500, product_type: 'grouped' })
    const placed = await api('/order', {
      body: bundleOrder([{ sku: 'FX-GROUPED', qty: 2, price: 0.01 }], { cart_id: cartId }),
    })
    expect(placed.status, JSON.stringify(placed.json)).toBe(200)
    expect(await stockOf('FX-EAR-A')).toBe(3)
    expect(await stockOf('FX-BAG-A')).toBe(4)
    const order = (await guestOrder(placed.json.result.orderNumber, placed.json.result.accessKey)).json.result
    // 2 × ₹3,500 ships free; paid on delivery, with its fee.
    expect(order.grand_total).toBe(7000 + SHIPPING_RULES.cod.fee)
    // The product page adds a grouped product's products as their own lines: those order too.
    const lines = await api('/order', {
      body: bundleOrder([
        { sku: 'FX-EAR-A', qty: 1, price: 1, parentSku: 'FX-GROUPED' },
        { sku: 'FX-BAG-A', qty: 1, price: 1, parentSku: 'FX-GROUPED' },
      ]),
    })
    expect(lines.status).toBe(200)
    expect(await stockOf('FX-EAR-A')).toBe(2)
    expect(await stockOf('FX-BAG-A')).toBe(3)
  })

  it('refuses unknown bundle choices in an order with a 400 that names them', async () => {
    const res = await api('/order', {
      body: bundleOrder([
        { sku: 'FX-SCARF', qty: 1, price: 1 },
        {
          sku: 'FX-BUNDLE',
          qty: 1,
          price: 1,
          product_option: onePieceEach(42, 9902201),
        },
      ]),
    })
    expect(res.status).toBe(400)
    expect(res.json.result).toContain('products.1.product_option')
    expect(res.json.result).toContain('unknown selection 42 for bundle option 99021')
    expect(await stockOf('FX-SCARF')).toBe(5)
  })
})

describe('stored item options', () => {
  it('keep only what the catalogue says, never client-sent money fields', async () => {
    const clientOption = {
      extension_attributes: {
        configurable_item_options: [{ option_id: '142', option_value: '1', price: 1, label: 'Free' }],
        custom_options: [],
        bundle_options: [],
        price_incl_tax: 0.01,
      },
      final_price: 0.01,
      base_price: 0.01,
    }
    const cartId = await guestCart()
    const added = await add(cartId, { sku: 'FX-KURTA-S', qty: 1, product_option: clientOption })
    expect(added.status).toBe(200)
    const engraved = {
      extension_attributes: {
        custom_options: [
          { option_id: 99031, option_value: 'A & R', price: 0, option_price: 0.01 },
          { option_id: '99032', option_value: '9903202', price_type: 'fixed' },
        ],
        bundle_options: [],
        configurable_item_options: [],
      },
    }
    const body = bundleOrder([
      { sku: 'FX-KURTA-S', qty: 1, price: 0.01, product_option: clientOption },
      { sku: 'FX-BUNDLE', qty: 1, price: 0.01, product_option: EAR_B_BAG_A },
      { sku: 'FX-ENGRAVED', qty: 1, price: 0.01, product_option: engraved },
    ])
    const placed = await api('/order', { body })
    expect(placed.status, JSON.stringify(placed.json)).toBe(200)
    const row = await env.DB.prepare('SELECT doc FROM orders WHERE client_order_id = ?')
      .bind(body.order_id)
      .first<{ doc: string }>()
    const doc = JSON.parse(row?.doc ?? '{}')
    const optionKeys = keysOf(doc.items.map((i: Json) => i.product_option))
    expect([...optionKeys].sort()).toEqual(
      [
        'extension_attributes',
        'configurable_item_options',
        'custom_options',
        'bundle_options',
        'option_id',
        'option_value',
        'label',
        'value',
        'option_qty',
        'option_selections',
      ].sort(),
    )
    expect(doc.items[0].product_option.extension_attributes.configurable_item_options).toEqual([
      { option_id: '142', option_value: '1', label: 'Size', value: 'S' },
    ])
    // ₹1,000 + ₹100 engraving + 10 % gloss (₹100), 10 % GST included in that.
    expect(doc.items[2]).toMatchObject({
      price_incl_tax: 1200,
      price: (120_000 - Math.round(120_000 / 11)) / 100,
    })
    const cartRow = await env.DB.prepare(
      'SELECT product_option FROM cart_items WHERE sku = ? ORDER BY item_id DESC',
    )
      .bind('FX-KURTA-S')
      .first<{ product_option: string }>()
    expect(cartRow?.product_option).not.toContain('0.01')
    expect(cartRow?.product_option).not.toContain('Free')
  })
})
