/**
 * Provider webhooks, mounted under /api/payment:
 *   POST /razorpay/webhook   X-Razorpay-Signature = HMAC-SHA256 of the raw body (webhook secret)
 *   POST /paypal/webhook     verified through PayPal's verify-webhook-signature endpoint
 * A body is verified as the bytes received (never re-serialised), within WEBHOOK_MAX_BYTES. Each
 * delivery is acted on once: `webhook_events (provider, event_id)` remembers what was handled.
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, ok } from '../../platform/http'
import { sha256Hex } from '../auth/crypto'
import { magentoDate } from '../user/repo'
import { paypalConfig, razorpayConfig } from './config'
import { settleLinkPayment } from './payment-link'
import { paypalMinor, paypalWebhookGenuine } from './paypal'
import { later, viaProvider } from './provider-call'
import { capturedFigures, capturedOrderPayment, razorpayWebhookSignatureValid } from './razorpay'
import { providerRefundProcessed } from './refund'
import { settleFailed, settlePaid } from './settle'

/** The largest webhook body read. */
const WEBHOOK_MAX_BYTES = 256 * 1024

export const webhookRoutes = new Hono<AppEnv>()

/** Reads a webhook body as raw bytes within WEBHOOK_MAX_BYTES (a 413 otherwise). */
export async function rawWebhookBody(c: Context<AppEnv>): Promise<Uint8Array> {
  const declared = Number(c.req.header('content-length') ?? '0')
  if (declared > WEBHOOK_MAX_BYTES) fail(413, `Webhook bodies are limited to ${WEBHOOK_MAX_BYTES} bytes.`)
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  if (bytes.byteLength > WEBHOOK_MAX_BYTES)
    fail(413, `Webhook bodies are limited to ${WEBHOOK_MAX_BYTES} bytes.`)
  return bytes
}

export async function seen(db: D1Database, provider: string, eventId: string) {
  const row = await db
    .prepare('SELECT 1 AS hit FROM webhook_events WHERE provider = ? AND event_id = ?')
    .bind(provider, eventId)
    .first()
  return row !== null
}

export async function remember(db: D1Database, provider: string, eventId: string, kind: string, now: number) {
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
  /** How the shopper paid (Razorpay's payment entity: upi, card, netbanking, wallet, emi, paylater). */
  method: z.string().max(40).optional(),
  error_description: z.string().nullable().optional(),
  receipt: z.string().max(100).nullable().optional(),
})
const RazorpayEvent = z.object({
  event: z.string().min(1).max(100),
  payload: z.object({
    payment_link: z.object({ entity: z.object({ id: z.string().min(1).max(100) }) }).optional(),
    payment: z.object({ entity: RazorpayEntity }).optional(),
    refund: z.object({ entity: RazorpayEntity }).optional(),
  }),
})

webhookRoutes.post('/razorpay/webhook', async (c) => {
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
        capturedOrderPayment(payment, payment.order_id, `webhook:${parsed.event}`),
        now,
        later(c),
      )
      outcome = settled.outcome
    }
  } else if (parsed.event === 'payment_link.paid' && parsed.payload.payment_link && payment) {
    // A payment link (the prepaid switch): settled against the link, which is our provider order.
    const settled = await settleLinkPayment(
      c.env,
      c.var.config,
      {
        linkId: parsed.payload.payment_link.entity.id,
        ...capturedFigures(payment),
        via: 'webhook:payment_link.paid',
      },
      now,
      later(c),
    )
    outcome = settled.outcome
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
        requestRef: r.receipt,
      },
      now,
    )
  }
  await remember(db, 'razorpay', eventId, parsed.event, now)
  return ok(c, { handled: outcome !== 'ignored', outcome })
})

const PayPalEvent = z.object({
  id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  resource: z
    .object({
      id: z.string().max(100),
      status: z.string().optional(),
      amount: z.object({ currency_code: z.string(), value: z.string() }).optional(),
      custom_id: z.string().max(127).optional(),
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

webhookRoutes.post('/paypal/webhook', async (c) => {
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
          requestRef: r.custom_id,
        },
        now,
      )
    }
  }
  await remember(db, 'paypal', event.id, event.event_type, now)
  return ok(c, { handled: outcome !== 'ignored', outcome })
})
