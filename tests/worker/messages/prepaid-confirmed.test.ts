// The prepaid switch for a COD order the shopper already confirmed: allowed until "ready to ship"
// writes the order's shipment, paid exactly once, and of a payment and "ready to ship" racing, the
// one that comes second gives way (a late payment is refunded at the payment stand-in; a shipment
// written after the payment collects nothing).
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { SANDBOX_SECRETS } from '../../../scripts/payment-sandbox/sandbox'
import { enqueueShipment } from '../../../worker/fulfilment/book'
import { shopperConfirms } from '../../../worker/messages/cod'
import { SANDBOX_ORIGIN, sandbox } from '../api/payment/harness'
import {
  browserReturn,
  deliver,
  freshPhone,
  linkPaidHook,
  msgEnv,
  orderOf,
  placeFor,
  shopCall,
  withMessageStandIns,
} from './harness'

withMessageStandIns()

type Placed = Awaited<ReturnType<typeof placeFor>>

const ask = (o: Placed) =>
  shopCall('/api/payment/link', { body: { orderNumber: o.orderNumber, accessKey: o.accessKey } })

const view = async (o: Placed) =>
  (await shopCall('/api/payment/order', { body: { orderNumber: o.orderNumber, accessKey: o.accessKey } }))
    .json.result as { prepaidSwitch: boolean; paymentState: string }

/** "Ready to ship" writes the order's shipment with the cash to collect it read from the order. */
const readyToShip = (orderId: string, codMinor: number) =>
  enqueueShipment(env.DB, { orderId, kind: 'forward', ref: `${orderId}-S`, codMinor }, Date.now())

const rzpPayment = (id: string) =>
  fetch(`${SANDBOX_ORIGIN}/v1/payments/${id}`, {
    headers: {
      authorization: `Basic ${btoa(`${SANDBOX_SECRETS.razorpay.keyId}:${SANDBOX_SECRETS.razorpay.keySecret}`)}`,
    },
  }).then((r) => r.json() as Promise<{ status: string; amount_refunded: number }>)

/** A COD order placed and confirmed by the shopper: 'processing', to be paid on delivery. */
async function confirmedOrder() {
  const o = await placeFor(freshPhone(), { optIn: false })
  expect(await shopperConfirms(msgEnv, o.orderId, 'link', Date.now())).toBe('confirmed')
  return o
}

async function offerAndPay(o: Placed) {
  const offered = await ask(o)
  expect(offered.status).toBe(200)
  const linkId = new URL(offered.json.result.url).pathname.split('/').pop() as string
  const paid = await sandbox.payLink(linkId)
  if ('error' in paid) throw new Error(paid.error)
  return { offered: offered.json.result as { amountMinor: number; currency: string }, paid }
}

describe('prepaid switch of a confirmed COD order', () => {
  it('is offered for the order total and paid exactly once under duplicate webhooks and the return', async () => {
    const o = await confirmedOrder()
    expect(await view(o)).toMatchObject({ prepaidSwitch: true })
    const before = await orderOf(o.orderId)
    const { offered, paid } = await offerAndPay(o)
    // The COD fee stays in, as for an order still to confirm: the link asks the order total.
    expect(offered).toMatchObject({ amountMinor: before?.grand_total_minor, currency: 'INR' })
    const hook = linkPaidHook()
    const answers = await Promise.all([
      deliver(hook),
      deliver({ ...hook, headers: { ...hook.headers, 'x-razorpay-event-id': 'evt_copy' } }),
      browserReturn(paid.redirect as string),
    ])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 303])
    expect((await deliver(hook)).status).toBe(200)
    expect(await orderOf(o.orderId)).toEqual({
      status: 'processing',
      payment_state: 'paid',
      paid_minor: before?.grand_total_minor,
      grand_total_minor: before?.grand_total_minor,
      payment_method: 'card',
    })
    const counts = await env.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM order_events WHERE client_order_id = ?1 AND kind = 'status'
                 AND from_status = 'processing' AND to_status = 'processing') AS paidMoves,
              (SELECT COUNT(*) FROM provider_payments WHERE client_order_id = ?1) AS payments,
              (SELECT COUNT(*) FROM provider_payments WHERE client_order_id = ?1 AND status = 'paid') AS kept`,
    )
      .bind(o.orderId)
      .first<{ paidMoves: number; payments: number; kept: number }>()
    expect(counts).toEqual({ paidMoves: 1, payments: 1, kept: 1 })
    expect(await view(o)).toMatchObject({ prepaidSwitch: false, paymentState: 'paid' })
    // Made ready to ship now, its parcel collects nothing.
    expect((await readyToShip(o.orderId, 0)).cod_minor).toBe(0)
  })

  it('is refused in words, and not offered, once "ready to ship" wrote its shipment', async () => {
    const o = await confirmedOrder()
    const total = (await orderOf(o.orderId))?.grand_total_minor as number
    await readyToShip(o.orderId, total)
    expect(await view(o)).toMatchObject({ prepaidSwitch: false })
    const res = await ask(o)
    expect(res.status).toBe(409)
    expect(res.json.result).toBe(
      `Order ${o.orderNumber} is being handed to the courier for cash on delivery, so it can no longer be paid online. Please pay cash on delivery.`,
    )
    const links = await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE client_order_id = ?')
      .bind(o.orderId)
      .first<{ n: number }>()
    expect(links?.n).toBe(0)
  })

  it('refunds a link paid after "ready to ship" wrote the shipment: the courier collects the cash', async () => {
    const o = await confirmedOrder()
    const total = (await orderOf(o.orderId))?.grand_total_minor as number
    const { paid } = await offerAndPay(o)
    // Ready to ship wins the race: its shipment is written before the payment is reported.
    await readyToShip(o.orderId, total)
    expect((await deliver(linkPaidHook())).status).toBe(200)
    expect((await browserReturn(paid.redirect as string)).status).toBe(303)
    expect(await orderOf(o.orderId)).toMatchObject({
      status: 'processing',
      payment_state: 'none',
      paid_minor: 0,
      payment_method: 'cashondelivery',
    })
    expect(await rzpPayment(paid.paymentId)).toMatchObject({ status: 'refunded', amount_refunded: total })
    const kept = await env.DB.prepare('SELECT status FROM provider_payments WHERE client_order_id = ?')
      .bind(o.orderId)
      .all<{ status: string }>()
    expect(kept.results).toEqual([{ status: 'refunded_late' }])
    const shipment = await env.DB.prepare('SELECT cod_minor FROM shipments WHERE client_order_id = ?')
      .bind(o.orderId)
      .first<{ cod_minor: number }>()
    expect(shipment?.cod_minor).toBe(total)
  })

  it('collects nothing when the payment lands between "ready to ship" reading the order and writing the shipment', async () => {
    const o = await confirmedOrder()
    // Ready to ship read the order unpaid: it asks for the total in cash.
    const codRead = (await orderOf(o.orderId))?.grand_total_minor as number
    await offerAndPay(o)
    expect((await deliver(linkPaidHook())).status).toBe(200)
    expect(await orderOf(o.orderId)).toMatchObject({ payment_state: 'paid' })
    const shipment = await readyToShip(o.orderId, codRead)
    expect(shipment.cod_minor).toBe(0)
  })
})
