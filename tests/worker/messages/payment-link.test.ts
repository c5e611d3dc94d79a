// The prepaid switch: a COD shopper pays through a Razorpay Payment Link at the payment stand-in;
// the order becomes a paid one exactly once, however the webhook and the browser's return come.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { whatsappNumber } from '../../../worker/messages/phone'
import { eventOf, held, sandbox } from '../api/payment/harness'
import {
  browserReturn,
  deliver,
  freshPhone,
  linkPaidHook,
  orderOf,
  placeFor,
  shopCall,
  statusOf,
  wa,
  withMessageStandIns,
} from './harness'

withMessageStandIns()

/** Asks for the order's payment link and pays it at the stand-in (its webhooks are held). */
async function offerAndPay(o: { orderNumber: string; accessKey: string }) {
  const offered = await shopCall('/api/payment/link', {
    body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
  })
  const linkId = new URL(offered.json.result.url).pathname.split('/').pop() as string
  const paid = await sandbox.payLink(linkId)
  if ('error' in paid) throw new Error(paid.error)
  return paid
}

describe('payment link for a COD order', () => {
  it('offers a link for exactly the order total, once, and tells an opted-in shopper on WhatsApp', async () => {
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true })
    const res = await shopCall('/api/payment/link', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(res.status).toBe(200)
    const order = await orderOf(o.orderId)
    expect(res.json.result.amountMinor).toBe(order?.grand_total_minor)
    expect(res.json.result.currency).toBe('INR')
    const again = await shopCall('/api/payment/link', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(again.json.result.url).toBe(res.json.result.url)
    const links = await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE client_order_id = ?')
      .bind(o.orderId)
      .first<{ n: number }>()
    expect(links?.n).toBe(1)
    const inbox = wa.inbox(whatsappNumber(phone) as string)
    expect(inbox.map((m) => m.template)).toEqual(['cod_confirmation', 'pay_now_link'])
    expect(inbox[1]?.text).toContain(res.json.result.url)
  })

  it("refuses another shopper's order and an order that is not waiting COD", async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    const stranger = await shopCall('/api/payment/link', { body: { orderNumber: o.orderNumber } })
    expect(stranger.status).toBe(403)
    const card = await placeFor(freshPhone(), { optIn: false, payment: 'card' })
    const res = await shopCall('/api/payment/link', {
      body: { orderNumber: card.orderNumber, accessKey: card.accessKey },
    })
    expect(res.status).toBe(409)
    expect(res.json.result).toContain('only a cash-on-delivery order not yet handed to the courier')
  })

  it('says in words why a packed, shipped or paid COD order cannot switch', async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    const ask = () =>
      shopCall('/api/payment/link', { body: { orderNumber: o.orderNumber, accessKey: o.accessKey } })
    const setOrder = (sql: string) =>
      env.DB.prepare(`UPDATE orders SET ${sql} WHERE client_order_id = ?`).bind(o.orderId).run()
    await setOrder("status = 'packed'")
    const packed = await ask()
    expect(packed.status).toBe(409)
    expect(packed.json.result).toContain('is being handed to the courier for cash on delivery')
    await setOrder("status = 'shipped'")
    const shipped = await ask()
    expect(shipped.status).toBe(409)
    expect(shipped.json.result).toBe(
      `Order ${o.orderNumber} has been shipped already, so it can no longer be paid online. Please pay cash on delivery.`,
    )
    await setOrder("status = 'processing', payment_state = 'paid'")
    const paid = await ask()
    expect(paid.json.result).toContain('is paid already')
    const links = await env.DB.prepare('SELECT COUNT(*) AS n FROM payments WHERE client_order_id = ?')
      .bind(o.orderId)
      .first<{ n: number }>()
    expect(links?.n).toBe(0)
  })

  it('makes at most three links for an order, then says to pay on delivery', async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    const ask = () =>
      shopCall('/api/payment/link', { body: { orderNumber: o.orderNumber, accessKey: o.accessKey } })
    const urls = new Set<string>()
    for (let i = 0; i < 3; i++) {
      const res = await ask()
      expect(res.status).toBe(200)
      urls.add(res.json.result.url)
      // The shopper let it lapse: no open link is left to offer again.
      await env.DB.prepare("UPDATE payments SET status = 'expired' WHERE client_order_id = ?")
        .bind(o.orderId)
        .run()
    }
    expect(urls.size).toBe(3)
    const fourth = await ask()
    expect(fourth.status).toBe(409)
    expect(fourth.json.result).toBe(
      `Order ${o.orderNumber} has had 3 payment links already. Please pay cash on delivery.`,
    )
  })

  it('marks the order paid exactly once under duplicate webhooks and the return racing them', async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    const paid = await offerAndPay(o)
    const linkPaid = linkPaidHook()
    const captured = held.find((w) => eventOf(w) === 'payment.captured') as (typeof held)[number]
    // The browser's return and two copies of the webhook at once, then the payment.captured event.
    const [ret, w1, w2] = await Promise.all([
      browserReturn(paid.redirect as string),
      deliver(linkPaid),
      deliver({ ...linkPaid, headers: { ...linkPaid.headers, 'x-razorpay-event-id': 'evt_copy' } }),
    ])
    expect(ret.status).toBe(303)
    expect(ret.headers.get('location')).toContain(`/order/${o.orderNumber}#k=`)
    expect([w1.status, w2.status]).toEqual([200, 200])
    expect((await deliver(captured)).status).toBe(200)
    const order = await orderOf(o.orderId)
    expect(order?.status).toBe('processing')
    expect(order?.payment_state).toBe('paid')
    expect(order?.paid_minor).toBe(order?.grand_total_minor)
    expect(order?.payment_method).toBe('card')
    const counts = await env.DB.prepare(
      `SELECT (SELECT COUNT(*) FROM order_events WHERE client_order_id = ?1 AND to_status = 'processing') AS moves,
              (SELECT COUNT(*) FROM provider_payments WHERE client_order_id = ?1) AS payments`,
    )
      .bind(o.orderId)
      .first<{ moves: number; payments: number }>()
    expect(counts).toEqual({ moves: 1, payments: 1 })
  })

  it.each(['webhook', 'return'] as const)(
    'names how it was paid (UPI) once the %s settles it, not cash on delivery',
    async (path) => {
      const o = await placeFor(freshPhone(), { optIn: false })
      const paid = await offerAndPay(o)
      if (path === 'webhook') await deliver(linkPaidHook())
      else await browserReturn(paid.redirect as string)
      const view = await shopCall('/api/payment/order', {
        body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
      })
      expect(view.json.result).toMatchObject({ paymentState: 'paid', paymentName: 'UPI' })
    },
  )

  it('refuses a payment_link.paid webhook with a wrong signature or a re-serialised body: nothing is settled', async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    await offerAndPay(o)
    const hook = linkPaidHook()
    const wrong = await deliver({
      ...hook,
      headers: { ...hook.headers, 'x-razorpay-signature': '0'.repeat(64) },
    })
    const reserialised = await deliver({ ...hook, body: JSON.stringify(JSON.parse(hook.body), null, 1) })
    expect([wrong.status, reserialised.status]).toEqual([401, 401])
    expect(await orderOf(o.orderId)).toMatchObject({ status: 'pending', paid_minor: 0 })
    // The genuine one settles it.
    expect((await deliver(hook)).status).toBe(200)
    expect(await orderOf(o.orderId)).toMatchObject({ status: 'processing', payment_state: 'paid' })
  })

  it('ignores a return whose signature is wrong: nothing is settled and no order link is given', async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    const paid = await offerAndPay(o)
    const forged = new URL(paid.redirect as string)
    forged.searchParams.set('razorpay_signature', '0'.repeat(64))
    const res = await browserReturn(forged.toString())
    expect(res.headers.get('location')).not.toContain('/order/')
    expect(await statusOf(o.orderId)).toBe('pending')
  })
})
