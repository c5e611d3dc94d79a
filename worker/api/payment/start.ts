/**
 * Starting (or restarting) the payment of an order: the provider order is opened once per order,
 * amount and currency fixed from the order's charge, and reused by every later attempt (pay-now
 * after a failure, a reload, a second tab), so one order never has two open provider orders for
 * the same charge. The answer is what the browser needs to open Razorpay Standard Checkout or to
 * send the shopper to PayPal's approval page; it never carries a secret.
 */
import { ORDER_STATUS_LABELS, type OrderStatus, PAYABLE_STATUSES } from '@shared/config/order-status'
import type { AppConfig } from '../../platform/env'
import { fail } from '../../platform/http'
import type { OrderRow } from '../order/repo'
import { PAYPAL_METHOD_CODE, paypalConfig, razorpayConfig } from './config'
import { createPayPalOrder } from './paypal'
import { createRazorpayOrder } from './razorpay'
import { insertPayment, type PaymentRow, type Provider, paymentsOf } from './repo'

type StartAnswer =
  | {
      provider: 'razorpay'
      orderNumber: string
      checkoutScript: string
      options: {
        key: string
        order_id: string
        amount: number
        currency: string
        name: string
        description: string
        prefill: { email: string }
      }
    }
  | { provider: 'paypal'; orderNumber: string; providerOrderId: string; approveUrl: string }

/** The provider that collects an order's payment, by its payment method. */
export function providerOf(order: OrderRow): Provider {
  return (order as OrderRow & { payment_method?: string }).payment_method === PAYPAL_METHOD_CODE
    ? 'paypal'
    : 'razorpay'
}

/**
 * Refuses (409) an order charged in a currency its payment method does not charge in this shop
 * (PAYMENT_CURRENCIES); `takes` words what the provider takes, from the list of those currencies.
 */
function assertChargedIn(config: AppConfig, order: OrderRow, takes: (currencies: string) => string) {
  const method = (order as OrderRow & { payment_method?: string }).payment_method ?? ''
  const currencies = config.PAYMENT_CURRENCIES[method] ?? []
  if (!currencies.includes(order.currency))
    fail(
      409,
      `Order ${order.increment_id} is charged in ${order.currency}; ${takes(currencies.join(' or '))}`,
    )
}

/** Refuses (409) an order that cannot be paid now, naming why. */
function assertPayable(order: OrderRow, now: number): number {
  const status = order.status as OrderStatus
  if (!(PAYABLE_STATUSES as readonly string[]).includes(status)) {
    const label = ORDER_STATUS_LABELS[status] ?? status
    fail(409, `Order ${order.increment_id} cannot be paid: its status is "${label}".`)
  }
  if (order.expires_at !== null && order.expires_at <= now) {
    fail(409, `Order ${order.increment_id} was not paid in time and has expired.`)
  }
  const amount = order.grand_total_minor ?? 0
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    fail(409, `Order ${order.increment_id} has nothing to pay online.`)
  }
  return amount
}

/** The provider order to reuse: opened for this very charge and neither paid nor flagged. */
function reusable(rows: PaymentRow[], provider: Provider, amount: number, currency: string) {
  return rows.find(
    (p) =>
      p.provider === provider &&
      p.amount_minor === amount &&
      p.currency === currency &&
      (p.status === 'created' || p.status === 'failed'),
  )
}

/**
 * The ledger's row of a provider order just opened: the order's charge (amount and currency), so
 * what the provider was asked for is what the order costs and what a capture is checked against.
 */
function recordProviderOrder(
  db: D1Database,
  order: OrderRow,
  provider: Provider,
  providerOrderId: string,
  amount: number,
  now: number,
) {
  return insertPayment(
    db,
    {
      provider,
      provider_order_id: providerOrderId,
      client_order_id: order.client_order_id,
      amount_minor: amount,
      currency: order.currency,
    },
    now,
  )
}

export async function startPayment(
  env: Env,
  config: AppConfig,
  order: OrderRow,
  now: number,
): Promise<StartAnswer> {
  const amount = assertPayable(order, now)
  const provider = providerOf(order)
  const existing = reusable(await paymentsOf(env.DB, order.client_order_id), provider, amount, order.currency)
  if (provider === 'razorpay') {
    const cfg = razorpayConfig(env)
    if (!cfg) fail(409, 'Card, UPI and netbanking payments are not configured on this store yet.')
    assertChargedIn(config, order, (currencies) => `Razorpay takes ${currencies} here.`)
    let providerOrderId = existing?.provider_order_id
    if (!providerOrderId) {
      const created = await createRazorpayOrder(cfg, {
        amountMinor: amount,
        currency: order.currency,
        receipt: order.increment_id,
        notes: { order_number: order.increment_id },
      })
      if (created.amount !== amount || created.currency !== order.currency) {
        fail(502, 'The payment provider opened the payment for a different amount; nothing was charged.')
      }
      providerOrderId = created.id
      await recordProviderOrder(env.DB, order, provider, providerOrderId, amount, now)
    }
    return {
      provider,
      orderNumber: order.increment_id,
      checkoutScript: cfg.checkoutScript,
      options: {
        key: cfg.keyId,
        order_id: providerOrderId,
        amount,
        currency: order.currency,
        name: config.STORE_NAME,
        description: `Order ${order.increment_id}`,
        prefill: { email: order.customer_email },
      },
    }
  }
  const cfg = paypalConfig(env)
  if (!cfg) fail(409, 'PayPal payments are not configured on this store yet.')
  assertChargedIn(config, order, (currencies) => `PayPal takes ${currencies}.`)
  const back = `${config.PUBLIC_ORIGIN}/order/${encodeURIComponent(order.increment_id)}`
  const created = await createPayPalOrder(cfg, {
    orderNumber: order.increment_id,
    clientOrderId: order.client_order_id,
    amountMinor: amount,
    currency: order.currency,
    returnUrl: `${back}?paypal=return`,
    cancelUrl: `${back}?paypal=cancel`,
    brandName: config.STORE_NAME,
  })
  if (!existing || existing.provider_order_id !== created.order.id)
    await recordProviderOrder(env.DB, order, provider, created.order.id, amount, now)
  return {
    provider,
    orderNumber: order.increment_id,
    providerOrderId: created.order.id,
    approveUrl: created.approveUrl,
  }
}
