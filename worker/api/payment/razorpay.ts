/**
 * Razorpay over its REST API (no SDK): Orders API (amount in paise, receipt = our order number),
 * payments read back by id, refunds; HTTP Basic auth with the key id and key secret. Two signature
 * checks, never mixed up: the checkout callback's `razorpay_signature` is HMAC-SHA256 of
 * `<order id>|<payment id>` keyed with the KEY SECRET, where the order id is the one we stored;
 * a webhook's `X-Razorpay-Signature` is HMAC-SHA256 of the raw body bytes keyed with the WEBHOOK
 * SECRET (the body is never re-serialised before the check).
 */
import { fetchOutbound } from '../../platform/fetch'
import type { RazorpayConfig } from './config'
import { hmacMatches } from './signature'

const SERVICE = 'Razorpay'

export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number,
    detail: string,
  ) {
    super(`${provider} answered ${status}: ${detail.slice(0, 300)}`)
    this.name = 'ProviderError'
  }
}

interface RazorpayOrder {
  id: string
  amount: number
  currency: string
  receipt: string | null
  status: string
}

interface RazorpayPayment {
  id: string
  order_id: string | null
  amount: number
  currency: string
  /** created | authorized | captured | refunded | failed */
  status: string
  method?: string
  error_description?: string | null
}

/**
 * What a captured Razorpay payment is settled with, in the settlement's names: its id, amount
 * (minor units, as Razorpay reports it), currency and method.
 */
export const capturedFigures = (p: Pick<RazorpayPayment, 'id' | 'amount' | 'currency' | 'method'>) => ({
  paymentId: p.id,
  amountMinor: p.amount,
  currency: p.currency,
  method: p.method,
})

/** A captured payment of the Razorpay order `providerOrderId`, reported through `via`, as it is settled. */
export const capturedOrderPayment = (
  p: Pick<RazorpayPayment, 'id' | 'amount' | 'currency' | 'method'>,
  providerOrderId: string,
  via: string,
) => ({ provider: 'razorpay' as const, providerOrderId, ...capturedFigures(p), via })

interface RazorpayRefund {
  id: string
  payment_id: string
  amount: number
  currency: string
  /** pending | processed | failed */
  status: string
}

/** One call of Razorpay's REST API (Basic auth); a refusal is a ProviderError. */
export async function razorpayCall<T>(
  cfg: RazorpayConfig,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetchOutbound(SERVICE, `${cfg.apiBase}/v1${path}`, {
    method,
    headers: {
      authorization: `Basic ${btoa(`${cfg.keyId}:${cfg.keySecret}`)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  if (!res.ok) throw new ProviderError(SERVICE, res.status, text)
  return JSON.parse(text) as T
}

/** Opens a Razorpay order for `amountMinor` paise; `receipt` is our order number (≤ 40 characters). */
export function createRazorpayOrder(
  cfg: RazorpayConfig,
  input: { amountMinor: number; currency: string; receipt: string; notes: Record<string, string> },
): Promise<RazorpayOrder> {
  return razorpayCall<RazorpayOrder>(cfg, 'POST', '/orders', {
    amount: input.amountMinor,
    currency: input.currency,
    receipt: input.receipt.slice(0, 40),
    notes: input.notes,
  })
}

export function fetchRazorpayPayment(cfg: RazorpayConfig, paymentId: string): Promise<RazorpayPayment> {
  return razorpayCall<RazorpayPayment>(cfg, 'GET', `/payments/${encodeURIComponent(paymentId)}`)
}

/** Refunds `amountMinor` paise of a captured payment. */
export function refundRazorpayPayment(
  cfg: RazorpayConfig,
  paymentId: string,
  input: { amountMinor: number; receipt: string; notes: Record<string, string> },
): Promise<RazorpayRefund> {
  return razorpayCall<RazorpayRefund>(cfg, 'POST', `/payments/${encodeURIComponent(paymentId)}/refund`, {
    amount: input.amountMinor,
    speed: 'normal',
    receipt: input.receipt.slice(0, 40),
    notes: input.notes,
  })
}

/** The checkout callback's signature, checked against the Razorpay order id WE stored. */
export function razorpayPaymentSignatureValid(
  keySecret: string,
  storedOrderId: string,
  paymentId: string,
  signature: string,
): Promise<boolean> {
  return hmacMatches(keySecret, `${storedOrderId}|${paymentId}`, signature)
}

/** A webhook's `X-Razorpay-Signature`, checked against the body exactly as it arrived. */
export function razorpayWebhookSignatureValid(
  webhookSecret: string,
  rawBody: Uint8Array,
  signature: string | null,
): Promise<boolean> {
  return hmacMatches(webhookSecret, rawBody, signature)
}
