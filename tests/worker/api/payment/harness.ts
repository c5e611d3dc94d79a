// The payment tests' harness: the worker app with payment keys set, its outbound calls to the
// provider routed to the local test provider (scripts/payment-sandbox, the same code `npm start`
// runs), and the provider's webhooks held so each test delivers them when, and as often as, it
// wants.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterAll, beforeAll, beforeEach, vi } from 'vitest'
import { createSandbox, SANDBOX_SECRETS } from '../../../../scripts/payment-sandbox/sandbox'
import { refundOrder } from '../../../../worker/api/payment/refund'
import app from '../../../../worker/app'
import { readConfig } from '../../../../worker/platform/env'
import { seedCartFixtures } from '../../../helpers/cart-fixtures'
import { runCron as runCronIn } from '../../../helpers/in-isolate'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { freshIp } from '../../../helpers/user'

export const SANDBOX_ORIGIN = 'https://payments-sandbox.test'
const SHOP = 'https://shop.test'

export interface HeldWebhook {
  url: string
  headers: Record<string, string>
  body: string
}
export const held: HeldWebhook[] = []

export const sandbox = createSandbox({
  origin: SANDBOX_ORIGIN,
  shopOrigin: SHOP,
  ...SANDBOX_SECRETS,
  deliver: async (url, init) => {
    held.push({ url, headers: init.headers, body: init.body })
  },
})

export const payEnv = {
  ...env,
  RAZORPAY_KEY_ID: SANDBOX_SECRETS.razorpay.keyId,
  RAZORPAY_KEY_SECRET: SANDBOX_SECRETS.razorpay.keySecret,
  RAZORPAY_WEBHOOK_SECRET: SANDBOX_SECRETS.razorpay.webhookSecret,
  RAZORPAY_API_BASE: SANDBOX_ORIGIN,
  RAZORPAY_CHECKOUT_SCRIPT: `${SANDBOX_ORIGIN}/v1/checkout.js`,
  PAYPAL_CLIENT_ID: SANDBOX_SECRETS.paypal.clientId,
  PAYPAL_CLIENT_SECRET: SANDBOX_SECRETS.paypal.clientSecret,
  PAYPAL_WEBHOOK_ID: SANDBOX_SECRETS.paypal.webhookId,
  PAYPAL_API_BASE: SANDBOX_ORIGIN,
} as Env

/** An order the shop opened at a provider: the amount and currency it asked for. */
export interface AskedOfProvider {
  provider: 'razorpay' | 'paypal'
  amountMinor: number
  currency: string
}

/**
 * Every outbound call is answered by the sandbox (any other outbound call is an error), and every
 * order the shop opens at a provider is recorded in `asked`, as the request leaves the worker.
 */
export function recordProviderCalls(asked: AskedOfProvider[]) {
  vi.stubGlobal('fetch', (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (!req.url.startsWith(SANDBOX_ORIGIN)) throw new Error(`unexpected outbound call ${req.url}`)
    const path = new URL(req.url).pathname
    if (req.method === 'POST' && path === '/v1/orders') {
      const b = (await req.clone().json()) as { amount: number; currency: string }
      asked.push({ provider: 'razorpay', amountMinor: b.amount, currency: b.currency })
    }
    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      const b = (await req.clone().json()) as {
        purchase_units: { amount: { value: string; currency_code: string } }[]
      }
      const amount = b.purchase_units[0]?.amount
      asked.push({
        provider: 'paypal',
        amountMinor: Math.round(Number(amount?.value) * 100),
        currency: amount?.currency_code ?? '',
      })
    }
    return sandbox.fetch(req)
  }) as typeof fetch)
}

/** Every outbound call to the provider's base URL is answered by the sandbox. */
export function routeProviderCalls() {
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (req.url.startsWith(SANDBOX_ORIGIN)) return sandbox.fetch(req)
    return realFetch(input, init)
  }) as typeof fetch)
}

/**
 * A payment test file's hooks: the provider's calls answered by the sandbox for the whole file
 * and, before each test, `seed` (by default: no webhook held, the cart fixtures written).
 */
export function setUpPaymentSandbox(seed: () => Promise<void> = seedPaymentFixtures) {
  beforeAll(routeProviderCalls)
  afterAll(() => vi.unstubAllGlobals())
  beforeEach(seed)
}

/** No webhook held from an earlier test, and the cart fixtures written. */
export async function seedPaymentFixtures() {
  held.length = 0
  await seedCartFixtures()
}

/** Refunds part or all of an order by the shop's refund rule, as an operator, now. */
export const refund = (orderId: string, amountMinor: number, reason = 'customer returned an item') =>
  refundOrder(
    payEnv,
    readConfig(payEnv),
    { orderId, amountMinor, actor: 'ops@example.com', reason },
    Date.now(),
  )

// biome-ignore lint/suspicious/noExplicitAny: envelopes are asserted field by field in the tests
export type Json = any

/** Calls the worker with the payment configuration and waits for its after-answer work. */
export async function call(
  path: string,
  init: { body?: unknown; rawBody?: string; headers?: Record<string, string>; bearer?: string } = {},
  useEnv: Env = payEnv,
): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers }
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`
  // An order comes from a network address of its own unless the test names one: the per-address
  // placement limits are tested on their own.
  if (path.split('?')[0] === '/api/order' && init.body !== undefined)
    headers['cf-connecting-ip'] ??= freshIp()
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`${SHOP}${path}`, {
      method: init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET',
      headers,
      body: init.rawBody ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
    }),
    useEnv,
    ctx,
  )
  const text = await res.text()
  await waitOnExecutionContext(ctx)
  return { status: res.status, json: JSON.parse(text) }
}

/** Delivers held webhooks (all, or those matching) to the shop; returns their answers. */
export async function deliverWebhooks(match: (w: HeldWebhook) => boolean = () => true, keep = false) {
  const chosen = held.filter(match)
  if (!keep) for (const w of chosen) held.splice(held.indexOf(w), 1)
  const answers = []
  for (const w of chosen) {
    answers.push(await call(new URL(w.url).pathname, { rawBody: w.body, headers: w.headers }))
  }
  return answers
}

export const eventOf = (w: HeldWebhook) =>
  (JSON.parse(w.body) as { event?: string; event_type?: string }).event ??
  (JSON.parse(w.body) as { event_type?: string }).event_type

export interface Placed {
  orderId: string
  orderNumber: string
  accessKey: string
  orderLinkToken: string
}

/** Places a guest order (one scarf unless told) with a payment method, shown in a currency it charges. */
export async function place(
  payment = 'card',
  products: { sku: string; qty: number; price: number }[] = [{ sku: 'FX-SCARF', qty: 1, price: 1 }],
): Promise<Placed> {
  const orderId = newOrderId('pay')
  // Each order from a shopper and an address of its own: the hold and placement limits are
  // tested on their own.
  const res = await call('/api/order', {
    headers: {
      cookie: `currency=${payment === 'paypal_standard' ? 'USD' : 'INR'}`,
      'cf-connecting-ip': freshIp(),
    },
    body: orderBody(orderId, products, testAddress(freshEmail('asha.pay')), { payment }),
  })
  if (res.status !== 200) throw new Error(`placement failed: ${JSON.stringify(res.json)}`)
  const r = res.json.result
  return { orderId, orderNumber: r.orderNumber, accessKey: r.accessKey, orderLinkToken: r.orderLinkToken }
}

/** Opens the payment and pays it at the test provider; returns what the checkout would post back. */
export async function payAtProvider(o: Placed): Promise<Record<string, string>> {
  const started = await call('/api/payment/start', {
    body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
  })
  if (started.status !== 200) throw new Error(`payment not opened: ${JSON.stringify(started.json)}`)
  return (await sandbox.razorpayPay(started.json.result.options.order_id, 'succeed')) as unknown as Record<
    string,
    string
  >
}

/** Posts the checkout's callback fields to the verify endpoint, as the shop's checkout does. */
export const verify = (o: Placed, fields: Record<string, unknown>) =>
  call('/api/payment/razorpay/verify', { body: { orderNumber: o.orderNumber, ...fields } })

export const orderRow = (orderId: string) =>
  env.DB.prepare('SELECT * FROM orders WHERE client_order_id = ?').bind(orderId).first<{
    status: string
    payment_state: string
    paid_minor: number
    refunded_minor: number
    grand_total_minor: number
    currency: string
    expires_at: number
  }>()

/** Runs the five-minute cron as scheduled at `at`, with the payment keys set. */
export const runCron = (at: number) => runCronIn(at, payEnv)

/** The shopper mails sent about an order (by its number in the subject), oldest first. */
export async function mails(orderNumber: string) {
  const { results } = await env.DB.prepare(
    "SELECT kind FROM mail_outbox WHERE subject LIKE '%' || ? || '%' AND kind LIKE 'order-%' AND kind != 'order-merchant' ORDER BY id",
  )
    .bind(orderNumber)
    .all<{ kind: string }>()
  return results.map((r) => r.kind)
}

/** The gift card codes mailed for an order (by its number in the subject), in the order they were issued. */
export async function mailedCodes(orderNumber: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT body FROM mail_outbox WHERE kind = 'gift-card' AND subject LIKE '%' || ? || '%' ORDER BY id",
  )
    .bind(orderNumber)
    .all<{ body: string }>()
  return results.flatMap((r) => r.body.match(/\b[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\b/g) ?? [])
}
