// A booking that stops mid-way — the courier failing at one of its four steps, its answer lost
// after it acted, or the shop failing to record a step the courier took — leaves its outbox row
// failed (never claimed), and the retry finishes it with one courier order and one AWB.
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import { orderRow } from '../api/payment/harness'
import {
  courier,
  courierCalls,
  faults,
  paidCardOrder,
  runCron,
  ship,
  shipmentsOf,
  withCourierStandIn,
} from './harness'

withCourierStandIn()
afterEach(() => env.DB.prepare('DROP TRIGGER IF EXISTS stop_at_awb').run())

const outboxOf = (shipmentId: number) =>
  env.DB.prepare('SELECT status, attempts FROM courier_outbox WHERE shipment_id = ?')
    .bind(shipmentId)
    .first<{ status: string; attempts: number }>()

/** The retry (the Cron Trigger after the first pause) books it; one courier order, its AWB kept. */
async function retriedToBooked(orderId: string, number: string) {
  await runCron(Date.now() + 2 * 60_000)
  const [s] = await shipmentsOf(orderId)
  expect(s?.step).toBe('booked')
  expect(courier.ordersFor(number)).toHaveLength(1)
  expect(s?.awb).toBe(courier.ordersFor(number)[0]?.awb)
  expect((await orderRow(orderId))?.status).toBe('packed')
}

const STEPS = [
  { path: '/orders/create/adhoc', stoppedAt: 'new' },
  { path: '/courier/assign/awb', stoppedAt: 'created' },
  { path: '/courier/generate/label', stoppedAt: 'awb' },
  { path: '/courier/generate/pickup', stoppedAt: 'label' },
] as const

describe('a booking stopped mid-way', () => {
  for (const { path, stoppedAt } of STEPS) {
    it(`the courier failing at ${path}, then its answer lost there: retried from that step`, async () => {
      const o = await paidCardOrder()
      courier.failNext(path)
      const first = await ship(o.orderNumber)
      expect(first.booking).toBe('failed')
      expect(first.shipment.step).toBe(stoppedAt)
      expect(await outboxOf(first.shipment.id)).toEqual({ status: 'failed', attempts: 1 })
      // The next try: the courier acts at that step but its answer never arrives.
      faults.loseAnswerTo = new RegExp(path.replaceAll('/', '\\/'))
      await runCron(Date.now() + 2 * 60_000)
      expect(await outboxOf(first.shipment.id)).toMatchObject({ status: 'failed', attempts: 2 })
      expect((await orderRow(o.orderId))?.status).toBe('processing')
      await runCron(Date.now() + 10 * 60_000)
      const [s] = await shipmentsOf(o.orderId)
      expect(s?.step).toBe('booked')
      expect(courier.ordersFor(o.orderNumber)).toHaveLength(1)
      expect(s?.awb).toBe(courier.ordersFor(o.orderNumber)[0]?.awb)
      expect((await orderRow(o.orderId))?.status).toBe('packed')
    })
  }

  it('the shop failing to record an AWB the courier assigned: the row is failed, and the retry adopts that AWB', async () => {
    const o = await paidCardOrder()
    await env.DB.prepare(
      `CREATE TRIGGER stop_at_awb BEFORE UPDATE OF step ON shipments WHEN NEW.step = 'awb'
       BEGIN SELECT RAISE(ABORT, 'the database stopped'); END`,
    ).run()
    const first = await ship(o.orderNumber)
    expect(first.booking).toBe('failed')
    expect(first.shipment.step).toBe('created')
    expect(await outboxOf(first.shipment.id)).toEqual({ status: 'failed', attempts: 1 })
    expect(courier.ordersFor(o.orderNumber)[0]?.awb).toMatch(/^SBF/)
    await env.DB.prepare('DROP TRIGGER stop_at_awb').run()
    courierCalls.length = 0
    await retriedToBooked(o.orderId, o.orderNumber)
    // The courier's order was read back (its AWB adopted), not asked for a second AWB.
    expect(courierCalls).toContain('GET /v1/external/orders')
    expect(courierCalls).not.toContain('POST /v1/external/courier/assign/awb')
  })
})
