// Booking with the courier and trusting its events, against the courier stand-in.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import {
  actOnNdr,
  codCollected,
  codRemitted,
  readyToShip,
  receiveRto,
} from '../../../worker/admin/fulfilment'
import { mails, orderRow } from '../api/payment/harness'
import {
  confirmedCodOrder,
  courier,
  courierCalls,
  courierHeld,
  deliverCourier,
  faults,
  ops,
  paidCardOrder,
  runCron,
  ship,
  shipEnv,
  shipmentsOf,
  shopCall,
  stockOf,
  withCourierStandIn,
} from './harness'

withCourierStandIn()

const events = () =>
  env.DB.prepare('SELECT outcome FROM courier_events ORDER BY id DESC LIMIT 1').first<{ outcome: string }>()

describe('ready to ship', () => {
  it('creates the courier order, assigns the AWB, fetches the label and books the pickup; the order is packed', async () => {
    const o = await paidCardOrder()
    const res = await ship(o.orderNumber)
    expect(res.booking).toBe('sent')
    expect(res.shipment).toMatchObject({ ref: o.orderNumber, step: 'booked', courier: 'Sandbox Surface' })
    expect(res.shipment.awb).toMatch(/^SBF/)
    expect(res.shipment.label_url).toContain('/labels/')
    expect((await orderRow(o.orderId))?.status).toBe('packed')
    expect(courier.ordersFor(o.orderNumber)).toHaveLength(1)
    expect(courier.ordersFor(o.orderNumber)[0]?.paymentMethod).toBe('Prepaid')
  })

  it('never makes two courier orders for one of ours under concurrent clicks', async () => {
    const o = await paidCardOrder()
    const { x, done } = ops()
    courierCalls.length = 0
    const answers = await Promise.allSettled(
      Array.from({ length: 6 }, () => readyToShip(x, o.orderNumber, Date.now())),
    )
    await done()
    expect(answers.some((a) => a.status === 'fulfilled')).toBe(true)
    expect(courier.ordersFor(o.orderNumber)).toHaveLength(1)
    expect(await shipmentsOf(o.orderId)).toHaveLength(1)
    // One create was sent at all (the courier would refuse a reused reference, but it is never asked).
    expect(courierCalls.filter((c) => c.endsWith('/orders/create/adhoc'))).toHaveLength(1)
  })

  it('a COD order asks the courier to collect exactly the order total', async () => {
    const o = await confirmedCodOrder()
    await ship(o.orderNumber)
    const at = courier.ordersFor(o.orderNumber)[0]
    expect(at?.paymentMethod).toBe('COD')
    expect(Math.round((at?.subTotal ?? 0) * 100)).toBe((await orderRow(o.orderId))?.grand_total_minor)
  })

  it('courier down: the booking waits and the Cron Trigger retries it with growing pauses, one courier order in the end', async () => {
    const o = await paidCardOrder()
    courier.setDown(true)
    const t0 = Date.now()
    const first = await ship(o.orderNumber)
    expect(first.booking).toBe('failed')
    expect((await orderRow(o.orderId))?.status).toBe('processing')
    const row = await env.DB.prepare('SELECT * FROM courier_outbox WHERE shipment_id = ?')
      .bind(first.shipment.id)
      .first<{ status: string; attempts: number; next_attempt_at: number }>()
    expect(row).toMatchObject({ status: 'failed', attempts: 1 })
    expect(row?.next_attempt_at).toBeGreaterThan(t0)
    // Not due yet: the drain leaves it.
    await runCron(t0 + 1000)
    expect((await shipmentsOf(o.orderId))[0]?.step).toBe('new')
    courier.setDown(false)
    await runCron(Date.now() + 2 * 60_000)
    expect((await shipmentsOf(o.orderId))[0]?.step).toBe('booked')
    expect((await orderRow(o.orderId))?.status).toBe('packed')
    expect(courier.ordersFor(o.orderNumber)).toHaveLength(1)
  })

  it('an answer lost after the courier created the order: the retry finds it instead of creating a second', async () => {
    const o = await paidCardOrder()
    faults.loseAnswerTo = /orders\/create\/adhoc/
    const first = await ship(o.orderNumber)
    expect(first.booking).toBe('failed')
    expect(courier.ordersFor(o.orderNumber)).toHaveLength(1)
    courierCalls.length = 0
    await runCron(Date.now() + 2 * 60_000)
    expect(courierCalls).toContain('GET /v1/external/orders')
    expect(courierCalls).not.toContain('POST /v1/external/orders/create/adhoc')
    expect(courier.ordersFor(o.orderNumber)).toHaveLength(1)
    expect((await shipmentsOf(o.orderId))[0]?.step).toBe('booked')
  })

  it('refuses an order that is not confirmed, and says so', async () => {
    const o = await paidCardOrder()
    await ship(o.orderNumber)
    await expect(ship(o.orderNumber)).rejects.toMatchObject({ status: 409 })
  })
})

describe('the tracking webhook', () => {
  async function shipped() {
    const o = await paidCardOrder()
    const res = await ship(o.orderNumber)
    return { o, awb: res.shipment.awb as string }
  }

  it('refuses a wrong or missing token and stores nothing', async () => {
    const { awb } = await shipped()
    await courier.advance(awb, 7)
    const w = courierHeld.pop()
    if (!w) throw new Error('no webhook')
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM courier_events').first<{ n: number }>()
    const wrong = await shopCall('/api/fulfilment/courier/events', {
      rawBody: w.body,
      headers: { 'x-api-key': 'guess' },
    })
    const none = await shopCall('/api/fulfilment/courier/events', { rawBody: w.body })
    expect([wrong.status, none.status]).toEqual([401, 401])
    const after = await env.DB.prepare('SELECT COUNT(*) AS n FROM courier_events').first<{ n: number }>()
    expect(after?.n).toBe(before?.n)
  })

  it('moves the order by the read-back, mails each step, and absorbs a duplicate', async () => {
    const { o, awb } = await shipped()
    await courier.advance(awb, 42)
    await courier.advance(awb, 17)
    await courier.advance(awb, 7)
    const [w1, w2, w3] = [...courierHeld]
    const answers = await deliverCourier(awb)
    // Each webhook is checked against the courier's status now (delivered): the earlier ones disagree,
    // and the parcel goes straight to what the courier says.
    expect(answers.map((a) => a.json.result.outcome)).toEqual(['disagrees', 'disagrees', 'stale'])
    expect((await orderRow(o.orderId))?.status).toBe('delivered')
    const dup = await shopCall('/api/fulfilment/courier/events', { rawBody: w3?.body, headers: w3?.headers })
    expect(dup.json.result.outcome).toBe('duplicate')
    expect(w1 && w2).toBeTruthy()
    expect(await mails(o.orderNumber)).toEqual(expect.arrayContaining(['order-shipped', 'order-delivered']))
  })

  it('a genuine claim that the read-back disagrees with is not applied', async () => {
    const { o, awb } = await shipped()
    await courier.advance(awb, 18)
    await deliverCourier(awb)
    expect((await orderRow(o.orderId))?.status).toBe('shipped')
    // Right token, forged "delivered": the courier still says in transit.
    const forged = { ...courier.webhookBody(awb), shipment_status_id: 7, current_status: 'Delivered' }
    const res = await shopCall('/api/fulfilment/courier/events', {
      rawBody: JSON.stringify(forged),
      headers: { 'x-api-key': shipEnv.SHIPROCKET_WEBHOOK_TOKEN as string },
    })
    expect(res.json.result.outcome).toBe('disagrees')
    expect((await orderRow(o.orderId))?.status).toBe('shipped')
  })

  it('an event out of order never moves the order backwards', async () => {
    const { o, awb } = await shipped()
    await courier.advance(awb, 18)
    const late = courierHeld.pop()
    await courier.advance(awb, 7)
    await deliverCourier(awb)
    expect((await orderRow(o.orderId))?.status).toBe('delivered')
    const res = await shopCall('/api/fulfilment/courier/events', {
      rawBody: late?.body,
      headers: late?.headers,
    })
    expect(res.json.result.outcome).toBe('disagrees')
    const s = (await shipmentsOf(o.orderId))[0]
    expect(s?.state).toBe('delivered')
    expect((await orderRow(o.orderId))?.status).toBe('delivered')
  })

  it("a late scan that puts the courier's own status back never moves the parcel back", async () => {
    const { o, awb } = await shipped()
    await courier.advance(awb, 7)
    await deliverCourier(awb)
    // The courier records an in-transit scan after the delivery (scans arrive late from the hubs).
    await courier.advance(awb, 18)
    const res = await deliverCourier(awb)
    expect(res[0]?.json.result.outcome).toBe('stale')
    expect((await shipmentsOf(o.orderId))[0]?.state).toBe('delivered')
    expect((await orderRow(o.orderId))?.status).toBe('delivered')
  })

  it('the courier down at read-back: 503 and nothing kept, so the same event is processed when sent again', async () => {
    const { o, awb } = await shipped()
    await courier.advance(awb, 18)
    const w = courierHeld.pop()
    courier.setDown(true)
    const first = await shopCall('/api/fulfilment/courier/events', { rawBody: w?.body, headers: w?.headers })
    expect(first.status).toBe(503)
    courier.setDown(false)
    const again = await shopCall('/api/fulfilment/courier/events', { rawBody: w?.body, headers: w?.headers })
    expect(again.json.result.outcome).toBe('applied')
    expect((await orderRow(o.orderId))?.status).toBe('shipped')
    expect((await events())?.outcome).toBe('applied')
  })

  it('refuses a body with no AWB with a readable 400', async () => {
    const res = await shopCall('/api/fulfilment/courier/events', {
      rawBody: '{"awb":"<script>","shipment_status_id":"x"}',
      headers: { 'x-api-key': shipEnv.SHIPROCKET_WEBHOOK_TOKEN as string },
    })
    expect(res.status).toBe(400)
    expect(res.json.result.message).toMatch(/AWB/)
  })
})

describe('failed deliveries, RTO and cash on delivery', () => {
  it('an NDR is acted on once (re-attempt), and the parcel goes out again', async () => {
    const o = await confirmedCodOrder()
    const { shipment } = await ship(o.orderNumber)
    await courier.advance(shipment.awb as string, 18)
    await courier.advance(shipment.awb as string, 21)
    await deliverCourier()
    expect((await orderRow(o.orderId))?.status).toBe('undelivered')
    const { x, done } = ops()
    await actOnNdr(x, shipment.id, { action: 're-attempt', comments: 'Call before coming' }, Date.now())
    await expect(
      actOnNdr(x, shipment.id, { action: 'return', comments: '' }, Date.now()),
    ).rejects.toMatchObject({ status: 409 })
    await done()
    expect((await orderRow(o.orderId))?.status).toBe('out_for_delivery')
  })

  it('an RTO comes back: received after inspection, its stock back exactly once; nothing was collected', async () => {
    const o = await confirmedCodOrder()
    const before = await stockOf('FX-SCARF')
    const { shipment } = await ship(o.orderNumber)
    await courier.advance(shipment.awb as string, 21)
    const { x, done } = ops()
    await deliverCourier()
    await actOnNdr(x, shipment.id, { action: 'return', comments: '' }, Date.now())
    expect((await orderRow(o.orderId))?.status).toBe('rto')
    await courier.advance(shipment.awb as string, 10)
    await deliverCourier()
    await receiveRto(x, o.orderNumber, { restock: true, note: 'sealed' }, Date.now())
    await expect(receiveRto(x, o.orderNumber, { restock: true, note: '' }, Date.now())).rejects.toMatchObject(
      { status: 409 },
    )
    await done()
    const row = await orderRow(o.orderId)
    expect(row).toMatchObject({ status: 'returned', paid_minor: 0 })
    expect(await stockOf('FX-SCARF')).toBe((before ?? 0) + 1)
  })

  it('COD delivered by the courier is collected with the order total; remitted once with its UTR', async () => {
    const o = await confirmedCodOrder()
    const { shipment } = await ship(o.orderNumber)
    await courier.advance(shipment.awb as string, 7)
    await deliverCourier()
    const row = await orderRow(o.orderId)
    expect(row).toMatchObject({ status: 'delivered', payment_state: 'paid' })
    expect(row?.paid_minor).toBe(row?.grand_total_minor)
    const { x, done } = ops()
    // Already collected by the courier's event: by hand it is refused, never counted twice.
    await expect(codCollected(x, o.orderNumber, Date.now())).rejects.toMatchObject({ status: 409 })
    await codRemitted(x, o.orderNumber, { utr: 'UTR12345678' }, Date.now())
    await expect(codRemitted(x, o.orderNumber, { utr: 'UTR99999999' }, Date.now())).rejects.toMatchObject({
      status: 409,
    })
    await done()
    const settled = await env.DB.prepare('SELECT * FROM cod_settlements WHERE client_order_id = ?')
      .bind(o.orderId)
      .first<{ amount_minor: number; remittance_utr: string; collected_by: string }>()
    expect(settled).toMatchObject({
      amount_minor: row?.grand_total_minor,
      remittance_utr: 'UTR12345678',
      collected_by: 'courier',
    })
    expect((await orderRow(o.orderId))?.paid_minor).toBe(row?.grand_total_minor)
  })
})
