// Payments that cannot double or vanish: a second payment of a paid order is given back through the
// provider and kept beside the first (never over it), so later refunds still go back through the
// provider; every refund carries its own provider request id, so two at once are two refunds at the
// provider and the order counts exactly what went back; an order whose charge rounds to nothing in
// the charge currency is refused before anything is written.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { inventoryStatement } from '../../../../scripts/catalogue/seed/write'
import { SANDBOX_SECRETS } from '../../../../scripts/payment-sandbox/sandbox'
import { fixtureProductStatement, GIFT, stockOf } from '../../../helpers/cart-fixtures'
import { newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import {
  call,
  deliverWebhooks,
  eventOf,
  held,
  orderRow,
  type Placed,
  payEnv,
  place,
  refund,
  SANDBOX_ORIGIN,
  sandbox,
  setUpPaymentSandbox,
  verify,
} from './harness'

setUpPaymentSandbox()

const rzpAuth = {
  authorization: `Basic ${btoa(`${SANDBOX_SECRETS.razorpay.keyId}:${SANDBOX_SECRETS.razorpay.keySecret}`)}`,
}
const rzpPayment = (id: string) =>
  fetch(`${SANDBOX_ORIGIN}/v1/payments/${id}`, { headers: rzpAuth }).then(
    (r) => r.json() as Promise<{ status: string; amount: number; amount_refunded: number }>,
  )

async function paypalToken() {
  const res = await fetch(`${SANDBOX_ORIGIN}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${payEnv.PAYPAL_CLIENT_ID}:${payEnv.PAYPAL_CLIENT_SECRET}`)}` },
    body: 'grant_type=client_credentials',
  })
  return ((await res.json()) as { access_token: string }).access_token
}

const start = (o: Placed) =>
  call('/api/payment/start', { body: { orderNumber: o.orderNumber, accessKey: o.accessKey } })
/** Pays a Razorpay order at the test provider; the checkout's callback fields. */
const pay = async (providerOrderId: string) =>
  (await sandbox.razorpayPay(providerOrderId, 'succeed')) as unknown as Record<string, string>

describe('a second payment of a paid order', () => {
  it('is refunded through Razorpay and recorded beside the first, which later refunds still go through', async () => {
    const o = await place()
    const providerOrderId = (await start(o)).json.result.options.order_id as string
    const first = await pay(providerOrderId)
    expect((await verify(o, first)).json.result).toMatchObject({ outcome: 'paid', status: 'processing' })
    // The shopper pays the same provider order again (a second tab, a double tap).
    const second = await pay(providerOrderId)
    const again = await verify(o, second)
    expect(again.json.result).toMatchObject({ outcome: 'refunded-late', status: 'processing' })
    // Its webhooks, delivered twice over, give nothing back twice and change nothing.
    await deliverWebhooks(() => true, true)
    const replayed = await deliverWebhooks()
    expect(replayed.every((a) => a.status === 200)).toBe(true)
    const total = (await orderRow(o.orderId))?.grand_total_minor as number
    expect(await orderRow(o.orderId)).toMatchObject({
      paid_minor: total,
      refunded_minor: 0,
      payment_state: 'paid',
    })
    expect(await rzpPayment(second.razorpay_payment_id as string)).toMatchObject({
      status: 'refunded',
      amount_refunded: total,
    })
    // An operator's refund goes back through Razorpay, against the payment that paid the order.
    const back = await refund(o.orderId, 100)
    expect(back).toMatchObject({ ok: true, providerRefundId: expect.stringMatching(/^rfnd_/) })
    expect(await rzpPayment(first.razorpay_payment_id as string)).toMatchObject({ amount_refunded: 100 })
    // Both payments are on record, each with what happened to it.
    const { results } = await env.DB.prepare(
      'SELECT provider_payment_id, status, amount_minor FROM provider_payments WHERE client_order_id = ? ORDER BY id',
    )
      .bind(o.orderId)
      .all()
    expect(results).toEqual([
      { provider_payment_id: first.razorpay_payment_id, status: 'paid', amount_minor: total },
      { provider_payment_id: second.razorpay_payment_id, status: 'refunded_late', amount_minor: total },
    ])
    const rest = await refund(o.orderId, total - 100)
    expect(rest).toMatchObject({ ok: true, paymentState: 'refunded' })
    expect(await rzpPayment(first.razorpay_payment_id as string)).toMatchObject({
      status: 'refunded',
      amount_refunded: total,
    })
    const manual = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM refunds WHERE client_order_id = ? AND provider = 'manual'",
    )
      .bind(o.orderId)
      .first<{ n: number }>()
    expect(manual?.n).toBe(0)
  })

  it('a second payment reported by two paths at once is refunded once', async () => {
    const o = await place()
    const providerOrderId = (await start(o)).json.result.options.order_id as string
    const first = await pay(providerOrderId)
    await verify(o, first)
    held.length = 0
    const second = await pay(providerOrderId)
    const captured = held.filter((w) => eventOf(w) === 'payment.captured')
    held.length = 0
    const answers = await Promise.all([
      verify(o, second),
      ...captured.map((w) => call(new URL(w.url).pathname, { rawBody: w.body, headers: w.headers })),
      verify(o, second),
    ])
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const refunds = await rzpPayment(second.razorpay_payment_id as string)
    expect(refunds.amount_refunded).toBe(refunds.amount)
    const row = await env.DB.prepare('SELECT status FROM provider_payments WHERE provider_payment_id = ?')
      .bind(second.razorpay_payment_id)
      .first()
    expect(row).toMatchObject({ status: 'refunded_late' })
  })
})

describe('refund request ids', () => {
  it('two partial PayPal refunds at once are two refunds at PayPal, each counted once', async () => {
    const o = await place('paypal_standard')
    const started = await start(o)
    expect(started.status, JSON.stringify(started.json)).toBe(200)
    sandbox.paypalApprove(started.json.result.providerOrderId)
    const captured = await call('/api/payment/paypal/capture', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(captured.json.result).toMatchObject({ outcome: 'paid' })
    const paid = (await orderRow(o.orderId))?.paid_minor as number
    const share = Math.floor(paid / 3)
    // Both refunds are asked of PayPal only once both have been sent: they are truly simultaneous.
    const routed = globalThis.fetch
    const waiting: (() => void)[] = []
    const requestIds: (string | null)[] = []
    vi.stubGlobal('fetch', (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init)
      if (/\/v2\/payments\/captures\/[^/]+\/refund$/.test(new URL(req.url).pathname)) {
        requestIds.push(req.headers.get('paypal-request-id'))
        await new Promise<void>((go) => {
          waiting.push(go)
          if (waiting.length === 2) for (const release of waiting) release()
        })
      }
      return routed(req)
    }) as typeof fetch)
    const results = await Promise.all([refund(o.orderId, share), refund(o.orderId, share)])
    vi.stubGlobal('fetch', routed)
    expect(requestIds).toHaveLength(2)
    expect(new Set(requestIds).size, requestIds.join(' ')).toBe(2)
    expect(results.map((r) => r.ok)).toEqual([true, true])
    const ids = results.map((r) => (r.ok ? r.providerRefundId : null))
    expect(new Set(ids).size).toBe(2)
    const token = await paypalToken()
    for (const id of ids) {
      const shown = await fetch(`${SANDBOX_ORIGIN}/v2/payments/refunds/${id}`, {
        headers: { authorization: `Bearer ${token}` },
      }).then((r) => r.json() as Promise<{ amount: { value: string } }>)
      expect(Math.round(Number(shown.amount.value) * 100)).toBe(share)
    }
    expect((await orderRow(o.orderId))?.refunded_minor).toBe(2 * share)
    const { results: rows } = await env.DB.prepare(
      'SELECT provider_refund_id, amount_minor, status FROM refunds WHERE client_order_id = ? ORDER BY id',
    )
      .bind(o.orderId)
      .all()
    expect(rows.map((r) => r.amount_minor)).toEqual([share, share])
    expect(new Set(rows.map((r) => r.provider_refund_id)).size).toBe(2)
  })
})

describe('a refund reported by the provider before its own call returns', () => {
  it('is the same refund, counted once', async () => {
    const o = await place()
    const providerOrderId = (await start(o)).json.result.options.order_id as string
    await verify(o, await pay(providerOrderId))
    held.length = 0
    const routed = globalThis.fetch
    const early: { status: number; json: { result: { outcome?: string } } }[] = []
    vi.stubGlobal('fetch', (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init)
      const res = await routed(req)
      if (/\/v1\/payments\/[^/]+\/refund$/.test(new URL(req.url).pathname)) {
        // Razorpay's refund.processed webhook lands while the refund call is still on its way back.
        const hooks = held.filter((w) => eventOf(w) === 'refund.processed')
        held.length = 0
        for (const w of hooks)
          early.push(await call(new URL(w.url).pathname, { rawBody: w.body, headers: w.headers }))
      }
      return res
    }) as typeof fetch)
    const back = await refund(o.orderId, 300)
    vi.stubGlobal('fetch', routed)
    expect(back).toMatchObject({ ok: true, refundedMinor: 300 })
    expect(early.map((a) => a.json.result.outcome)).toEqual(['marked'])
    expect(await orderRow(o.orderId)).toMatchObject({
      refunded_minor: 300,
      payment_state: 'partially_refunded',
    })
    const { results } = await env.DB.prepare(
      'SELECT amount_minor, status, provider_refund_id FROM refunds WHERE client_order_id = ?',
    )
      .bind(o.orderId)
      .all()
    expect(results).toEqual([
      { amount_minor: 300, status: 'processed', provider_refund_id: back.ok ? back.providerRefundId : null },
    ])
  })
})

describe('a charge that rounds to nothing', () => {
  const address = testAddress('asha.zero@example.com')
  const BINDI = {
    ...GIFT,
    id: 990140,
    sku: 'FX-BINDI',
    name: 'Bindi strip',
    type_id: 'simple',
    price: 24,
    tax_class_id: 0,
  }

  beforeEach(async () => {
    await env.DB.batch([
      fixtureProductStatement(env.DB, BINDI),
      inventoryStatement(env.DB, {
        sku: BINDI.sku,
        product_id: BINDI.id,
        parent_sku: null,
        qty: 5,
        is_in_stock: true,
      }),
    ])
  })

  it('a ₹24 item through PayPal ($0 when rounded to whole dollars) is refused before an order exists', async () => {
    const orderId = newOrderId('zero')
    const res = await call('/api/order', {
      // A shopper shown dollars: PayPal charges the currency shown.
      headers: { cookie: 'currency=USD' },
      body: orderBody(orderId, [{ sku: 'FX-BINDI', qty: 1, price: 24 }], address, {
        payment: 'paypal_standard',
      }),
    })
    expect(res.status).toBe(400)
    expect(res.json.result).toMatch(/comes to \$0\.00 in USD/)
    expect(res.json.result).not.toMatch(/^Invalid /)
    expect(await orderRow(orderId)).toBeNull()
    expect(await stockOf('FX-BINDI')).toBe(5)
    // The same item charged in rupees is an ordinary order awaiting payment.
    const inr = await call('/api/order', {
      body: orderBody(newOrderId('zero'), [{ sku: 'FX-BINDI', qty: 1, price: 24 }], address, {
        payment: 'card',
      }),
    })
    expect(inr.status, JSON.stringify(inr.json)).toBe(200)
    expect(inr.json.result).toMatchObject({ status: 'pending_payment', paymentPending: true })
  })

  it('nothing is confirmed as paid that neither a provider nor store credit paid', async () => {
    // A coupon that takes the whole amount is not a payment either.
    await env.DB.prepare(
      `INSERT OR REPLACE INTO coupons (code, kind, amount, min_subtotal, is_active, label)
       VALUES ('FX-ALL', 'fixed', 100000, 0, 1, 'Everything off')`,
    ).run()
    const cartId = (await call('/api/cart/create?token=', { body: {} })).json.result as string
    await call(`/api/cart/update?token=&cartId=${cartId}`, {
      body: { cartItem: { sku: 'FX-SCARF', qty: 1 } },
    })
    const applied = await call(`/api/cart/apply-coupon?token=&cartId=${cartId}&coupon=FX-ALL`, { body: {} })
    expect(applied.status, JSON.stringify(applied.json)).toBe(200)
    const orderId = newOrderId('zero')
    const res = await call('/api/order', {
      body: orderBody(orderId, [{ sku: 'FX-SCARF', qty: 1, price: 1 }], address, {
        payment: 'card',
        cart_id: cartId,
      }),
    })
    expect(res.status).toBe(400)
    expect(await orderRow(orderId)).toBeNull()
  })
})
