/**
 * The shopper coming back from the provider: the Razorpay checkout's success callback (verified
 * against the provider order WE stored for the order, then read back from Razorpay) and the
 * capture of an approved PayPal order. Either settles the payment with the amount and currency the
 * provider reports; the answer is the order's state as it is now.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import { fail } from '../../platform/http'
import type { OrderRow } from '../order/repo'
import { paypalConfig, razorpayConfig } from './config'
import { capturePayPalOrder, paypalMinor } from './paypal'
import { later, viaProvider } from './provider-call'
import { capturedOrderPayment, fetchRazorpayPayment, razorpayPaymentSignatureValid } from './razorpay'
import { paymentsOf } from './repo'
import { settleFailed, settlePaid } from './settle'

interface RazorpayCallback {
  orderNumber: string
  razorpay_payment_id: string
  razorpay_signature: string
}

const orderByNumber = (db: D1Database, orderNumber: string) =>
  db.prepare('SELECT * FROM orders WHERE increment_id = ?').bind(orderNumber).first<OrderRow>()

/** POST /razorpay/verify: only a signature over a provider order we opened for this order counts. */
export async function verifyRazorpayCallback(c: Context<AppEnv>, body: RazorpayCallback) {
  const cfg = razorpayConfig(c.env)
  if (!cfg) fail(409, 'Card, UPI and netbanking payments are not configured on this store.')
  const order = await orderByNumber(c.env.DB, body.orderNumber)
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
      capturedOrderPayment(payment, matched.provider_order_id, 'callback'),
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
  const current = (await orderByNumber(c.env.DB, body.orderNumber)) as OrderRow
  return { outcome, status: current.status, paymentState: current.payment_state }
}

/** POST /paypal/capture: captures the order's approved PayPal order (once; PayPal says what was charged). */
export async function capturePayPal(c: Context<AppEnv>, order: OrderRow) {
  const cfg = paypalConfig(c.env)
  if (!cfg) fail(409, 'PayPal payments are not configured on this store.')
  const pay = (await paymentsOf(c.env.DB, order.client_order_id)).find(
    (p) => p.provider === 'paypal' && (p.status === 'created' || p.status === 'failed'),
  )
  if (!pay) {
    return {
      outcome: order.payment_state === 'paid' ? 'already-paid' : 'nothing-to-capture',
      status: order.status,
      paymentState: order.payment_state,
    }
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
  return { outcome, status: current.status, paymentState: current.payment_state }
}
