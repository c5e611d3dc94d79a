// Returns and size exchanges through every state, against the courier stand-in: stock exact,
// refunds never above what was paid.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { codCollected, inspect, readyToShip } from '../../../worker/admin/fulfilment'
import { orderRow } from '../api/payment/harness'
import {
  confirmedCodOrder,
  courier,
  deliverCourier,
  ops,
  paidCardOrder,
  shipmentsOf,
  shopCall,
  stockOf,
  withCourierStandIn,
} from './harness'

withCourierStandIn()

type Placed = Awaited<ReturnType<typeof paidCardOrder>>

/** Ships an order and has the courier deliver it. */
async function delivered(o: Placed) {
  const { x, done } = ops()
  const { shipment } = await readyToShip(x, o.orderNumber, Date.now())
  await done()
  await courier.advance(shipment.awb as string, 7)
  await deliverCourier()
  expect((await orderRow(o.orderId))?.status).toBe('delivered')
}

const view = (o: Placed, accessKey = o.accessKey) =>
  shopCall(`/api/fulfilment/orders/${o.orderNumber}`, { body: { accessKey } })
const ask = (o: Placed, body: Record<string, unknown>, accessKey = o.accessKey) =>
  shopCall(`/api/fulfilment/orders/${o.orderNumber}/returns`, { body: { accessKey, ...body } })

type Line = { order_item_id: number; unit_minor: number }

/** Delivers an order and reads its first returnable line as the shopper sees it. */
async function deliveredLine(o: Placed) {
  await delivered(o)
  return (await view(o)).json.result.returnable.lines[0]
}

/** Asks to send back one piece of a line: for a refund, or for another size when one is named. */
const askBack = (o: Placed, line: Line, reason: string, exchangeSku?: string, qty = 1) =>
  ask(o, {
    resolution: exchangeSku ? 'exchange' : 'refund',
    reason,
    items: [
      { order_item_id: line.order_item_id, qty, ...(exchangeSku ? { exchange_sku: exchangeSku } : {}) },
    ],
  })

/** An order for the kurta in S, delivered, with `mQty` of size M on the shelf. */
async function deliveredKurta(mQty: number) {
  await env.DB.prepare("UPDATE inventory SET qty = ?, is_in_stock = ? WHERE sku = 'FX-KURTA-M'")
    .bind(mQty, mQty > 0 ? 1 : 0)
    .run()
  const o = await paidCardOrder([{ sku: 'FX-KURTA-S', qty: 1, price: 1, parentSku: 'FX-KURTA' } as never])
  return { o, line: await deliveredLine(o) }
}

/** Moves a return's reverse pickup: picked up, then delivered to the shop. */
async function bringBack(o: Placed) {
  const reverse = (await shipmentsOf(o.orderId)).filter((s) => s.kind === 'return').at(-1)
  await courier.advance(reverse?.awb as string, 42)
  await deliverCourier()
  await courier.advance(reverse?.awb as string, 7)
  await deliverCourier()
}

/** A delivered scarf order with one piece sent back for a refund: the return waits for inspection. */
async function scarfBack(reason: string) {
  const o = await paidCardOrder()
  const line = await deliveredLine(o)
  const stock = await stockOf('FX-SCARF')
  const asked = await askBack(o, line, reason)
  await bringBack(o)
  return { o, line, stock, id: asked.json.result.return.id as number }
}

async function inspectAll(returnId: number, decision: 'accepted' | 'rejected', payout?: string) {
  const items = await env.DB.prepare('SELECT id FROM return_items WHERE return_id = ?')
    .bind(returnId)
    .all<{ id: number }>()
  const { x, done } = ops()
  const res = await inspect(
    x,
    returnId,
    {
      decisions: Object.fromEntries(items.results.map((i) => [String(i.id), decision])),
      payout_reference: payout,
    },
    Date.now(),
  )
  await done()
  return res
}

const returnRow = (id: number) =>
  env.DB.prepare('SELECT * FROM returns WHERE id = ?')
    .bind(id)
    .first<{ status: string; refund_minor: number }>()

describe('a return for a refund', () => {
  it('goes requested → pickup booked → picked up → received → closed; stock back, refunded at most what was paid', async () => {
    const o = await paidCardOrder([{ sku: 'FX-SCARF', qty: 2, price: 1 }])
    await delivered(o)
    const stock = await stockOf('FX-SCARF')
    const seen = await view(o)
    expect(seen.status).toBe(200)
    const line = seen.json.result.returnable.lines[0]
    expect(line).toMatchObject({ sku: 'FX-SCARF', returnable: 2 })
    expect(seen.json.result.shipments[0]).toMatchObject({ state: 'delivered', stateLabel: 'Delivered' })

    const asked = await askBack(o, line, 'Too long')
    expect(asked.status, JSON.stringify(asked.json)).toBe(200)
    const id = asked.json.result.return.id as number
    expect(asked.json.result.return.status).toBe('pickup_booked')
    // More than is left of the line: refused, nothing written.
    const over = await askBack(o, line, 'Again', undefined, 2)
    expect(over.status).toBe(409)

    await bringBack(o)
    expect((await returnRow(id))?.status).toBe('received')
    const res = await inspectAll(id, 'accepted')
    expect(res.status).toBe('closed')
    const row = await orderRow(o.orderId)
    expect(res.refunded_minor).toBe(line.unit_minor)
    expect(row?.refunded_minor).toBe(line.unit_minor)
    expect(row?.refunded_minor).toBeLessThanOrEqual(row?.paid_minor ?? 0)
    expect(await stockOf('FX-SCARF')).toBe((stock ?? 0) + 1)
    // A second inspection changes nothing.
    await expect(inspectAll(id, 'accepted')).rejects.toMatchObject({ status: 409 })
    expect(await stockOf('FX-SCARF')).toBe((stock ?? 0) + 1)
    expect((await orderRow(o.orderId))?.refunded_minor).toBe(line.unit_minor)
  })

  it('concurrent inspections of one return restock and refund once', async () => {
    const { o, line, stock, id } = await scarfBack('Too long')
    const results = await Promise.allSettled([1, 2, 3].map(() => inspectAll(id, 'accepted')))
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    expect(await stockOf('FX-SCARF')).toBe((stock ?? 0) + 1)
    expect((await orderRow(o.orderId))?.refunded_minor).toBe(line.unit_minor)
  })

  it('rejected pieces neither restock nor refund', async () => {
    const { o, stock, id } = await scarfBack('Changed mind')
    const res = await inspectAll(id, 'rejected')
    expect(res.refunded_minor).toBe(0)
    expect(await stockOf('FX-SCARF')).toBe(stock)
    expect((await orderRow(o.orderId))?.refunded_minor).toBe(0)
  })

  it("nobody returns another's order, and an order not delivered has no returns", async () => {
    const mine = await paidCardOrder()
    const other = await paidCardOrder()
    await delivered(mine)
    expect((await view(mine, other.accessKey)).status).toBe(403)
    expect(
      (
        await ask(
          mine,
          { resolution: 'refund', reason: 'mine now', items: [{ order_item_id: 1, qty: 1 }] },
          other.accessKey,
        )
      ).status,
    ).toBe(403)
    const line = (await view(mine)).json.result.returnable.lines[0]
    // A line of another order named in mine.
    const foreign = await askBack(mine, { ...line, order_item_id: line.order_item_id + 100000 }, 'Too long')
    expect(foreign.status).toBe(400)
    const notYet = await askBack(other, line, 'Too long')
    expect(notYet.status).toBe(409)
    expect(notYet.json.result).toMatch(/delivered/)
  })

  it('a product that cannot come back (made to order) is refused with words', async () => {
    const o = await paidCardOrder()
    await delivered(o)
    await env.DB.prepare("INSERT OR REPLACE INTO return_rules (sku, rule) VALUES ('FX-SCARF', 'none')").run()
    const line = (await view(o)).json.result.returnable.lines[0]
    const res = await askBack(o, line, 'Too long')
    await env.DB.prepare("DELETE FROM return_rules WHERE sku = 'FX-SCARF'").run()
    expect(res.status).toBe(409)
    expect(res.json.result).toMatch(/cannot be returned/)
  })
})

describe('a size exchange', () => {
  it('holds the new size at once, restocks the old one on receipt, ships the replacement with the price difference as cash on delivery', async () => {
    const { o, line } = await deliveredKurta(2)
    const s = await stockOf('FX-KURTA-S')
    expect(line.sizes).toEqual([{ sku: 'FX-KURTA-M', label: 'M' }])
    const asked = await askBack(o, line, 'Too tight', 'FX-KURTA-M')
    expect(asked.status, JSON.stringify(asked.json)).toBe(200)
    expect(await stockOf('FX-KURTA-M')).toBe(1)
    const id = asked.json.result.return.id as number
    await bringBack(o)
    const res = await inspectAll(id, 'accepted')
    expect(res.status).toBe('exchange_shipping')
    expect(await stockOf('FX-KURTA-S')).toBe((s ?? 0) + 1)
    expect(await stockOf('FX-KURTA-M')).toBe(1)
    const replacement = (await shipmentsOf(o.orderId)).find((x) => x.ref === `${o.orderNumber}-X1`)
    // M lists at 2000, S was bought at its special price of 1500: the shopper owes the difference.
    const ret = await env.DB.prepare('SELECT difference_minor FROM returns WHERE id = ?')
      .bind(id)
      .first<{ difference_minor: number }>()
    expect(ret?.difference_minor).toBeGreaterThan(0)
    expect(replacement).toMatchObject({ step: 'booked', cod_minor: ret?.difference_minor })
    expect((await orderRow(o.orderId))?.refunded_minor).toBe(0)
    // The shopper sees the replacement's tracking.
    await courier.advance(replacement?.awb as string, 18)
    await deliverCourier()
    const seen = await view(o)
    expect(
      seen.json.result.shipments.find((x: { ref: string }) => x.ref === `${o.orderNumber}-X1`),
    ).toMatchObject({
      awb: replacement?.awb,
      state: 'shipped',
    })
    await courier.advance(replacement?.awb as string, 7)
    await deliverCourier()
    expect((await returnRow(id))?.status).toBe('closed')
    // The order itself stays delivered throughout.
    expect((await orderRow(o.orderId))?.status).toBe('delivered')
  })

  it('a size that sold out is refused whole, nothing held', async () => {
    const { o, line } = await deliveredKurta(0)
    const res = await askBack(o, line, 'Too tight', 'FX-KURTA-M')
    expect(res.status).toBe(409)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM returns WHERE client_order_id = ?')
        .bind(o.orderId)
        .first('n'),
    ).toBe(0)
  })

  it('refused at the courier quality check: the held size goes back on sale', async () => {
    const { o, line } = await deliveredKurta(2)
    const asked = await askBack(o, line, 'Too tight', 'FX-KURTA-M')
    expect(await stockOf('FX-KURTA-M')).toBe(1)
    const reverse = (await shipmentsOf(o.orderId)).find((x) => x.kind === 'return')
    await courier.advance(reverse?.awb as string, 47)
    await deliverCourier()
    expect((await returnRow(asked.json.result.return.id))?.status).toBe('qc_failed')
    expect(await stockOf('FX-KURTA-M')).toBe(2)
  })
})

describe('cash on delivery returned', () => {
  it('a delivered, collected COD order returned for a refund needs the payout reference; the refund is recorded with it', async () => {
    const o = await confirmedCodOrder()
    await delivered(o)
    const { x, done } = ops()
    await expect(codCollected(x, o.orderNumber, Date.now())).rejects.toMatchObject({ status: 409 })
    await done()
    const line = (await view(o)).json.result.returnable.lines[0]
    const asked = await askBack(o, line, 'Colour')
    await bringBack(o)
    await expect(inspectAll(asked.json.result.return.id, 'accepted')).rejects.toMatchObject({ status: 400 })
    // The refusal left the return waiting for inspection.
    expect((await returnRow(asked.json.result.return.id))?.status).toBe('received')
    const res = await inspectAll(asked.json.result.return.id, 'accepted', 'UPI-REF-0001')
    expect(res.refunded_minor).toBe(line.unit_minor)
    const refund = await env.DB.prepare(
      'SELECT provider, reason, amount_minor FROM refunds WHERE client_order_id = ?',
    )
      .bind(o.orderId)
      .first<{ provider: string; reason: string; amount_minor: number }>()
    expect(refund).toMatchObject({ provider: 'manual', amount_minor: line.unit_minor })
    expect(refund?.reason).toContain('UPI-REF-0001')
  })
})
