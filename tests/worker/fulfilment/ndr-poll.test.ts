// NDR polling against the courier stand-in: a failed delivery whose webhook never came is found by
// the Cron Trigger's poll of the courier's NDR list; the poll and the webhook together move the
// order once; a repeat changes nothing; a later attempt the webhook missed is counted and can be
// acted on again.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readyToShip } from '../../../worker/admin/fulfilment'
import { orderRow } from '../api/payment/harness'
import {
  confirmedCodOrder,
  courier,
  courierHeld,
  deliverCourier,
  ops,
  runCron,
  shipmentsOf,
  withCourierStandIn,
} from './harness'

withCourierStandIn()

const undeliveredMoves = (orderId: string) =>
  env.DB.prepare(
    "SELECT COUNT(*) AS n FROM order_events WHERE client_order_id = ? AND kind = 'status' AND to_status = 'undelivered'",
  )
    .bind(orderId)
    .first<{ n: number }>()

describe('NDR polling', () => {
  it('finds a failed delivery whose webhook was lost, merges with the late webhook, and counts a missed second attempt', async () => {
    const o = await confirmedCodOrder()
    const { x, done } = ops()
    const { shipment } = await readyToShip(x, o.orderNumber, Date.now())
    await done()
    const awb = shipment.awb as string
    await courier.advance(awb, 18)
    await deliverCourier()
    // The failed delivery's webhook is held back (lost, or late).
    await courier.advance(awb, 21)
    const late = courierHeld.splice(0)
    await runCron(Date.now())
    expect((await orderRow(o.orderId))?.status).toBe('undelivered')
    expect((await shipmentsOf(o.orderId))[0]).toMatchObject({ state: 'undelivered' })
    const polled = await env.DB.prepare('SELECT ndr_attempts, ndr_reason FROM shipments WHERE awb = ?')
      .bind(awb)
      .first()
    expect(polled).toEqual({ ndr_attempts: 1, ndr_reason: 'Customer not available' })
    // The poll again, and the late webhook: nothing moves twice.
    await runCron(Date.now() + 5 * 60_000)
    courierHeld.push(...late)
    await deliverCourier()
    expect(
      await env.DB.prepare('SELECT ndr_attempts FROM shipments WHERE awb = ?').bind(awb).first(),
    ).toEqual({ ndr_attempts: 1 })
    expect((await undeliveredMoves(o.orderId))?.n).toBe(1)
    // A second attempt fails too, its webhooks lost: the poll counts it and clears the last action.
    await env.DB.prepare("UPDATE shipments SET ndr_action = 're-attempt' WHERE awb = ?").bind(awb).run()
    await courier.advance(awb, 17)
    await courier.advance(awb, 21)
    courierHeld.length = 0
    await runCron(Date.now() + 10 * 60_000)
    expect(
      await env.DB.prepare('SELECT state, ndr_attempts, ndr_action FROM shipments WHERE awb = ?')
        .bind(awb)
        .first(),
    ).toEqual({ state: 'undelivered', ndr_attempts: 2, ndr_action: null })
  })
})
