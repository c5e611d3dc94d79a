/**
 * Length: two providers' REST endpoints, their test pages and their signing in one module, which
 * the Node server and the worker tests both load, so neither runs a copy of the other's code.
 *
 * The local test payment provider. It answers the Razorpay and PayPal REST endpoints the shop
 * calls (same paths, fields, amount units, auth headers and signatures as the real services),
 * serves a Razorpay-style checkout.js that opens a clearly labelled TEST payment page, and a PayPal
 * approval page. Callbacks and webhooks are signed with the test secrets the way the real
 * providers sign them, and webhooks are POSTed to the shop. State lives in memory.
 *
 * It is written against Web APIs only, so the Node server (server.ts) and the worker tests (which
 * import it and route the worker's outbound calls to it) run the very same code. The worker never
 * imports it: production only differs in base URLs and secrets.
 */

import { hmacHex } from '../stand-in-hmac.ts'
import type { DeliverWebhook } from '../stand-in-server.ts'
import { createPaymentLinks } from './payment-links.ts'

interface SandboxOptions {
  /** Where this sandbox is reachable from the browser (checkout.js, the test pages). */
  origin: string
  /** The shop's origin; webhooks go to <shop>/api/payment/{razorpay,paypal}/webhook. */
  shopOrigin: string
  razorpay: { keyId: string; keySecret: string; webhookSecret: string }
  paypal: { clientId: string; clientSecret: string; webhookId: string }
  deliver?: DeliverWebhook
}

/** The test secrets `npm start` gives the shop when no real keys are set. */
export const SANDBOX_SECRETS = {
  razorpay: {
    keyId: 'rzp_test_sandbox0001',
    keySecret: 'sandbox-razorpay-key-secret',
    webhookSecret: 'sandbox-razorpay-webhook-secret',
  },
  paypal: {
    clientId: 'sandbox-paypal-client-id',
    clientSecret: 'sandbox-paypal-client-secret',
    webhookId: 'SANDBOXWEBHOOK0001',
  },
}

/** The shop's payment settings for a sandbox at `origin` (what `npm start` passes with --var). */
export function sandboxVars(origin: string): Record<string, string> {
  return {
    RAZORPAY_KEY_ID: SANDBOX_SECRETS.razorpay.keyId,
    RAZORPAY_KEY_SECRET: SANDBOX_SECRETS.razorpay.keySecret,
    RAZORPAY_WEBHOOK_SECRET: SANDBOX_SECRETS.razorpay.webhookSecret,
    RAZORPAY_API_BASE: origin,
    RAZORPAY_CHECKOUT_SCRIPT: `${origin}/v1/checkout.js`,
    PAYPAL_CLIENT_ID: SANDBOX_SECRETS.paypal.clientId,
    PAYPAL_CLIENT_SECRET: SANDBOX_SECRETS.paypal.clientSecret,
    PAYPAL_WEBHOOK_ID: SANDBOX_SECRETS.paypal.webhookId,
    PAYPAL_API_BASE: origin,
  }
}

interface RzpOrder {
  id: string
  entity: 'order'
  amount: number
  amount_paid: number
  amount_due: number
  currency: string
  receipt: string | null
  status: 'created' | 'attempted' | 'paid'
  attempts: number
  notes: Record<string, string>
  created_at: number
}
interface RzpPayment {
  id: string
  entity: 'payment'
  amount: number
  currency: string
  status: 'captured' | 'failed' | 'refunded'
  order_id: string
  method: string
  amount_refunded: number
  refund_status: string | null
  captured: boolean
  error_code: string | null
  error_description: string | null
  created_at: number
}
interface PpOrder {
  id: string
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED'
  intent: string
  purchase_units: {
    reference_id?: string
    invoice_id?: string
    custom_id?: string
    amount: { currency_code: string; value: string }
    payments?: { captures: PpCapture[] }
  }[]
  returnUrl: string
  cancelUrl: string
  declineCapture: boolean
}
interface PpCapture {
  id: string
  status: 'COMPLETED' | 'DECLINED'
  amount: { currency_code: string; value: string }
  custom_id?: string
  invoice_id?: string
  supplementary_data: { related_ids: { order_id: string } }
  refunded: number
}

const enc = new TextEncoder()

/** CRC-32 (IEEE) of a string's UTF-8 bytes, as PayPal's webhook signature input uses it. */
function crc32(text: string): number {
  let crc = 0xffffffff
  for (const byte of enc.encode(text)) {
    crc ^= byte
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1))
  }
  return (crc ^ 0xffffffff) >>> 0
}

const rid = (prefix: string) =>
  `${prefix}${[...crypto.getRandomValues(new Uint8Array(7))]
    .map((b) => b.toString(36).padStart(2, '0'))
    .join('')
    .slice(0, 14)}`

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const rzpError = (status: number, description: string, code = 'BAD_REQUEST_ERROR') =>
  json({ error: { code, description, source: 'business', reason: 'input_validation_failed' } }, status)

const ppError = (status: number, name: string, issue: string) =>
  json({ name, message: issue, details: [{ issue, description: issue }], debug_id: rid('dbg') }, status)

const html = (body: string) =>
  new Response(body, {
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  })

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

const value2 = (minor: number) => (minor / 100).toFixed(2)
const minorOf = (value: string) => Math.round(Number(value) * 100)

export function createSandbox(opts: SandboxOptions) {
  const rzpOrders = new Map<string, RzpOrder>()
  const rzpPayments = new Map<string, RzpPayment>()
  const ppOrders = new Map<string, PpOrder>()
  const ppCaptures = new Map<string, PpCapture>()
  const ppRefunds = new Map<
    string,
    { id: string; status: string; amount: { value: string; currency_code: string } }
  >()
  const ppTokens = new Set<string>()
  const ppIdempotent = new Map<string, string>()
  const ppInFlight = new Map<string, Promise<void>>()
  /** Transmission id → the exact event text sent, for verify-webhook-signature. */
  const ppSent = new Map<string, string>()
  const ppSigningKey = `sandbox-paypal-signing-${rid('')}`
  const deliver =
    opts.deliver ?? ((url: string, init: RequestInit) => fetch(url, init).then((r) => r.arrayBuffer()))

  async function razorpayWebhook(event: string, payload: Record<string, unknown>) {
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_sandbox',
      event,
      contains: Object.keys(payload),
      payload,
      created_at: Math.floor(Date.now() / 1000),
    })
    await deliver(`${opts.shopOrigin}/api/payment/razorpay/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-razorpay-signature': await hmacHex(opts.razorpay.webhookSecret, body),
        'x-razorpay-event-id': rid('evt_'),
      },
      body,
    })
  }

  async function paypalWebhook(eventType: string, resourceType: string, resource: unknown) {
    const body = JSON.stringify({
      id: rid('WH-'),
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      event_type: eventType,
      summary: eventType,
      resource,
    })
    const transmissionId = crypto.randomUUID()
    const time = new Date().toISOString()
    ppSent.set(transmissionId, body)
    const sig = await hmacHex(
      ppSigningKey,
      `${transmissionId}|${time}|${opts.paypal.webhookId}|${crc32(body)}`,
    )
    await deliver(`${opts.shopOrigin}/api/payment/paypal/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${opts.origin}/v1/notifications/certs/CERT-sandbox`,
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': sig,
        'paypal-transmission-time': time,
      },
      body,
    })
  }

  const basic = (req: Request, user: string, pass: string) =>
    req.headers.get('authorization') === `Basic ${btoa(`${user}:${pass}`)}`

  // Razorpay Payment Links: a module of its own (./payment-links.ts).
  const paymentLinks = createPaymentLinks({
    origin: opts.origin,
    keySecret: opts.razorpay.keySecret,
    webhook: razorpayWebhook,
    recordPayment: (p) => rzpPayments.set(p.id, p as unknown as RzpPayment),
    hmacHex,
    rid,
  })

  /** Settles a test payment on a Razorpay order: what the real checkout + Razorpay do. */
  async function razorpayPay(orderId: string, outcome: 'succeed' | 'fail', method = 'upi') {
    const order = rzpOrders.get(orderId)
    if (!order) return { error: { code: 'BAD_REQUEST_ERROR', description: 'order not found' } }
    order.attempts++
    const payment: RzpPayment = {
      id: rid('pay_'),
      entity: 'payment',
      amount: order.amount,
      currency: order.currency,
      status: outcome === 'succeed' ? 'captured' : 'failed',
      order_id: order.id,
      method,
      amount_refunded: 0,
      refund_status: null,
      captured: outcome === 'succeed',
      error_code: outcome === 'succeed' ? null : 'BAD_REQUEST_ERROR',
      error_description: outcome === 'succeed' ? null : 'Payment failed (TEST: the shopper chose "Fail")',
      created_at: Math.floor(Date.now() / 1000),
    }
    rzpPayments.set(payment.id, payment)
    if (outcome === 'succeed') {
      order.status = 'paid'
      order.amount_paid = order.amount
      order.amount_due = 0
      await razorpayWebhook('payment.captured', { payment: { entity: payment } })
      await razorpayWebhook('order.paid', { payment: { entity: payment }, order: { entity: order } })
      return {
        razorpay_payment_id: payment.id,
        razorpay_order_id: order.id,
        razorpay_signature: await hmacHex(opts.razorpay.keySecret, `${order.id}|${payment.id}`),
      }
    }
    order.status = 'attempted'
    await razorpayWebhook('payment.failed', { payment: { entity: payment } })
    return {
      error: {
        code: 'BAD_REQUEST_ERROR',
        description: payment.error_description,
        source: 'customer',
        step: 'payment_authorization',
        reason: 'payment_failed',
        metadata: { order_id: order.id, payment_id: payment.id },
      },
    }
  }

  /** The PayPal REST endpoints (after authentication); `remember` keeps a result for its request id. */
  async function paypalRest(
    req: Request,
    path: string,
    method: string,
    remember: (res: Response, body: unknown) => Response,
  ): Promise<Response> {
    if (method === 'POST' && path === '/v2/checkout/orders') {
      const b = (await req.json()) as {
        intent?: string
        purchase_units?: PpOrder['purchase_units']
        payment_source?: { paypal?: { experience_context?: { return_url?: string; cancel_url?: string } } }
      }
      const unit = b.purchase_units?.[0]
      if (b.intent !== 'CAPTURE' || !unit?.amount || !/^\d+\.\d{2}$/.test(unit.amount.value)) {
        return ppError(422, 'UNPROCESSABLE_ENTITY', 'INVALID_PARAMETER_VALUE')
      }
      const ctx = b.payment_source?.paypal?.experience_context
      const order: PpOrder = {
        id: rid('').toUpperCase().padEnd(17, '0'),
        status: 'PAYER_ACTION_REQUIRED',
        intent: 'CAPTURE',
        purchase_units: [unit],
        returnUrl: ctx?.return_url ?? '',
        cancelUrl: ctx?.cancel_url ?? '',
        declineCapture: false,
      }
      ppOrders.set(order.id, order)
      const body = {
        id: order.id,
        status: order.status,
        payment_source: { paypal: {} },
        links: [
          { href: `${opts.origin}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
          { href: `${opts.origin}/checkoutnow?token=${order.id}`, rel: 'payer-action', method: 'GET' },
        ],
      }
      return remember(json(body, 200), body)
    }
    const capMatch = path.match(/^\/v2\/checkout\/orders\/([^/]+)\/capture$/)
    if (method === 'POST' && capMatch) {
      const order = ppOrders.get(decodeURIComponent(capMatch[1] as string))
      if (!order) return ppError(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
      if (order.status === 'COMPLETED') return ppError(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED')
      if (order.status !== 'APPROVED') return ppError(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED')
      const unit = order.purchase_units[0] as PpOrder['purchase_units'][number]
      const capture: PpCapture = {
        id: rid('CAP').toUpperCase(),
        status: order.declineCapture ? 'DECLINED' : 'COMPLETED',
        amount: unit.amount,
        custom_id: unit.custom_id,
        invoice_id: unit.invoice_id,
        supplementary_data: { related_ids: { order_id: order.id } },
        refunded: 0,
      }
      ppCaptures.set(capture.id, capture)
      order.status = 'COMPLETED'
      unit.payments = { captures: [capture] }
      const { refunded: _r, ...shown } = capture
      const body = {
        id: order.id,
        status: 'COMPLETED',
        purchase_units: [{ reference_id: unit.reference_id, payments: { captures: [shown] } }],
      }
      await paypalWebhook(
        capture.status === 'COMPLETED' ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED',
        'capture',
        shown,
      )
      return remember(json(body, 201), body)
    }
    const refundMatch = path.match(/^\/v2\/payments\/captures\/([^/]+)\/refund$/)
    if (method === 'POST' && refundMatch) {
      const capture = ppCaptures.get(decodeURIComponent(refundMatch[1] as string))
      if (capture?.status !== 'COMPLETED') return ppError(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
      const b = (await req.json()) as {
        amount?: { value: string; currency_code: string }
        custom_id?: string
      }
      const amount = b.amount ? minorOf(b.amount.value) : minorOf(capture.amount.value) - capture.refunded
      if (b.amount && b.amount.currency_code !== capture.amount.currency_code) {
        return ppError(422, 'UNPROCESSABLE_ENTITY', 'CURRENCY_MISMATCH')
      }
      if (amount <= 0 || amount > minorOf(capture.amount.value) - capture.refunded) {
        return ppError(422, 'UNPROCESSABLE_ENTITY', 'REFUND_AMOUNT_EXCEEDED')
      }
      capture.refunded += amount
      const body = {
        id: rid('REF').toUpperCase(),
        status: 'COMPLETED',
        amount: { value: value2(amount), currency_code: capture.amount.currency_code },
        ...(b.custom_id ? { custom_id: b.custom_id } : {}),
      }
      ppRefunds.set(body.id, body)
      return remember(json(body, 201), body)
    }
    const showRefund = path.match(/^\/v2\/payments\/refunds\/([^/]+)$/)
    if (method === 'GET' && showRefund) {
      const refund = ppRefunds.get(decodeURIComponent(showRefund[1] as string))
      return refund ? json(refund) : ppError(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
    }
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') {
      const b = (await req.json()) as Record<string, unknown>
      const sent = ppSent.get(String(b.transmission_id))
      const fieldsOk =
        sent !== undefined &&
        b.webhook_id === opts.paypal.webhookId &&
        b.auth_algo === 'SHA256withRSA' &&
        typeof b.transmission_time === 'string' &&
        JSON.stringify(b.webhook_event) === JSON.stringify(JSON.parse(sent))
      const expected = fieldsOk
        ? await hmacHex(
            ppSigningKey,
            `${b.transmission_id}|${b.transmission_time}|${b.webhook_id}|${crc32(sent as string)}`,
          )
        : null
      return json({
        verification_status: expected !== null && expected === b.transmission_sig ? 'SUCCESS' : 'FAILURE',
      })
    }
    return ppError(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID')
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url)
    const path = url.pathname
    const method = req.method

    const linkAnswer = await paymentLinks.handle(
      req,
      basic(req, opts.razorpay.keyId, opts.razorpay.keySecret),
    )
    if (linkAnswer) return linkAnswer

    // ---- Razorpay REST API ----
    if (path.startsWith('/v1/orders') || path.startsWith('/v1/payments')) {
      if (!basic(req, opts.razorpay.keyId, opts.razorpay.keySecret)) {
        return rzpError(401, 'Authentication failed', 'BAD_REQUEST_ERROR')
      }
      if (method === 'POST' && path === '/v1/orders') {
        const b = (await req.json()) as {
          amount?: unknown
          currency?: unknown
          receipt?: unknown
          notes?: unknown
        }
        if (!Number.isInteger(b.amount) || (b.amount as number) < 100) {
          return rzpError(400, 'The amount must be atleast INR 1.00')
        }
        if (typeof b.currency !== 'string') return rzpError(400, 'The currency field is required.')
        if (typeof b.receipt === 'string' && b.receipt.length > 40) {
          return rzpError(400, 'receipt may not be greater than 40 characters.')
        }
        const order: RzpOrder = {
          id: rid('order_'),
          entity: 'order',
          amount: b.amount as number,
          amount_paid: 0,
          amount_due: b.amount as number,
          currency: b.currency,
          receipt: typeof b.receipt === 'string' ? b.receipt : null,
          status: 'created',
          attempts: 0,
          notes: (b.notes as Record<string, string>) ?? {},
          created_at: Math.floor(Date.now() / 1000),
        }
        rzpOrders.set(order.id, order)
        return json(order)
      }
      const orderMatch = path.match(/^\/v1\/orders\/([^/]+)$/)
      if (method === 'GET' && orderMatch) {
        const order = rzpOrders.get(decodeURIComponent(orderMatch[1] as string))
        return order ? json(order) : rzpError(400, 'The id provided does not exist')
      }
      const payMatch = path.match(/^\/v1\/payments\/([^/]+)(\/refund)?$/)
      if (payMatch) {
        const payment = rzpPayments.get(decodeURIComponent(payMatch[1] as string))
        if (!payment) return rzpError(400, 'The id provided does not exist')
        if (method === 'GET' && !payMatch[2]) return json(payment)
        if (method === 'POST' && payMatch[2]) {
          const b = (await req.json()) as { amount?: unknown; receipt?: unknown; notes?: unknown }
          const amount = b.amount === undefined ? payment.amount - payment.amount_refunded : b.amount
          if (payment.status === 'failed') return rzpError(400, 'The payment has not been captured')
          if (!Number.isInteger(amount) || (amount as number) <= 0)
            return rzpError(400, 'The amount must be an integer')
          if ((amount as number) > payment.amount - payment.amount_refunded) {
            return rzpError(400, 'The refund amount provided is greater than amount captured')
          }
          payment.amount_refunded += amount as number
          payment.refund_status = payment.amount_refunded === payment.amount ? 'full' : 'partial'
          if (payment.amount_refunded === payment.amount) payment.status = 'refunded'
          const refund = {
            id: rid('rfnd_'),
            entity: 'refund',
            amount,
            currency: payment.currency,
            payment_id: payment.id,
            receipt: typeof b.receipt === 'string' ? b.receipt : null,
            notes: b.notes ?? {},
            status: 'processed',
            speed_processed: 'normal',
            created_at: Math.floor(Date.now() / 1000),
          }
          await razorpayWebhook('refund.processed', {
            refund: { entity: refund },
            payment: { entity: payment },
          })
          return json(refund)
        }
      }
      return rzpError(404, 'The requested URL was not found on the server.')
    }

    // ---- Razorpay Standard Checkout (test) ----
    if (method === 'GET' && path === '/v1/checkout.js') {
      return new Response(checkoutScript(opts.origin), {
        headers: { 'content-type': 'text/javascript; charset=utf-8', 'access-control-allow-origin': '*' },
      })
    }
    if (method === 'GET' && path === '/test-checkout') {
      const order = rzpOrders.get(url.searchParams.get('order_id') ?? '')
      if (!order || url.searchParams.get('key_id') !== opts.razorpay.keyId) {
        return html('<h1>TEST checkout: unknown order or key</h1>')
      }
      return html(razorpayPage(order))
    }
    if (method === 'POST' && path === '/test-checkout/pay') {
      const b = (await req.json()) as { order_id?: string; outcome?: string; method?: string }
      const outcome = b.outcome === 'succeed' ? 'succeed' : 'fail'
      return json(await razorpayPay(String(b.order_id ?? ''), outcome, String(b.method ?? 'upi')))
    }

    // ---- PayPal REST API ----
    if (method === 'POST' && path === '/v1/oauth2/token') {
      if (!basic(req, opts.paypal.clientId, opts.paypal.clientSecret)) {
        return json({ error: 'invalid_client', error_description: 'Client Authentication failed' }, 401)
      }
      if ((await req.text()) !== 'grant_type=client_credentials') {
        return json({ error: 'unsupported_grant_type' }, 400)
      }
      const token = rid('A21AA')
      ppTokens.add(token)
      return json({
        scope: 'https://uri.paypal.com/services/payments/payment',
        access_token: token,
        token_type: 'Bearer',
        app_id: 'APP-SANDBOX',
        expires_in: 32400,
        nonce: rid(''),
      })
    }
    if (path.startsWith('/v2/') || path.startsWith('/v1/notifications/')) {
      const bearer = req.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''
      if (!ppTokens.has(bearer))
        return ppError(
          401,
          'AUTHENTICATION_FAILURE',
          'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
        )
      const requestId = req.headers.get('paypal-request-id')
      const key = requestId ? `${path}|${requestId}` : null
      // PayPal answers a repeated PayPal-Request-Id with the original request's result, also when
      // the repeat arrives while the original is still being processed.
      if (key) await ppInFlight.get(key)
      const replay = key ? ppIdempotent.get(key) : undefined
      if (replay)
        return new Response(replay, { status: 200, headers: { 'content-type': 'application/json' } })
      if (key) {
        let settle = () => {}
        ppInFlight.set(key, new Promise<void>((resolve) => (settle = resolve)))
        try {
          return await paypalRest(req, path, method, (res, body) => {
            if (res.status < 300) ppIdempotent.set(key, JSON.stringify(body))
            return res
          })
        } finally {
          ppInFlight.delete(key)
          settle()
        }
      }
      return paypalRest(req, path, method, (res) => res)
    }

    // ---- PayPal approval (test) ----
    if (method === 'GET' && path === '/checkoutnow') {
      const order = ppOrders.get(url.searchParams.get('token') ?? '')
      if (!order) return html('<h1>TEST PayPal: unknown order</h1>')
      return html(paypalPage(order))
    }
    if (method === 'POST' && path === '/checkoutnow/decide') {
      const form = await req.formData()
      const order = ppOrders.get(String(form.get('token') ?? ''))
      if (!order) return html('<h1>TEST PayPal: unknown order</h1>')
      const choice = String(form.get('choice'))
      if (choice === 'cancel') {
        return Response.redirect(
          `${order.cancelUrl}${order.cancelUrl.includes('?') ? '&' : '?'}token=${order.id}`,
          303,
        )
      }
      if (order.status === 'PAYER_ACTION_REQUIRED') order.status = 'APPROVED'
      order.declineCapture = choice === 'decline'
      return Response.redirect(
        `${order.returnUrl}${order.returnUrl.includes('?') ? '&' : '?'}token=${order.id}&PayerID=TESTPAYER01`,
        303,
      )
    }
    return new Response('not found', { status: 404 })
  }

  return {
    fetch: handle,
    /** Pays a Razorpay order as the test page's buttons do (tests drive it directly). */
    razorpayPay,
    /** Pays a payment link as its hosted page's button does: the callback URL to open, or an error. */
    payLink: paymentLinks.pay,
    /** Approves a PayPal order as the approval page's button does. */
    paypalApprove(orderId: string, declineCapture = false) {
      const order = ppOrders.get(orderId)
      if (order && order.status === 'PAYER_ACTION_REQUIRED') order.status = 'APPROVED'
      if (order) order.declineCapture = declineCapture
      return order !== undefined
    },
    /** Signs a Razorpay webhook body with the test webhook secret. */
    signRazorpayWebhook: (body: string) => hmacHex(opts.razorpay.webhookSecret, body),
  }
}

function page(title: string, body: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title>
<style>body{font:16px system-ui,sans-serif;margin:0;background:#fff8e1;color:#222}
.banner{background:#b71c1c;color:#fff;padding:.6rem 1rem;font-weight:700;letter-spacing:.04em}
main{padding:1.2rem;max-width:28rem;margin:auto}button{font:inherit;padding:.7rem 1.2rem;margin:.3rem .3rem 0 0;border-radius:6px;border:1px solid #333;cursor:pointer}
.ok{background:#2e7d32;color:#fff}.ko{background:#c62828;color:#fff}</style></head>
<body><div class="banner" role="alert">TEST MODE — local test payment provider. No real money moves.</div><main>${body}</main></body></html>`
}

function razorpayPage(order: RzpOrder) {
  const amount = `${order.currency} ${value2(order.amount)}`
  return page(
    'TEST payment',
    `<h1>TEST payment</h1><p>Order <b>${esc(order.receipt ?? order.id)}</b> — <b>${esc(amount)}</b></p>
<p><label>Method <select id="method"><option value="upi">UPI</option><option value="card">Card</option><option value="netbanking">Netbanking</option></select></label></p>
<button class="ok" data-outcome="succeed">Succeed</button><button class="ko" data-outcome="fail">Fail</button><button data-outcome="abandon">Abandon</button>
<p id="state" aria-live="polite"></p>
<script>
const orderId = ${JSON.stringify(order.id)};
const tell = (msg) => window.parent.postMessage(Object.assign({ source: 'payment-sandbox' }, msg), '*');
for (const b of document.querySelectorAll('button')) b.addEventListener('click', async () => {
  const outcome = b.dataset.outcome;
  if (outcome === 'abandon') return tell({ type: 'dismiss' });
  document.getElementById('state').textContent = 'Processing…';
  const res = await fetch('/test-checkout/pay', { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order_id: orderId, outcome, method: document.getElementById('method').value }) });
  const data = await res.json();
  tell(data.error ? { type: 'failed', error: data.error } : { type: 'success', response: data });
});
</script>`,
  )
}

function paypalPage(order: PpOrder) {
  const unit = order.purchase_units[0]
  const amount = unit ? `${unit.amount.currency_code} ${unit.amount.value}` : ''
  return page(
    'TEST PayPal approval',
    `<h1>TEST PayPal approval</h1><p>Order <b>${esc(unit?.invoice_id ?? order.id)}</b> — <b>${esc(amount)}</b></p>
<form method="post" action="/checkoutnow/decide"><input type="hidden" name="token" value="${esc(order.id)}">
<button class="ok" name="choice" value="approve">Succeed</button><button class="ko" name="choice" value="decline">Fail</button><button name="choice" value="cancel">Abandon</button></form>`,
  )
}

/** A Razorpay-compatible checkout.js: `new Razorpay(options).open()`, `.on('payment.failed', fn)`. */
function checkoutScript(origin: string) {
  return `(function () {
  var ORIGIN = ${JSON.stringify(origin)};
  function Razorpay(options) { this.options = options || {}; this.handlers = {}; }
  Razorpay.prototype.on = function (event, fn) { (this.handlers[event] = this.handlers[event] || []).push(fn); return this; };
  Razorpay.prototype.close = function () {
    if (this.overlay) { this.overlay.remove(); this.overlay = null; }
    if (this.listener) { window.removeEventListener('message', this.listener); this.listener = null; }
  };
  Razorpay.prototype.open = function () {
    var self = this, o = this.options;
    var overlay = document.createElement('div');
    overlay.setAttribute('data-payment-sandbox', '');
    overlay.style.cssText = 'position:fixed;inset:0;background:rgba(0,0,0,.55);z-index:2147483647;display:flex;align-items:center;justify-content:center';
    var frame = document.createElement('iframe');
    frame.title = 'TEST payment';
    frame.src = ORIGIN + '/test-checkout?order_id=' + encodeURIComponent(o.order_id) + '&key_id=' + encodeURIComponent(o.key);
    frame.style.cssText = 'width:min(30rem,95vw);height:min(34rem,90vh);border:0;border-radius:8px;background:#fff';
    overlay.appendChild(frame);
    document.body.appendChild(overlay);
    this.overlay = overlay;
    this.listener = function (e) {
      if (e.origin !== ORIGIN || !e.data || e.data.source !== 'payment-sandbox') return;
      self.close();
      if (e.data.type === 'success' && o.handler) o.handler(e.data.response);
      else if (e.data.type === 'failed') (self.handlers['payment.failed'] || []).forEach(function (fn) { fn({ error: e.data.error }); });
      else if (e.data.type === 'dismiss' && o.modal && o.modal.ondismiss) o.modal.ondismiss();
    };
    window.addEventListener('message', this.listener);
  };
  window.Razorpay = Razorpay;
})();
`
}
