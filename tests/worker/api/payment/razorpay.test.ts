// Razorpay payments end to end against the local test provider: the order is opened at the
// provider once, the checkout callback and the webhooks (in any order, any number of times) mark
// it paid exactly once, nothing without a verified signature ever marks it paid, a failed payment
// stays payable, and a payment that arrives after the order expired is given back.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { SANDBOX_SECRETS } from '../../../../scripts/payment-sandbox/sandbox'
import { seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import {
  call,
  deliverWebhooks,
  eventOf,
  held,
  mails,
  orderRow,
  type Placed,
  place,
  runCron,
  sandbox,
  setUpPaymentSandbox,
} from './harness'

setUpPaymentSandbox()

async function start(o: Placed, auth: { accessKey?: string; link?: string } = { accessKey: o.accessKey }) {
  return call('/api/payment/start', {
    body: { orderNumber: o.orderNumber, ...(auth.accessKey ? { accessKey: auth.accessKey } : {}) },
    headers: auth.link ? { 'x-order-link': auth.link } : {},
  })
}

/** Starts the payment and pays it at the test provider; returns the checkout's callback fields. */
async function payAtProvider(o: Placed, outcome: 'succeed' | 'fail' = 'succeed') {
  const started = await start(o)
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  const providerOrderId = started.json.result.options.order_id as string
  const answer = (await sandbox.razorpayPay(providerOrderId, outcome)) as unknown as Record<string, string>
  return { providerOrderId, answer }
}

const verify = (o: Placed, fields: Record<string, string>) =>
  call('/api/payment/razorpay/verify', { body: { orderNumber: o.orderNumber, ...fields } })

describe('starting a payment', () => {
  it('opens one Razorpay order for the charge (paise, receipt = order number) and reuses it', async () => {
    const o = await place()
    const row = await orderRow(o.orderId)
    const first = await start(o)
    expect(first.status).toBe(200)
    expect(first.json.result).toMatchObject({
      provider: 'razorpay',
      orderNumber: o.orderNumber,
      options: { key: SANDBOX_SECRETS.razorpay.keyId, amount: row?.grand_total_minor, currency: 'INR' },
    })
    expect(JSON.stringify(first.json.result)).not.toContain(SANDBOX_SECRETS.razorpay.keySecret)
    const again = await start(o, { link: o.orderLinkToken })
    expect(again.json.result.options.order_id).toBe(first.json.result.options.order_id)
    const provider = await call(`/api/payment/order`, {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(provider.json.result).toMatchObject({
      status: 'pending_payment',
      paymentState: 'awaiting',
      payable: true,
    })
    const rz = await fetch(`https://payments-sandbox.test/v1/orders/${first.json.result.options.order_id}`, {
      headers: {
        authorization: `Basic ${btoa(`${SANDBOX_SECRETS.razorpay.keyId}:${SANDBOX_SECRETS.razorpay.keySecret}`)}`,
      },
    }).then((r) => r.json() as Promise<{ receipt: string; amount: number }>)
    expect(rz).toMatchObject({ receipt: o.orderNumber, amount: row?.grand_total_minor })
  })

  it('the placement answer carries an order link token that a replay repeats and that opens only that order', async () => {
    const o = await place()
    const view = await call('/api/payment/order', {
      body: { orderNumber: o.orderNumber },
      headers: { 'x-order-link': o.orderLinkToken },
    })
    expect(view.status).toBe(200)
    expect(view.json.result).toMatchObject({ orderNumber: o.orderNumber, status: 'pending_payment' })
    // The order page names how it is paid and where it goes (to whoever may open the order).
    expect(view.json.result.paymentMethod).toEqual(expect.any(String))
    expect(view.json.result.shippingAddress).toMatchObject({
      country_id: expect.any(String),
      city: expect.any(String),
      postcode: expect.any(String),
    })
    const other = await place()
    const cross = await call('/api/payment/order', {
      body: { orderNumber: other.orderNumber },
      headers: { 'x-order-link': o.orderLinkToken },
    })
    expect(cross.status).toBe(403)
  })

  it("refuses without the order's key, link or customer, and with another order's link or key", async () => {
    const mine = await place()
    const other = await place()
    const nothing = await start(mine, {})
    expect(nothing.status).toBe(403)
    expect(nothing.json.result).toMatch(/cannot be opened/)
    expect((await start(mine, { accessKey: other.accessKey })).status).toBe(403)
    expect((await start(mine, { link: other.orderLinkToken })).status).toBe(403)
    expect((await start(mine, { link: `${mine.orderLinkToken}x` })).status).toBe(403)
    const unknown = await call('/api/payment/start', {
      body: { orderNumber: '999999999', accessKey: mine.accessKey },
    })
    expect(unknown.status).toBe(403)
    const bad = await call('/api/payment/start', { body: { orderNumber: "1' OR 1=1" } })
    expect(bad.status).toBe(400)
    expect(bad.json.result).toMatch(/^Invalid payment start: orderNumber/)
  })

  it('refuses a cash on delivery order and an order that is already paid', async () => {
    const cod = await place('cashondelivery')
    const answer = await start(cod)
    expect(answer.status).toBe(409)
    expect(answer.json.result).toMatch(/cannot be paid/)
    const o = await place()
    const { answer: cb } = await payAtProvider(o)
    expect((await verify(o, cb)).status).toBe(200)
    const late = await start(o)
    expect(late.status).toBe(409)
    expect(late.json.result).toMatch(/Confirmed/)
  })
})

describe('callback and webhooks', () => {
  it('a callback without any webhook marks the order paid with the amount the provider reports', async () => {
    const o = await place()
    const { answer } = await payAtProvider(o)
    held.length = 0 // the webhooks never arrive
    const res = await verify(o, answer)
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.result).toMatchObject({ outcome: 'paid', status: 'processing', paymentState: 'paid' })
    const row = await orderRow(o.orderId)
    expect(row).toMatchObject({ status: 'processing', payment_state: 'paid' })
    expect(row?.paid_minor).toBe(row?.grand_total_minor)
    // Nothing was mailed while the order was only held: its "received" mail is the payment's.
    expect(await mails(o.orderNumber)).toEqual(['order-paid'])
  })

  it('records the method the provider reports (UPI, not the checkout choice) on every surface', async () => {
    const o = await place()
    const merchantMails = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = 'order-merchant' AND subject LIKE ?")
        .bind(`%${o.orderNumber}%`)
        .first<{ n: number }>()
    // Held, unpaid: neither the shopper nor the merchant has been told of an order yet.
    expect((await merchantMails())?.n).toBe(0)
    const { answer } = await payAtProvider(o)
    held.length = 0
    expect((await verify(o, answer)).status).toBe(200)
    const view = await call('/api/payment/order', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(view.json.result).toMatchObject({ paymentMethod: 'card', paymentName: 'UPI' })
    const paid = await env.DB.prepare(
      "SELECT body FROM mail_outbox WHERE kind = 'order-paid' AND subject LIKE ?",
    )
      .bind(`%${o.orderNumber}%`)
      .first<{ body: string }>()
    expect(paid?.body).toContain('paid (UPI)')
    expect((await merchantMails())?.n).toBe(1)
  })

  it('a webhook-only payment by netbanking is recorded as netbanking', async () => {
    const o = await place()
    const started = await start(o)
    await sandbox.razorpayPay(started.json.result.options.order_id as string, 'succeed', 'netbanking')
    await deliverWebhooks()
    const view = await call('/api/payment/order', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(view.json.result).toMatchObject({ status: 'processing', paymentName: 'Netbanking' })
  })

  it('webhook before the callback, duplicate webhooks, order.paid after payment.captured: paid once', async () => {
    const o = await place()
    const { answer } = await payAtProvider(o)
    expect(held.map(eventOf)).toEqual(['payment.captured', 'order.paid'])
    const first = await deliverWebhooks((w) => eventOf(w) === 'payment.captured', true)
    expect(first[0]?.json.result).toMatchObject({ outcome: 'paid' })
    const duplicate = await deliverWebhooks((w) => eventOf(w) === 'payment.captured')
    expect(duplicate[0]?.json.result).toMatchObject({ duplicate: true })
    const orderPaid = await deliverWebhooks()
    expect(orderPaid[0]?.json.result).toMatchObject({ outcome: 'already-paid' })
    const callback = await verify(o, answer)
    expect(callback.json.result).toMatchObject({ outcome: 'already-paid', status: 'processing' })
    const row = await orderRow(o.orderId)
    expect(row?.paid_minor).toBe(row?.grand_total_minor)
    const { results } = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM order_events WHERE client_order_id = ? AND to_status = 'processing'",
    )
      .bind(o.orderId)
      .all<{ n: number }>()
    expect(results[0]?.n).toBe(1)
    expect(await mails(o.orderNumber)).toEqual(['order-paid'])
  })

  it('callback and webhook at the same moment: paid once', async () => {
    const o = await place()
    const { answer } = await payAtProvider(o)
    await Promise.all([verify(o, answer), deliverWebhooks(), verify(o, answer)])
    const row = await orderRow(o.orderId)
    expect(row).toMatchObject({ status: 'processing', payment_state: 'paid' })
    expect(row?.paid_minor).toBe(row?.grand_total_minor)
  })
})

describe('nothing marks an order paid without a verified signature', () => {
  it('refuses tampered callbacks: signature, payment id, and another order’s valid signature', async () => {
    const victim = await place()
    await start(victim)
    const attacker = await place()
    const { answer } = await payAtProvider(attacker)
    held.length = 0
    // The attacker's genuine callback replayed against the victim's order number.
    const replayed = await verify(victim, answer)
    expect(replayed.status).toBe(400)
    expect(replayed.json.result).toMatch(/could not be verified/)
    const sig = answer.razorpay_signature as string
    const flipped = sig.startsWith('0') ? '1' : '0'
    const forged = await verify(attacker, { ...answer, razorpay_signature: flipped + sig.slice(1) })
    expect(forged.status).toBe(400)
    const otherPayment = await verify(attacker, { ...answer, razorpay_payment_id: 'pay_forged000001' })
    expect(otherPayment.status).toBe(400)
    const upper = await verify(attacker, {
      ...answer,
      razorpay_signature: sig.toUpperCase(),
    })
    expect(upper.status).toBe(400)
    expect((await orderRow(victim.orderId))?.status).toBe('pending_payment')
    expect(await orderRow(attacker.orderId)).toMatchObject({ status: 'pending_payment', paid_minor: 0 })
  })

  it('refuses webhooks that are unsigned, wrongly signed, or re-serialised after signing', async () => {
    const o = await place()
    await payAtProvider(o)
    const captured = held.find((w) => eventOf(w) === 'payment.captured')
    if (!captured) throw new Error('no webhook')
    const path = '/api/payment/razorpay/webhook'
    const { 'x-razorpay-signature': sig, ...unsigned } = captured.headers
    expect((await call(path, { rawBody: captured.body, headers: unsigned })).status).toBe(401)
    const reserialised = JSON.stringify(JSON.parse(captured.body), null, 1)
    const re = await call(path, { rawBody: reserialised, headers: captured.headers })
    expect(re.status).toBe(401)
    expect(re.json.result).toMatch(/X-Razorpay-Signature/)
    const keyed = await call(path, {
      rawBody: captured.body,
      headers: {
        ...captured.headers,
        'x-razorpay-signature': (sig as string).replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
      },
    })
    expect(keyed.status).toBe(401)
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'pending_payment', paid_minor: 0 })
  })

  it('flags a signed payment whose amount differs from the order instead of marking it paid', async () => {
    const o = await place()
    const { providerOrderId } = await payAtProvider(o)
    const captured = held.find((w) => eventOf(w) === 'payment.captured')
    const event = JSON.parse(captured?.body ?? '{}')
    event.payload.payment.entity.amount = 100
    event.payload.payment.entity.id = 'pay_short0000001'
    const body = JSON.stringify(event)
    const res = await call('/api/payment/razorpay/webhook', {
      rawBody: body,
      headers: {
        'x-razorpay-signature': await sandbox.signRazorpayWebhook(body),
        'x-razorpay-event-id': 'evt_short',
      },
    })
    expect(res.json.result).toMatchObject({ outcome: 'flagged' })
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'pending_payment', paid_minor: 0 })
    const pay = await env.DB.prepare('SELECT status FROM payments WHERE provider_order_id = ?')
      .bind(providerOrderId)
      .first()
    expect(pay).toMatchObject({ status: 'flagged' })
  })
})

describe('failure, retry and expiry', () => {
  it('a failed payment keeps the order payable; pay-now reuses the provider order and succeeds', async () => {
    const o = await place()
    const { providerOrderId, answer } = await payAtProvider(o, 'fail')
    expect(answer).toHaveProperty('error')
    const [failed] = await deliverWebhooks()
    expect(failed?.json.result).toMatchObject({ outcome: 'failed' })
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'payment_failed', payment_state: 'failed' })
    const view = await call('/api/payment/order', {
      body: { orderNumber: o.orderNumber },
      headers: { 'x-order-link': o.orderLinkToken },
    })
    expect(view.json.result).toMatchObject({ payable: true, statusLabel: expect.stringMatching(/pay again/) })
    const retry = await payAtProvider(o, 'succeed')
    expect(retry.providerOrderId).toBe(providerOrderId)
    const res = await verify(o, retry.answer)
    expect(res.json.result).toMatchObject({ outcome: 'paid', status: 'processing' })
    expect(await mails(o.orderNumber)).toEqual(['order-payment_failed', 'order-paid'])
    // A late failure report of the first attempt changes nothing.
    await deliverWebhooks()
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'processing', payment_state: 'paid' })
  })

  it('a payment arriving after the order expired is refunded at the provider, not accepted', async () => {
    // Earlier tests' unpaid orders expire first, so the stock counted below is this order's alone.
    await runCron(Date.now() + 31 * 60_000)
    await seedCartFixtures()
    const before = (await stockOf('FX-SCARF')) as number
    const o = await place()
    const { answer } = await payAtProvider(o)
    expect(await stockOf('FX-SCARF')).toBe(before - 1)
    const row = await orderRow(o.orderId)
    await runCron((row?.expires_at as number) + 1000)
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'expired' })
    expect(await stockOf('FX-SCARF')).toBe(before)
    const hooks = await deliverWebhooks((w) => eventOf(w) === 'payment.captured')
    expect(hooks[0]?.json.result).toMatchObject({ outcome: 'refunded-late' })
    const cb = await verify(o, answer)
    expect(cb.json.result).toMatchObject({ outcome: 'refunded-late', status: 'expired' })
    expect(await orderRow(o.orderId)).toMatchObject({ status: 'expired', paid_minor: 0 })
    expect(await stockOf('FX-SCARF')).toBe(before)
    const payment = await fetch(`https://payments-sandbox.test/v1/payments/${answer.razorpay_payment_id}`, {
      headers: {
        authorization: `Basic ${btoa(`${SANDBOX_SECRETS.razorpay.keyId}:${SANDBOX_SECRETS.razorpay.keySecret}`)}`,
      },
    }).then((r) => r.json() as Promise<{ status: string; amount_refunded: number; amount: number }>)
    expect(payment.status).toBe('refunded')
    expect(payment.amount_refunded).toBe(payment.amount)
    expect((await start(o)).status).toBe(409)
  })
})
