/**
 * /api/payment:
 *   POST /start              {orderNumber, accessKey?} → what the browser needs to pay (Razorpay
 *                            Standard Checkout options, or the PayPal approval URL)
 *   POST /order              {orderNumber, accessKey?} → the order as its page shows it
 *   POST /razorpay/verify    {orderNumber, razorpay_payment_id, razorpay_signature} → the order's state
 *   POST /razorpay/webhook   Razorpay webhooks (X-Razorpay-Signature over the raw body)
 *   POST /paypal/capture     {orderNumber, accessKey?} → captures the approved PayPal order
 *   POST /paypal/webhook     PayPal webhooks (verified through PayPal's verification endpoint)
 * start, order and capture need the order's customer token, its guest access key (in the body) or
 * its order link (x-order-link header). Verify needs no session: only a signature made with our
 * key secret over the provider order WE stored for that order counts.
 */
import { ORDER_STATUS_LABELS, type OrderStatus, PAYABLE_STATUSES } from '@shared/config/order-status'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import { documentsOf } from '../../documents/issue'
import type { AppEnv } from '../../platform/env'
import { OutboundError } from '../../platform/fetch'
import { fail, jsonBody, noStore, ok } from '../../platform/http'
import { sha256Hex } from '../auth/crypto'
import { runAfterAnswer } from '../mail/deliver'
import { withLineImages } from '../order/line-images'
import type { OrderRow } from '../order/repo'
import { magentoDate } from '../user/repo'
import { openOrder } from './access'
import { paypalConfig, razorpayConfig } from './config'
import { capturePayPalOrder, paypalMinor, paypalWebhookGenuine } from './paypal'
import {
  fetchRazorpayPayment,
  ProviderError,
  razorpayPaymentSignatureValid,
  razorpayWebhookSignatureValid,
} from './razorpay'
import { providerRefundProcessed } from './refund'
import { paymentsOf } from './repo'
import { type Later, settleFailed, settlePaid } from './settle'
import { providerOf, startPayment } from './start'

export const paymentRoutes = new Hono<AppEnv>()
paymentRoutes.use('*', noStore)

/** The largest payment call body read (ids and a signature); webhooks get WEBHOOK_MAX_BYTES. */
const MAX_BODY_BYTES = 4 * 1024
const WEBHOOK_MAX_BYTES = 256 * 1024

const later =
  (c: Context<AppEnv>): Later =>
  (work, label) =>
    runAfterAnswer(c, work, label)

const OrderNumber = z
  .string({ error: 'orderNumber is required' })
  .regex(/^[0-9]{1,18}$/, 'orderNumber must be the order number (digits)')
const AccessKey = z.string().max(200, 'accessKey must be at most 200 characters').optional()
const OrderRef = z.object({ orderNumber: OrderNumber, accessKey: AccessKey })

const ProviderId = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, `${name} must be 1 to 64 letters, digits, _ or -`)

const VerifyBody = z.object({
  orderNumber: OrderNumber,
  razorpay_payment_id: ProviderId('razorpay_payment_id'),
  // Sent by the checkout, never trusted: the signature is checked against the order id we stored.
  razorpay_order_id: z.string().max(100).optional(),
  razorpay_signature: z
    .string({ error: 'razorpay_signature is required' })
    .regex(/^[0-9a-f]{64}$/, 'razorpay_signature must be 64 hex digits'),
})

/** A provider that failed to answer or refused: 502, nothing charged or changed. */
async function viaProvider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ProviderError || err instanceof OutboundError) {
      console.error(JSON.stringify({ msg: 'payment provider call failed', err: err.message }))
      return fail(
        502,
        `The payment provider could not complete the request (${err.message.slice(0, 120)}). Please try again.`,
      )
    }
    throw err
  }
}

/** The carrier and tracking number of each time the order was shipped (newest last). */
async function shipmentsOf(db: D1Database, orderId: string) {
  const { results } = await db
    .prepare(
      "SELECT detail, created_at FROM order_events WHERE client_order_id = ? AND kind = 'status' AND to_status = 'shipped' ORDER BY id",
    )
    .bind(orderId)
    .all<{ detail: string; created_at: string }>()
  return results.map((r) => {
    const detail = JSON.parse(r.detail) as { carrier?: unknown; tracking_number?: unknown }
    return {
      carrier: typeof detail.carrier === 'string' ? detail.carrier : '',
      trackingNumber: typeof detail.tracking_number === 'string' ? detail.tracking_number : '',
      shippedAt: r.created_at,
    }
  })
}

/** What an order page and the confirmation show about an order. */
async function orderView(db: D1Database, row: OrderRow) {
  const doc = JSON.parse(row.doc) as {
    items?: {
      name?: string
      sku?: string
      qty_ordered?: number
      row_total_incl_tax?: number
      options?: unknown
    }[]
    created_at?: string
    payment?: { method?: string }
    extension_attributes?: {
      shipping_assignments?: { shipping?: { address?: Record<string, unknown> | null } }[]
    }
  }
  const status = row.status as OrderStatus
  const address = doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address ?? null
  return {
    orderNumber: row.increment_id,
    status,
    statusLabel: ORDER_STATUS_LABELS[status] ?? status,
    paymentState: row.payment_state,
    payable:
      (PAYABLE_STATUSES as readonly string[]).includes(status) &&
      (row.expires_at === null || row.expires_at > Date.now()) &&
      (row.grand_total_minor ?? 0) > 0,
    provider: providerOf(row),
    currency: row.currency,
    grandTotalMinor: row.grand_total_minor,
    paidMinor: row.paid_minor,
    refundedMinor: row.refunded_minor,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    paymentMethod: doc.payment?.method ?? null,
    // Where it goes: the shopper's own address, shown only to whoever may open the order.
    shippingAddress: address
      ? Object.fromEntries(
          ['firstname', 'lastname', 'street', 'city', 'region', 'postcode', 'country_id', 'telephone'].map(
            (k) => [k, address[k] ?? null],
          ),
        )
      : null,
    items: await withLineImages(
      db,
      row.client_order_id,
      (doc.items ?? []).map((it) => ({
        name: it.name ?? it.sku ?? '',
        sku: it.sku ?? '',
        qty: it.qty_ordered ?? 1,
        rowTotal: it.row_total_incl_tax ?? null,
        options: Array.isArray(it.options) ? it.options : [],
      })),
    ),
    shipments: await shipmentsOf(db, row.client_order_id),
    // Its tax invoice and credit notes, fetched one by one through /api/documents/get.
    documents: (await documentsOf(db, row.client_order_id)).map((d) => ({
      kind: d.kind,
      number: d.number,
      issuedOn: d.issued_on,
    })),
  }
}

paymentRoutes.post(
  '/start',
  jsonBody(OrderRef, { what: 'payment start', maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const { orderNumber, accessKey } = c.req.valid('json')
    const order = await openOrder(c, orderNumber, accessKey)
    const answer = await viaProvider(() => startPayment(c.env, c.var.config, order, Date.now()))
    return ok(c, answer)
  },
)

paymentRoutes.post('/order', jsonBody(OrderRef, { what: 'order', maxBytes: MAX_BODY_BYTES }), async (c) => {
  const { orderNumber, accessKey } = c.req.valid('json')
  return ok(c, await orderView(c.env.DB, await openOrder(c, orderNumber, accessKey)))
})

paymentRoutes.post(
  '/razorpay/verify',
  jsonBody(VerifyBody, { what: 'payment verification', maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const body = c.req.valid('json')
    const cfg = razorpayConfig(c.env)
    if (!cfg) fail(409, 'Card, UPI and netbanking payments are not configured on this store.')
    const order = await c.env.DB.prepare('SELECT * FROM orders WHERE increment_id = ?')
      .bind(body.orderNumber)
      .first<OrderRow>()
    const ours = order
      ? (await paymentsOf(c.env.DB, order.client_order_id)).filter((p) => p.provider === 'razorpay')
      : []
    let matched = null
    for (const p of ours) {
      if (
        await razorpayPaymentSignatureValid(
          cfg.keySecret,
          p.provider_order_id,
          body.razorpay_payment_id,
          body.razorpay_signature,
        )
      ) {
        matched = p
        break
      }
    }
    if (!order || !matched) {
      fail(
        400,
        'The payment could not be verified: its signature does not match this order. Nothing was marked paid.',
      )
    }
    const payment = await viaProvider(() => fetchRazorpayPayment(cfg, body.razorpay_payment_id))
    if (payment.order_id !== matched.provider_order_id) {
      fail(
        400,
        'The payment could not be verified: it belongs to another payment order. Nothing was marked paid.',
      )
    }
    const now = Date.now()
    let outcome: string
    // A captured payment, or one already given back (refunded): settlePaid knows which it was.
    if (payment.status === 'captured' || payment.status === 'refunded') {
      const settled = await settlePaid(
        c.env,
        c.var.config,
        {
          provider: 'razorpay',
          providerOrderId: matched.provider_order_id,
          paymentId: payment.id,
          amountMinor: payment.amount,
          currency: payment.currency,
          via: 'callback',
        },
        now,
        later(c),
      )
      outcome = settled.outcome
    } else if (payment.status === 'failed') {
      await settleFailed(
        c.env,
        c.var.config,
        {
          provider: 'razorpay',
          providerOrderId: matched.provider_order_id,
          paymentId: payment.id,
          reason: payment.error_description ?? 'payment failed',
          via: 'callback',
        },
        now,
        later(c),
      )
      outcome = 'failed'
    } else {
      // Authorised but not yet captured: the payment.captured webhook settles it.
      outcome = 'processing'
    }
    const current = (await c.env.DB.prepare('SELECT * FROM orders WHERE increment_id = ?')
      .bind(body.orderNumber)
      .first<OrderRow>()) as OrderRow
    return ok(c, { outcome, status: current.status, paymentState: current.payment_state })
  },
)

/** Reads a webhook body as raw bytes within WEBHOOK_MAX_BYTES (a 413 otherwise). */
async function rawWebhookBody(c: Context<AppEnv>): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > WEBHOOK_MAX_BYTES) fail(413, `Webhook bodies are limited to ${WEBHOOK_MAX_BYTES} bytes.`)
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  if (bytes.byteLength > WEBHOOK_MAX_BYTES)
    fail(413, `Webhook bodies are limited to ${WEBHOOK_MAX_BYTES} bytes.`)
  return bytes
}

async function seen(db: D1Database, provider: string, eventId: string) {
  const row = await db
    .prepare('SELECT 1 AS hit FROM webhook_events WHERE provider = ? AND event_id = ?')
    .bind(provider, eventId)
    .first()
  return row !== null
}

async function remember(db: D1Database, provider: string, eventId: string, kind: string, now: number) {
  await db
    .prepare(
      'INSERT INTO webhook_events (provider, event_id, kind, received_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    )
    .bind(provider, eventId, kind.slice(0, 100), magentoDate(now))
    .run()
}

const RazorpayEntity = z.object({
  id: z.string().min(1).max(100),
  order_id: z.string().max(100).nullable().optional(),
  payment_id: z.string().max(100).nullable().optional(),
  amount: z.number().int().nonnegative(),
  currency: z.string().min(3).max(3),
  status: z.string().optional(),
  error_description: z.string().nullable().optional(),
})
const RazorpayEvent = z.object({
  event: z.string().min(1).max(100),
  payload: z.object({
    payment: z.object({ entity: RazorpayEntity }).optional(),
    refund: z.object({ entity: RazorpayEntity }).optional(),
  }),
})

paymentRoutes.post('/razorpay/webhook', async (c) => {
  const cfg = razorpayConfig(c.env)
  if (!cfg?.webhookSecret) fail(404, 'Razorpay webhooks are not configured on this store.')
  const raw = await rawWebhookBody(c)
  const signature = c.req.header('x-razorpay-signature') ?? null
  if (!(await razorpayWebhookSignatureValid(cfg.webhookSecret, raw, signature))) {
    fail(401, 'Invalid webhook: the X-Razorpay-Signature header does not match the body.')
  }
  let parsed: z.infer<typeof RazorpayEvent>
  try {
    const result = RazorpayEvent.safeParse(JSON.parse(new TextDecoder().decode(raw)))
    if (!result.success) return ok(c, { handled: false, reason: 'not an event this shop acts on' })
    parsed = result.data
  } catch {
    return fail(400, 'Invalid webhook: malformed JSON')
  }
  const eventId =
    c.req.header('x-razorpay-event-id')?.slice(0, 100) || (await sha256Hex(new TextDecoder().decode(raw)))
  const db = c.env.DB
  if (await seen(db, 'razorpay', eventId)) return ok(c, { handled: false, duplicate: true })
  const now = Date.now()
  const payment = parsed.payload.payment?.entity
  let outcome = 'ignored'
  if ((parsed.event === 'payment.captured' || parsed.event === 'order.paid') && payment?.order_id) {
    if (payment.status === undefined || payment.status === 'captured') {
      const settled = await settlePaid(
        c.env,
        c.var.config,
        {
          provider: 'razorpay',
          providerOrderId: payment.order_id,
          paymentId: payment.id,
          amountMinor: payment.amount,
          currency: payment.currency,
          via: `webhook:${parsed.event}`,
        },
        now,
        later(c),
      )
      outcome = settled.outcome
    }
  } else if (parsed.event === 'payment.failed' && payment?.order_id) {
    const failed = await settleFailed(
      c.env,
      c.var.config,
      {
        provider: 'razorpay',
        providerOrderId: payment.order_id,
        paymentId: payment.id,
        reason: payment.error_description ?? 'payment failed',
        via: 'webhook:payment.failed',
      },
      now,
      later(c),
    )
    outcome = failed.changed ? 'failed' : 'unchanged'
  } else if (parsed.event === 'refund.processed' && parsed.payload.refund) {
    const r = parsed.payload.refund.entity
    outcome = await providerRefundProcessed(
      c.env,
      {
        provider: 'razorpay',
        providerRefundId: r.id,
        paymentId: r.payment_id ?? '',
        amountMinor: r.amount,
        currency: r.currency,
      },
      now,
    )
  }
  await remember(db, 'razorpay', eventId, parsed.event, now)
  return ok(c, { handled: outcome !== 'ignored', outcome })
})

paymentRoutes.post(
  '/paypal/capture',
  jsonBody(OrderRef, { what: 'payment capture', maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const { orderNumber, accessKey } = c.req.valid('json')
    const order = await openOrder(c, orderNumber, accessKey)
    const cfg = paypalConfig(c.env)
    if (!cfg) fail(409, 'PayPal payments are not configured on this store.')
    const pay = (await paymentsOf(c.env.DB, order.client_order_id)).find(
      (p) => p.provider === 'paypal' && (p.status === 'created' || p.status === 'failed'),
    )
    if (!pay) {
      return ok(c, {
        outcome: order.payment_state === 'paid' ? 'already-paid' : 'nothing-to-capture',
        status: order.status,
        paymentState: order.payment_state,
      })
    }
    const captured = await viaProvider(() => capturePayPalOrder(cfg, pay.provider_order_id))
    const capture = captured.purchase_units?.[0]?.payments?.captures?.[0]
    const now = Date.now()
    let outcome = 'processing'
    if (captured.status === 'COMPLETED' && capture?.status === 'COMPLETED' && capture.amount) {
      const settled = await settlePaid(
        c.env,
        c.var.config,
        {
          provider: 'paypal',
          providerOrderId: pay.provider_order_id,
          paymentId: capture.id,
          amountMinor: paypalMinor(capture.amount.value) ?? -1,
          currency: capture.amount.currency_code,
          via: 'capture',
        },
        now,
        later(c),
      )
      outcome = settled.outcome
    } else if (capture && (capture.status === 'DECLINED' || capture.status === 'FAILED')) {
      await settleFailed(
        c.env,
        c.var.config,
        {
          provider: 'paypal',
          providerOrderId: pay.provider_order_id,
          paymentId: capture.id,
          reason: `capture ${capture.status}`,
          via: 'capture',
        },
        now,
        later(c),
      )
      outcome = 'failed'
    }
    const current = (await c.env.DB.prepare('SELECT * FROM orders WHERE client_order_id = ?')
      .bind(order.client_order_id)
      .first<OrderRow>()) as OrderRow
    return ok(c, { outcome, status: current.status, paymentState: current.payment_state })
  },
)

const PayPalEvent = z.object({
  id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  resource: z
    .object({
      id: z.string().max(100),
      status: z.string().optional(),
      amount: z.object({ currency_code: z.string(), value: z.string() }).optional(),
      supplementary_data: z
        .object({
          related_ids: z
            .object({ order_id: z.string().optional(), capture_id: z.string().optional() })
            .optional(),
        })
        .optional(),
      links: z.array(z.object({ href: z.string(), rel: z.string() })).optional(),
    })
    .passthrough(),
})

paymentRoutes.post('/paypal/webhook', async (c) => {
  const cfg = paypalConfig(c.env)
  if (!cfg?.webhookId) fail(404, 'PayPal webhooks are not configured on this store.')
  const raw = new TextDecoder().decode(await rawWebhookBody(c))
  const genuine = await viaProvider(() => paypalWebhookGenuine(cfg, c.req.raw.headers, raw))
  if (!genuine) fail(401, 'Invalid webhook: PayPal did not confirm its signature.')
  const result = PayPalEvent.safeParse(JSON.parse(raw))
  if (!result.success) return ok(c, { handled: false, reason: 'not an event this shop acts on' })
  const event = result.data
  const db = c.env.DB
  if (await seen(db, 'paypal', event.id)) return ok(c, { handled: false, duplicate: true })
  const now = Date.now()
  const r = event.resource
  const paypalOrderId = r.supplementary_data?.related_ids?.order_id
  let outcome = 'ignored'
  if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED' && paypalOrderId && r.amount) {
    const settled = await settlePaid(
      c.env,
      c.var.config,
      {
        provider: 'paypal',
        providerOrderId: paypalOrderId,
        paymentId: r.id,
        amountMinor: paypalMinor(r.amount.value) ?? -1,
        currency: r.amount.currency_code,
        via: `webhook:${event.event_type}`,
      },
      now,
      later(c),
    )
    outcome = settled.outcome
  } else if (
    (event.event_type === 'PAYMENT.CAPTURE.DENIED' || event.event_type === 'PAYMENT.CAPTURE.DECLINED') &&
    paypalOrderId
  ) {
    const failed = await settleFailed(
      c.env,
      c.var.config,
      {
        provider: 'paypal',
        providerOrderId: paypalOrderId,
        paymentId: r.id,
        reason: event.event_type,
        via: `webhook:${event.event_type}`,
      },
      now,
      later(c),
    )
    outcome = failed.changed ? 'failed' : 'unchanged'
  } else if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' && r.amount) {
    const captureId =
      r.links
        ?.find((l) => l.rel === 'up')
        ?.href.split('/')
        .pop() ?? ''
    const minor = paypalMinor(r.amount.value)
    if (captureId && minor) {
      outcome = await providerRefundProcessed(
        c.env,
        {
          provider: 'paypal',
          providerRefundId: r.id,
          paymentId: captureId,
          amountMinor: minor,
          currency: r.amount.currency_code,
        },
        now,
      )
    }
  }
  await remember(db, 'paypal', event.id, event.event_type, now)
  return ok(c, { handled: outcome !== 'ignored', outcome })
})
