// Orders paid partly or wholly with store credit: spent in the same batch, never below zero.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { grantStoreCredit } from '../../../../worker/api/giftcard/routes'
import { seedCartFixtures } from '../../../helpers/cart-fixtures'
import { bookAddress, orderBody } from '../../../helpers/orders'
import { api, registerAndLogin } from '../../../helpers/user'

beforeEach(seedCartFixtures)

const address = bookAddress()
const order = (products: unknown[], payment: string, over: Record<string, unknown> = {}) =>
  orderBody(`credit-${Date.now()}-${Math.random().toString(16).slice(2)}`, products, address, {
    payment,
    flatRate: false,
    store_credit_applied: true,
    ...over,
  })
const balanceOf = (id: number) =>
  env.DB.prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
    .bind(id)
    .first<number>('balance_minor')

describe('store credit on orders', () => {
  it('takes up to the balance off the grand total and records it in the ledger', async () => {
    const user = await registerAndLogin('credit-order')
    await grantStoreCredit(env.DB, user.id, 1000, 'Refund', Date.now())
    const body = order([{ sku: 'FX-SCARF', qty: 2, price: 1120 }], 'cashondelivery')
    const res = await api(`/order?token=${user.token}`, { body })
    expect(res.status).toBe(200)
    expect(res.json.result).toMatchObject({ storeCreditApplied: 1000, status: 'pending' })
    const got = await api(`/order/get?orderId=${res.json.result.orderNumber}&token=${user.token}`)
    // 2 × ₹1,000 (GST included), shipping ₹149 and the COD fee ₹49, less ₹1,000 of credit.
    expect(got.json.result).toMatchObject({ grand_total: 1000 + 149 + 49, customer_balance_amount: 1000 })
    expect(await balanceOf(user.id)).toBe(0)
    const ledger = await api(`/giftcard/store-credit-transaction?token=${user.token}`)
    expect(ledger.json.result.items[0]).toMatchObject({ amount: -1000, balance: 0, order_id: body.order_id })
    // A replay does not spend again.
    expect((await api(`/order?token=${user.token}`, { body })).json.result).toEqual(res.json.result)
    expect(await balanceOf(user.id)).toBe(0)
  })

  it('marks an order paid wholly by store credit as processing, with nothing left to pay', async () => {
    const user = await registerAndLogin('credit-full')
    await grantStoreCredit(env.DB, user.id, 5000, 'Gift', Date.now())
    const res = await api(`/order?token=${user.token}`, {
      body: order([{ sku: 'FX-GIFT', qty: 1, price: 500 }], 'card'),
    })
    expect(res.json.result).toMatchObject({
      storeCreditApplied: 500,
      status: 'processing',
      paymentPending: false,
    })
    expect(await balanceOf(user.id)).toBe(450_000)
  })

  it('refuses store credit for guests', async () => {
    const res = await api('/order', {
      body: order([{ sku: 'FX-SCARF', qty: 1, price: 1 }], 'cashondelivery', {
        addressInformation: {
          shippingAddress: { ...address, email: 'g@example.com' },
          billingAddress: { ...address, email: 'g@example.com' },
          payment_method_code: 'cashondelivery',
        },
      }),
    })
    expect(res.status).toBe(400)
    expect(res.json.result).toContain('store_credit_applied')
  })

  it('never drives the balance below zero when an order and a spend race', async () => {
    const user = await registerAndLogin('credit-race-order')
    await grantStoreCredit(env.DB, user.id, 1000, 'Refund', Date.now())
    const [placed, spent] = await Promise.all([
      api(`/order?token=${user.token}`, {
        body: order([{ sku: 'FX-SCARF', qty: 1, price: 1 }], 'cashondelivery'),
      }),
      api(`/giftcard/store-credit-spending?token=${user.token}`, { body: { amount: 600 } }),
    ])
    const balance = (await balanceOf(user.id)) as number
    expect(balance).toBeGreaterThanOrEqual(0)
    const ledger = await env.DB.prepare(
      'SELECT SUM(amount_minor) AS s FROM store_credit_ledger WHERE customer_id = ?',
    )
      .bind(user.id)
      .first<{ s: number }>()
    expect(ledger?.s).toBe(balance)
    expect([placed.status, spent.status]).not.toEqual([409, 400])
  })
})
