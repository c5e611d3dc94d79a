// Refunds (full, partial, never above what was paid, concurrent ones included, through the
// provider or recorded as manual) and PayPal create → approve → capture with verified webhooks.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import {
  call,
  deliverWebhooks,
  eventOf,
  held,
  mails,
  orderRow,
  type Placed,
  payAtProvider,
  payEnv,
  place,
  refund,
  sandbox,
  setUpPaymentSandbox,
  verify,
} from './harness'

setUpPaymentSandbox()

async function paidWithRazorpay(): Promise<Placed & { total: number; paymentId: string }> {
  const o = await place()
  const answer = await payAtProvider(o)
  held.length = 0
  const verified = await verify(o, answer)
  expect(verified.json.result.status).toBe('processing')
  const row = await orderRow(o.orderId)
  return { ...o, total: row?.grand_total_minor as number, paymentId: answer.razorpay_payment_id as string }
}

describe('refundOrder', () => {
  it('partial then the rest through Razorpay; never more than was paid', async () => {
    const o = await paidWithRazorpay()
    const part = Math.floor(o.total / 3)
    const first = await refund(o.orderId, part)
    expect(first).toMatchObject({ ok: true, refundedMinor: part, paymentState: 'partially_refunded' })
    expect(first.ok && first.providerRefundId).toMatch(/^rfnd_/)
    const tooMuch = await refund(o.orderId, o.total - part + 1)
    expect(tooMuch).toMatchObject({ ok: false, status: 409 })
    expect(!tooMuch.ok && tooMuch.message).toMatch(/more than the .* still refundable/)
    const rest = await refund(o.orderNumber, o.total - part)
    expect(rest).toMatchObject({ ok: true, refundedMinor: o.total, paymentState: 'refunded' })
    expect(await refund(o.orderId, 1)).toMatchObject({ ok: false, status: 409 })
    expect(await orderRow(o.orderId)).toMatchObject({ refunded_minor: o.total, payment_state: 'refunded' })
    // The provider's refund.processed webhooks for our own refunds are not counted again.
    const answers = await deliverWebhooks((w) => eventOf(w) === 'refund.processed')
    expect(answers.map((a) => a.json.result.outcome)).toEqual(['marked', 'marked'])
    expect((await orderRow(o.orderId))?.refunded_minor).toBe(o.total)
    const { results } = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM order_events WHERE client_order_id = ? AND kind = 'refund'",
    )
      .bind(o.orderId)
      .all<{ n: number }>()
    expect(results[0]?.n).toBe(2)
    expect((await mails(o.orderNumber)).filter((k) => k === 'order-refunded')).toHaveLength(2)
  })

  it('two refunds racing for the same money: one goes through, the other is refused', async () => {
    const o = await paidWithRazorpay()
    const share = Math.ceil(o.total * 0.6)
    const results = await Promise.all([refund(o.orderId, share), refund(o.orderId, share)])
    expect(results.filter((r) => r.ok)).toHaveLength(1)
    expect(results.filter((r) => !r.ok && r.status === 409)).toHaveLength(1)
    expect((await orderRow(o.orderId))?.refunded_minor).toBe(share)
  })

  it('refuses bad input and orders with nothing paid; refunds collected cash as manual', async () => {
    const o = await paidWithRazorpay()
    for (const bad of [0, -5, 1.5, Number.NaN]) {
      expect(await refund(o.orderId, bad)).toMatchObject({ ok: false, status: 400 })
    }
    expect(await refund(o.orderId, 1, '')).toMatchObject({ ok: false, status: 400 })
    expect(await refund('no-such-order-1', 1)).toMatchObject({ ok: false, status: 400 })
    const unpaid = await place()
    expect(await refund(unpaid.orderId, 1)).toMatchObject({ ok: false, status: 409 })
    const cod = await place('cashondelivery')
    // Cash collected on delivery is recorded on the order (what the back office does on delivery).
    await env.DB.prepare(
      "UPDATE orders SET paid_minor = grand_total_minor, payment_state = 'paid' WHERE client_order_id = ?",
    )
      .bind(cod.orderId)
      .run()
    const manual = await refund(cod.orderId, 500)
    expect(manual).toMatchObject({ ok: true, providerRefundId: null, paymentState: 'partially_refunded' })
    const row = await env.DB.prepare('SELECT provider, status FROM refunds WHERE client_order_id = ?')
      .bind(cod.orderId)
      .first()
    expect(row).toMatchObject({ provider: 'manual', status: 'processed' })
  })

  it('a provider that refuses the refund leaves nothing counted (502), the refusal on record', async () => {
    const o = await paidWithRazorpay()
    await env.DB.prepare(
      "UPDATE provider_payments SET provider_payment_id = 'pay_unknown00001' WHERE client_order_id = ?",
    )
      .bind(o.orderId)
      .run()
    const res = await refund(o.orderId, 100)
    expect(res).toMatchObject({ ok: false, status: 502 })
    expect(await orderRow(o.orderId)).toMatchObject({ refunded_minor: 0, payment_state: 'paid' })
    const { results } = await env.DB.prepare('SELECT status FROM refunds WHERE client_order_id = ?')
      .bind(o.orderId)
      .all()
    expect(results).toEqual([{ status: 'failed' }])
    // The money is still refundable in full.
    expect(await refund(o.orderId, o.total + 1)).toMatchObject({ ok: false, status: 409 })
  })
})

describe('PayPal', () => {
  /** An order charged in USD (the pricing rules decide the charge currency at placement). */
  async function usdOrder() {
    const o = await place('paypal_standard')
    await env.DB.prepare(
      "UPDATE orders SET currency = 'USD', grand_total_minor = 12345 WHERE client_order_id = ?",
    )
      .bind(o.orderId)
      .run()
    return o
  }

  it('create → approve → capture marks the order paid once; the verified webhook changes nothing more', async () => {
    const o = await usdOrder()
    const started = await call('/api/payment/start', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(started.status, JSON.stringify(started.json)).toBe(200)
    expect(started.json.result).toMatchObject({
      provider: 'paypal',
      approveUrl: expect.stringContaining('/checkoutnow?token='),
    })
    const ppOrder = started.json.result.providerOrderId as string
    const early = await call('/api/payment/paypal/capture', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(early.status).toBe(502)
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'pending_payment' })
    expect(sandbox.paypalApprove(ppOrder)).toBe(true)
    const captured = await call('/api/payment/paypal/capture', {
      body: { orderNumber: o.orderNumber },
      headers: { 'x-order-link': o.orderLinkToken },
    })
    expect(captured.json.result).toMatchObject({
      outcome: 'paid',
      status: 'processing',
      paymentState: 'paid',
    })
    expect(await orderRow(o.orderId)).toMatchObject({ paid_minor: 12345, payment_state: 'paid' })
    const hooks = await deliverWebhooks((w) => eventOf(w) === 'PAYMENT.CAPTURE.COMPLETED', true)
    expect(hooks[0]?.json.result).toMatchObject({ outcome: 'already-paid' })
    const again = await deliverWebhooks()
    expect(again[0]?.json.result).toMatchObject({ duplicate: true })
    expect((await orderRow(o.orderId))?.paid_minor).toBe(12345)
    const back = await refund(o.orderId, 2345)
    expect(back).toMatchObject({ ok: true, refundedMinor: 2345, paymentState: 'partially_refunded' })
  })

  it('refuses a webhook PayPal does not confirm (forged, or its body changed after signing)', async () => {
    const o = await usdOrder()
    const started = await call('/api/payment/start', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    sandbox.paypalApprove(started.json.result.providerOrderId)
    held.length = 0
    // Capture happens at PayPal, but our capture call never comes back: only the webhook tells us.
    const captureAtProvider = await fetch(`https://payments-sandbox.test/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${payEnv.PAYPAL_CLIENT_ID}:${payEnv.PAYPAL_CLIENT_SECRET}`)}`,
      },
      body: 'grant_type=client_credentials',
    }).then((r) => r.json() as Promise<{ access_token: string }>)
    await fetch(
      `https://payments-sandbox.test/v2/checkout/orders/${started.json.result.providerOrderId}/capture`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${captureAtProvider.access_token}`,
          'content-type': 'application/json',
        },
        body: '{}',
      },
    )
    const hook = held.find((w) => eventOf(w) === 'PAYMENT.CAPTURE.COMPLETED')
    if (!hook) throw new Error('no webhook')
    const tampered = hook.body.replace('"12345', '"12346').replace('123.45', '123.46')
    const forged = await call('/api/payment/paypal/webhook', { rawBody: tampered, headers: hook.headers })
    expect(forged.status).toBe(401)
    const noHeaders = await call('/api/payment/paypal/webhook', { rawBody: hook.body })
    expect(noHeaders.status).toBe(401)
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'pending_payment', paid_minor: 0 })
    const genuine = await call('/api/payment/paypal/webhook', { rawBody: hook.body, headers: hook.headers })
    expect(genuine.json.result).toMatchObject({ outcome: 'paid' })
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'processing', paid_minor: 12345 })
  })

  it('charges a PayPal order in the dollars the shopper saw, and refuses PayPal for an INR order', async () => {
    const inDollars = await place('paypal_standard')
    expect(await orderRow(inDollars.orderId)).toMatchObject({ currency: 'USD' })
    // An order stored in INR (placed for another method, or before the pricing rules) is not PayPal's.
    const o = await place('paypal_standard')
    await env.DB.prepare("UPDATE orders SET currency = 'INR' WHERE client_order_id = ?").bind(o.orderId).run()
    const res = await call('/api/payment/start', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(res.status).toBe(409)
    expect(res.json.result).toMatch(/PayPal takes USD or GBP/)
  })
})
