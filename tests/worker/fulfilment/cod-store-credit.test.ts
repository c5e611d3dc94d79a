// A cash-on-delivery order returned to store credit: delivered and collected by the courier's
// event, a piece sent back and accepted at inspection; the money is recorded as a manual refund of
// exactly the accepted piece (never the shipping, never more than was collected) plus one credit
// grant of the same amount, and what the shopper reads on the order page, in the credit ledger and
// in their balance is that one amount. A second inspection changes nothing.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { inspect, readyToShip } from '../../../worker/admin/fulfilment'
import { transitionOrder } from '../../../worker/api/order/lifecycle'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../helpers/orders'
import { api, registerAndLogin } from '../../helpers/user'
import { orderRow } from '../api/payment/harness'
import { courier, deliverCourier, ops, shipmentsOf, shopCall, stockOf, withCourierStandIn } from './harness'

withCourierStandIn()

describe('a cash-on-delivery order returned to store credit', () => {
  it('is a manual refund of the accepted piece and one credit grant, and the shopper sees the ledger’s amount', async () => {
    const user = await registerAndLogin('cod-credit')
    // 2 scarves (₹2,000) below the free-shipping threshold: ₹149 shipping and the ₹49 COD fee.
    const placed = await shopCall('/api/order', {
      bearer: user.token,
      body: orderBody(
        newOrderId('cod-credit'),
        [{ sku: 'FX-SCARF', qty: 2, price: 1 }],
        testAddress(freshEmail('cod-credit')),
        { user_id: String(user.id) },
      ),
    })
    expect(placed.status, JSON.stringify(placed.json)).toBe(200)
    const o = placed.json.result as { orderNumber: string; accessKey: string }
    const orderId = (
      await env.DB.prepare('SELECT client_order_id FROM orders WHERE increment_id = ?')
        .bind(o.orderNumber)
        .first<{ client_order_id: string }>()
    )?.client_order_id as string
    expect((await orderRow(orderId))?.grand_total_minor).toBe(200_000 + 14_900 + 4900)
    await transitionOrder(env.DB, { orderId, to: 'processing', actor: 'test' }, Date.now())

    // Shipped and delivered by the courier: the cash is collected with the order's total.
    const { x, done } = ops()
    const { shipment } = await readyToShip(x, o.orderNumber, Date.now())
    await done()
    await courier.advance(shipment.awb as string, 7)
    await deliverCourier()
    const collected = await orderRow(orderId)
    expect(collected).toMatchObject({ status: 'delivered', paid_minor: 219_800, refunded_minor: 0 })

    // One scarf back for store credit.
    const page = await shopCall(`/api/fulfilment/orders/${o.orderNumber}`, {
      body: { accessKey: o.accessKey },
    })
    const line = page.json.result.returnable.lines[0]
    const asked = await shopCall(`/api/fulfilment/orders/${o.orderNumber}/returns`, {
      body: {
        accessKey: o.accessKey,
        resolution: 'store_credit',
        reason: 'Too long',
        items: [{ order_item_id: line.order_item_id, qty: 1 }],
      },
    })
    expect(asked.status, JSON.stringify(asked.json)).toBe(200)
    const returnId = asked.json.result.return.id as number
    const reverse = (await shipmentsOf(orderId)).filter((s) => s.kind === 'return').at(-1)
    await courier.advance(reverse?.awb as string, 42)
    await deliverCourier()
    await courier.advance(reverse?.awb as string, 7)
    await deliverCourier()
    const stockBefore = await stockOf('FX-SCARF')

    const items = await env.DB.prepare('SELECT id FROM return_items WHERE return_id = ?')
      .bind(returnId)
      .all<{ id: number }>()
    const decisions = Object.fromEntries(items.results.map((i) => [String(i.id), 'accepted' as const]))
    const first = ops()
    const res = await inspect(first.x, returnId, { decisions }, Date.now())
    await first.done()
    // The piece's price, not the shipping or the fee.
    expect(res).toMatchObject({ status: 'closed', credited_minor: 100_000, refunded_minor: 0, message: null })
    expect(await stockOf('FX-SCARF')).toBe((stockBefore as number) + 1)

    // Recorded as a manual refund (no provider pays cash back) of that amount …
    const refunds = await env.DB.prepare(
      'SELECT provider, amount_minor, reason FROM refunds WHERE client_order_id = ?',
    )
      .bind(orderId)
      .all<{ provider: string; amount_minor: number; reason: string }>()
    expect(refunds.results).toEqual([
      { provider: 'manual', amount_minor: 100_000, reason: expect.stringContaining('store credit') },
    ])
    expect(await orderRow(orderId)).toMatchObject({ paid_minor: 219_800, refunded_minor: 100_000 })
    // … and one grant of the same amount in the shopper's ledger and balance.
    const ledger = await api(`/giftcard/store-credit-transaction?token=${user.token}`)
    expect(ledger.status).toBe(200)
    expect(ledger.json.result.items).toEqual([
      expect.objectContaining({ amount: 1000, balance: 1000, comment: expect.stringContaining('Return R1') }),
    ])
    expect(ledger.json.result.total_balance).toBe(1000)
    // The order page states the same amount.
    const after = await shopCall(`/api/fulfilment/orders/${o.orderNumber}`, {
      body: { accessKey: o.accessKey },
    })
    expect(after.json.result.returns).toEqual([
      expect.objectContaining({
        status: 'closed',
        resolution: 'store_credit',
        credit_minor: 100_000,
        refund_minor: 0,
      }),
    ])

    // Inspecting again changes nothing: no second refund, no second grant.
    const again = ops()
    await expect(inspect(again.x, returnId, { decisions }, Date.now())).rejects.toMatchObject({ status: 409 })
    await again.done()
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM refunds WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ n: number }>()
    expect(count?.n).toBe(1)
    const later = (await api(`/giftcard/store-credit-transaction?token=${user.token}`)).json.result
    expect({ grants: later.items.length, balance: later.total_balance }).toEqual({ grants: 1, balance: 1000 })
  })
})
