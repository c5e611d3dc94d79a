/**
 * Which payment providers this shop can use and where they answer. A provider is on when its key
 * pair is set; its base URL defaults to the live service (PayPal: its sandbox until the operator
 * points it at https://api-m.paypal.com), and a local test provider is used by setting the base
 * URLs and test secrets to it. The production code path is the same either way.
 */

export interface RazorpayConfig {
  keyId: string
  keySecret: string
  webhookSecret: string | null
  apiBase: string
  checkoutScript: string
}

export interface PayPalConfig {
  clientId: string
  clientSecret: string
  webhookId: string | null
  apiBase: string
}

type PaymentEnv = Pick<
  Env,
  | 'RAZORPAY_KEY_ID'
  | 'RAZORPAY_KEY_SECRET'
  | 'RAZORPAY_WEBHOOK_SECRET'
  | 'RAZORPAY_API_BASE'
  | 'RAZORPAY_CHECKOUT_SCRIPT'
  | 'PAYPAL_CLIENT_ID'
  | 'PAYPAL_CLIENT_SECRET'
  | 'PAYPAL_WEBHOOK_ID'
  | 'PAYPAL_API_BASE'
>

const trimBase = (v: string | undefined, fallback: string) => (v?.trim() || fallback).replace(/\/+$/, '')

export function razorpayConfig(env: PaymentEnv): RazorpayConfig | null {
  if (!env.RAZORPAY_KEY_ID || !env.RAZORPAY_KEY_SECRET) return null
  return {
    keyId: env.RAZORPAY_KEY_ID,
    keySecret: env.RAZORPAY_KEY_SECRET,
    webhookSecret: env.RAZORPAY_WEBHOOK_SECRET || null,
    apiBase: trimBase(env.RAZORPAY_API_BASE, 'https://api.razorpay.com'),
    checkoutScript: env.RAZORPAY_CHECKOUT_SCRIPT?.trim() || 'https://checkout.razorpay.com/v1/checkout.js',
  }
}

export function paypalConfig(env: PaymentEnv): PayPalConfig | null {
  if (!env.PAYPAL_CLIENT_ID || !env.PAYPAL_CLIENT_SECRET) return null
  return {
    clientId: env.PAYPAL_CLIENT_ID,
    clientSecret: env.PAYPAL_CLIENT_SECRET,
    webhookId: env.PAYPAL_WEBHOOK_ID || null,
    apiBase: trimBase(env.PAYPAL_API_BASE, 'https://api-m.sandbox.paypal.com'),
  }
}

/** The payment method code that is paid through PayPal; every other online method uses Razorpay. */
export const PAYPAL_METHOD_CODE = 'paypal_standard'
