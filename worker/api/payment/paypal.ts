/**
 * PayPal over its REST API (no SDK): an OAuth 2.0 client-credentials token, Orders v2 (create with
 * intent CAPTURE → the shopper approves at PayPal → capture), refunds of a capture, and webhook
 * verification through PayPal's verify-webhook-signature endpoint. Amounts are decimal strings in
 * the currency's major unit ("12.50"); we keep integer minor units and convert at this edge only.
 * Create, capture and refund carry a PayPal-Request-Id, so a retried call is not done twice.
 */
import { fetchOutbound } from '../../platform/fetch'
import type { PayPalConfig } from './config'
import { ProviderError } from './razorpay'

const SERVICE = 'PayPal'

/** Minor units → PayPal's decimal string (both currencies PayPal charges here have 2 decimals). */
export function paypalValue(minor: number): string {
  return (minor / 100).toFixed(2)
}

/** PayPal's decimal string → minor units; null when it is not a plain 2-decimal amount. */
export function paypalMinor(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,12}(\.\d{1,2})?$/.test(value)) return null
  const [whole, frac = ''] = value.split('.')
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'))
}

interface Money {
  currency_code: string
  value: string
}

interface PayPalCapture {
  id: string
  status: string
  amount?: Money
  custom_id?: string
  invoice_id?: string
  supplementary_data?: { related_ids?: { order_id?: string } }
}

interface PayPalOrder {
  id: string
  status: string
  links?: { href: string; rel: string; method?: string }[]
  purchase_units?: { reference_id?: string; payments?: { captures?: PayPalCapture[] } }[]
}

async function accessToken(cfg: PayPalConfig): Promise<string> {
  const res = await fetchOutbound(SERVICE, `${cfg.apiBase}/v1/oauth2/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${btoa(`${cfg.clientId}:${cfg.clientSecret}`)}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  })
  const text = await res.text()
  if (!res.ok) throw new ProviderError(SERVICE, res.status, text)
  const token = (JSON.parse(text) as { access_token?: unknown }).access_token
  if (typeof token !== 'string') throw new ProviderError(SERVICE, res.status, 'no access_token')
  return token
}

async function call<T>(
  cfg: PayPalConfig,
  path: string,
  body: string,
  requestId?: string,
): Promise<{ status: number; json: T }> {
  const token = await accessToken(cfg)
  const res = await fetchOutbound(SERVICE, `${cfg.apiBase}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
      ...(requestId ? { 'paypal-request-id': requestId } : {}),
    },
    body,
  })
  const text = await res.text()
  if (!res.ok) throw new ProviderError(SERVICE, res.status, text)
  return { status: res.status, json: JSON.parse(text) as T }
}

/** Creates a PayPal order for our order; the answer's payer-action/approve link is where the shopper approves. */
export async function createPayPalOrder(
  cfg: PayPalConfig,
  input: {
    orderNumber: string
    clientOrderId: string
    amountMinor: number
    currency: string
    returnUrl: string
    cancelUrl: string
    brandName: string
  },
): Promise<{ order: PayPalOrder; approveUrl: string }> {
  const body = {
    intent: 'CAPTURE',
    purchase_units: [
      {
        reference_id: input.orderNumber,
        invoice_id: input.orderNumber,
        custom_id: input.clientOrderId,
        amount: { currency_code: input.currency, value: paypalValue(input.amountMinor) },
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          brand_name: input.brandName,
          user_action: 'PAY_NOW',
          shipping_preference: 'NO_SHIPPING',
          return_url: input.returnUrl,
          cancel_url: input.cancelUrl,
        },
      },
    },
  }
  const { json } = await call<PayPalOrder>(
    cfg,
    '/v2/checkout/orders',
    JSON.stringify(body),
    `create-${input.clientOrderId}`,
  )
  const link = json.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')
  if (!link) throw new ProviderError(SERVICE, 200, 'order without an approval link')
  return { order: json, approveUrl: link.href }
}

/** Captures an approved PayPal order; the capture in the answer says what was actually charged. */
export async function capturePayPalOrder(cfg: PayPalConfig, paypalOrderId: string): Promise<PayPalOrder> {
  const { json } = await call<PayPalOrder>(
    cfg,
    `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}/capture`,
    '{}',
    `capture-${paypalOrderId}`,
  )
  return json
}

export async function refundPayPalCapture(
  cfg: PayPalConfig,
  captureId: string,
  input: { amountMinor: number; currency: string; requestId: string; note: string },
): Promise<{ id: string; status: string }> {
  const { json } = await call<{ id: string; status: string }>(
    cfg,
    `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
    JSON.stringify({
      amount: { value: paypalValue(input.amountMinor), currency_code: input.currency },
      // Comes back on the refund (and its webhook), so a report can name the refund we asked for.
      custom_id: input.requestId.slice(0, 127),
      note_to_payer: input.note.slice(0, 255),
    }),
    input.requestId,
  )
  return json
}

/** The transmission headers PayPal sends with every webhook. */
const TRANSMISSION_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const

/**
 * The body of a verify-webhook-signature request: the five transmission headers, our webhook id,
 * and the event exactly as it arrived. The raw event text is spliced in, not parsed and
 * re-serialised, because PayPal checks its signature over the bytes it sent. Null when a header
 * is missing or the body is not a JSON object.
 */
export function paypalVerificationBody(headers: Headers, webhookId: string, rawBody: string): string | null {
  const fields: Record<string, string> = {}
  for (const [field, header] of Object.entries(TRANSMISSION_HEADERS)) {
    const value = headers.get(header)
    if (!value || value.length > 2000) return null
    fields[field] = value
  }
  try {
    const parsed = JSON.parse(rawBody) as unknown
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null
  } catch {
    return null
  }
  const head = JSON.stringify({ ...fields, webhook_id: webhookId })
  return `${head.slice(0, -1)},"webhook_event":${rawBody}}`
}

/** Asks PayPal whether a webhook delivery is genuine; only verification_status SUCCESS counts. */
export async function paypalWebhookGenuine(cfg: PayPalConfig, headers: Headers, rawBody: string) {
  if (!cfg.webhookId) return false
  const body = paypalVerificationBody(headers, cfg.webhookId, rawBody)
  if (!body) return false
  const { json } = await call<{ verification_status?: string }>(
    cfg,
    '/v1/notifications/verify-webhook-signature',
    body,
  )
  return json.verification_status === 'SUCCESS'
}
