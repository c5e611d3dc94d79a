// NDR polling against the courier stand-in: a failed delivery whose webhook never came is found by
// the Cron Trigger's poll of the courier's NDR list; the poll and the webhook together move the
// order once; a repeat changes nothing; a later attempt the webhook missed is counted and can be
// acted on again; the shopper's WhatsApp "Deliver again" answers an attempt like the operator does.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readyToShip } from '../../../worker/admin/fulfilment'
import { buttonPayload } from '../../../worker/messages/actions'
import { recordCheckoutOptIn } from '../../../worker/messages/consent'
import { applyNotification } from '../../../worker/messages/inbound'
import { readConfig } from '../../../worker/platform/env'
import { orderRow } from '../api/payment/harness'
import { buttonPress } from '../messages/harness'
import {
  confirmedCodOrder,
  courier,
  courierCalls,
  courierHeld,
  deliverCourier,
  ops,
  runCron,
  shipEnv,
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

  it('asks the courier to deliver again when the shopper presses WhatsApp\'s "Deliver again", once per attempt', async () => {
    const o = await confirmedCodOrder()
    const phone = '919876543210'
    await recordCheckoutOptIn(env.DB, o.orderId, phone, null, Date.now())
    const { x, done } = ops()
    const { shipment } = await readyToShip(x, o.orderNumber, Date.now())
    await done()
    const awb = shipment.awb as string
    await courier.advance(awb, 18)
    await courier.advance(awb, 21)
    await deliverCourier()
    expect((await shipmentsOf(o.orderId))[0]).toMatchObject({ state: 'undelivered', ndr_action: null })
    const config = readConfig(shipEnv)
    const payload = await buttonPayload(shipEnv, config, 'redeliver', o.orderNumber)
    const press = (id: string) =>
      applyNotification(
        shipEnv,
        config,
        buttonPress(phone, id, { payload, text: 'Deliver again' }),
        Date.now(),
      )
    courierCalls.length = 0
    expect(await press('wamid.redeliver-1')).toEqual(['redeliver-asked'])
    expect(courierCalls.filter((c) => c.includes('/ndr/'))).toEqual([
      `POST /v1/external/ndr/${encodeURIComponent(awb)}/action`,
    ])
    expect((await shipmentsOf(o.orderId))[0]).toMatchObject({ ndr_action: 're-attempt' })
    // A second press for the same attempt asks nothing more of the courier; the history says why.
    expect(await press('wamid.redeliver-2')).toEqual(['redeliver'])
    expect(courierCalls.filter((c) => c.includes('/ndr/'))).toHaveLength(1)
    const notes = await env.DB.prepare(
      "SELECT detail FROM order_events WHERE client_order_id = ? AND kind = 'note' ORDER BY id",
    )
      .bind(o.orderId)
      .all<{ detail: string }>()
    const texts = notes.results.map((n) => (JSON.parse(n.detail) as { text: string }).text)
    expect(texts).toContain(
      `The shopper asked on WhatsApp for another delivery attempt; the courier was asked to deliver ${awb} again.`,
    )
    expect(texts.some((t) => t.includes('the courier was not asked') && t.includes('already asked'))).toBe(
      true,
    )
  })
})
