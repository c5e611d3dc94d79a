// The steps of order placement, each on its own against real D1: resolving and checking lines,
// the form, store credit, the write batch and its conflicts, and the replay rule.

import { env } from 'cloudflare:test'
import { HTTPException } from 'hono/http-exception'
import { beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_PAYMENT_CURRENCIES } from '../../../../shared/config/checkout'
import { ORDER_ID_USED } from '../../../../shared/schemas/order'
import { grantStoreCredit } from '../../../../worker/api/giftcard/routes'
import {
  checkForm,
  checkStock,
  OutOfStock,
  resolveOrderLines,
  shippingForm,
  shipsNothing,
} from '../../../../worker/api/order/check'
import { storeCreditToApply } from '../../../../worker/api/order/credit'
import { placedBy, replay } from '../../../../worker/api/order/replay'
import { findOrderByClientId, type OrderRow } from '../../../../worker/api/order/repo'
import { type OrderWrite, writeOrder } from '../../../../worker/api/order/write'
import { seedCartFixtures } from '../../../helpers/cart-fixtures'
import { registerAndLogin } from '../../../helpers/user'

beforeEach(seedCartFixtures)

const address = { firstname: 'A', lastname: 'B', street: ['1 Road'], city: 'Pune', country_id: 'IN' }
const form = (over: Record<string, unknown> = {}) =>
  ({
    shippingAddress: address,
    billingAddress: address,
    payment_method_code: 'cashondelivery',
    ...over,
  }) as never

/** The 4xx an HTTPException-throwing step refuses with. */
function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run()
  } catch (err) {
    if (err instanceof HTTPException) return { status: err.status, message: err.message }
    throw err
  }
  throw new Error('the step did not refuse')
}

async function stockOf(sku: string) {
  return (await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?').bind(sku).first<{ qty: number }>())
    ?.qty
}

/** A write of `qty` scarves under `orderId`, built from the real resolve step. */
async function scarfWrite(orderId: string, qty: number, over: Partial<OrderWrite> = {}): Promise<OrderWrite> {
  const { lines, needed } = await resolveOrderLines(env.DB, [{ sku: 'FX-SCARF', qty }] as never)
  return {
    orderId,
    customerId: null,
    email: 'step@example.com',
    accessKeyHash: 'k'.repeat(64),
    status: 'pending',
    paymentMethod: 'cashondelivery',
    grandTotal: 1120 * qty,
    currency: 'INR',
    grandTotalMinor: 112_000 * qty,
    paymentState: 'none',
    expiresAt: null,
    placedFrom: '192.0.2.1',
    doc: { items: [] },
    result: { status: 'pending' },
    stamp: '2026-01-01 00:00:00',
    bodyHash: 'b'.repeat(64),
    cartKeyHash: null,
    lines,
    items: [{ qty_ordered: qty, price_incl_tax: 1120 }],
    needed,
    creditMinor: 0,
    cartId: null,
    ...over,
  }
}

describe('resolve lines and check stock', () => {
  it('names the line of an unknown sku and signals stock it cannot have', async () => {
    await expect(
      resolveOrderLines(env.DB, [
        { sku: 'FX-SCARF', qty: 1 },
        { sku: 'NOPE', qty: 1 },
      ] as never),
    ).rejects.toThrow('Invalid order: products.1.sku: unknown product NOPE')
    const resolved = await resolveOrderLines(env.DB, [{ sku: 'FX-SCARF', qty: 6 }] as never)
    expect(() => checkStock(resolved)).toThrow(OutOfStock)
    expect(() => checkStock(resolved)).toThrow('FX-SCARF is out of stock')
    expect(() => checkStock({ ...resolved, needed: new Map([['FX-SCARF', 5]]) })).not.toThrow()
  })
})

/** The form step as placement runs it: the shipping form parsed once, then checked. */
const checkOrderForm = (info: never, types: string[]) =>
  checkForm(info, shippingForm(info), types, { currency: 'INR', currencies: DEFAULT_PAYMENT_CURRENCIES })

describe('check the form', () => {
  it('ignores the shipping form of an order that ships nothing, and requires it otherwise', () => {
    expect(shipsNothing(['virtual', 'downloadable'])).toBe(true)
    expect(shipsNothing(['virtual', 'simple'])).toBe(false)
    expect(
      checkOrderForm(form({ shippingAddress: { city: '' }, payment_method_code: 'card' }), ['virtual']),
    ).toBeNull()
    expect(refusal(() => checkOrderForm(form({ shippingAddress: null }), ['simple']))).toEqual({
      status: 400,
      message: 'Invalid order: addressInformation.shippingAddress: a shipping address is required',
    })
    expect(
      refusal(() => checkOrderForm(form({ shippingAddress: { ...address, city: undefined } }), ['simple']))
        .message,
    ).toMatch(/^Invalid order: addressInformation\.shippingAddress\.city: /)
    expect(checkOrderForm(form(), ['simple'])).toMatchObject({ city: 'Pune' })
  })

  it('refuses a payment method the lines do not allow, naming the ones offered', () => {
    const { status, message } = refusal(() =>
      checkOrderForm(form({ payment_method_code: 'bitcoin' }), ['simple']),
    )
    expect(status).toBe(400)
    expect(message).toMatch(
      /^Invalid order: addressInformation\.payment_method_code: bitcoin is not available \(offered: .*cashondelivery/,
    )
  })
})

describe('apply store credit', () => {
  it('spends up to the balance, never more than the total, and only for a signed-in customer', async () => {
    const user = await registerAndLogin('steps-credit')
    await grantStoreCredit(env.DB, user.id, 300, 'Refund', Date.now())
    expect(await storeCreditToApply(env.DB, user.id, false, 1000)).toBe(0)
    expect(await storeCreditToApply(env.DB, user.id, true, 1000)).toBe(30_000)
    expect(await storeCreditToApply(env.DB, user.id, true, 120.5)).toBe(12_050)
    await expect(storeCreditToApply(env.DB, null, true, 1000)).rejects.toThrow(
      'store credit can only be applied when signed in',
    )
  })
})

describe('write the batch', () => {
  it('writes the order, its items and the stock decrement together, and reads the row back', async () => {
    const id = `steps-ok-${crypto.randomUUID()}`
    const written = await writeOrder(env.DB, await scarfWrite(id, 2))
    expect(written.conflict).toBeNull()
    expect(await stockOf('FX-SCARF')).toBe(3)
    const row = await findOrderByClientId(env.DB, id)
    expect(row?.increment_id).toMatch(/^\d{9}$/)
    // The row the batch read back is the row stored; 5 → 3 leaves the scarf sellable.
    expect(written.row).toEqual(row)
    expect(written.flipped).toEqual([])
    const items = await env.DB.prepare('SELECT sku, qty FROM order_items WHERE client_order_id = ?')
      .bind(id)
      .all()
    expect(items.results).toEqual([{ sku: 'FX-SCARF', qty: 2 }])
  })

  it('names the skus its stock move made unsellable', async () => {
    await env.DB.prepare('UPDATE inventory SET qty = 2 WHERE sku = ?').bind('FX-SCARF').run()
    const written = await writeOrder(env.DB, await scarfWrite(`steps-last-${crypto.randomUUID()}`, 2))
    expect(written.flipped?.map((f) => f.sku)).toEqual(['FX-SCARF'])
  })

  it('reports a duplicate id, missing stock and a spent balance as conflicts, writing nothing', async () => {
    const id = `steps-dup-${crypto.randomUUID()}`
    await writeOrder(env.DB, await scarfWrite(id, 1))
    expect((await writeOrder(env.DB, await scarfWrite(id, 1))).conflict).toBe('duplicate-order-id')
    expect(await stockOf('FX-SCARF')).toBe(4)

    const short = `steps-short-${crypto.randomUUID()}`
    await env.DB.prepare('UPDATE inventory SET qty = 1 WHERE sku = ?').bind('FX-SCARF').run()
    expect((await writeOrder(env.DB, await scarfWrite(short, 2))).conflict).toBe('out-of-stock')
    expect(await findOrderByClientId(env.DB, short)).toBeNull()
    expect(await stockOf('FX-SCARF')).toBe(1)

    const user = await registerAndLogin('steps-spent')
    await grantStoreCredit(env.DB, user.id, 5, 'Refund', Date.now())
    const spent = `steps-spent-${crypto.randomUUID()}`
    const write = await scarfWrite(spent, 1, { customerId: user.id, creditMinor: 10_000 })
    expect((await writeOrder(env.DB, write)).conflict).toBe('credit-spent')
    expect(await findOrderByClientId(env.DB, spent)).toBeNull()
    expect(await stockOf('FX-SCARF')).toBe(1)
  })
})

describe('replay', () => {
  const row = {
    entity_id: 7,
    increment_id: '000000007',
    customer_id: 42,
    body_hash: 'a'.repeat(64),
    cart_key_hash: 'c'.repeat(64),
    result: JSON.stringify({ status: 'pending', accessKey: 'secret' }),
  } as OrderRow

  it('answers the stored result to the same customer, the same body or the same guest cart', () => {
    const stranger = { customerId: 43, bodyHash: 'x'.repeat(64), cartKeyHash: null }
    expect(placedBy(row, { ...stranger, customerId: 42 })).toBe(true)
    expect(placedBy(row, { ...stranger, bodyHash: 'a'.repeat(64) })).toBe(true)
    expect(placedBy(row, { ...stranger, cartKeyHash: 'c'.repeat(64) })).toBe(true)
    expect(replay(row, { ...stranger, customerId: 42 })).toMatchObject({
      orderNumber: '000000007',
      accessKey: 'secret',
    })
  })

  it('gives anyone else a 409 without order data; a guest order never matches on a missing customer', () => {
    const stranger = { customerId: 43, bodyHash: 'x'.repeat(64), cartKeyHash: null }
    expect(refusal(() => replay(row, stranger))).toEqual({ status: 409, message: ORDER_ID_USED })
    const guestOrder = { ...row, customer_id: null, cart_key_hash: null }
    expect(placedBy(guestOrder, { customerId: null, bodyHash: 'y'.repeat(64), cartKeyHash: null })).toBe(
      false,
    )
  })
})
