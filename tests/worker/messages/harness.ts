// The message tests' harness: the shop with WhatsApp configured against the local WhatsApp stand-in
// (scripts/whatsapp-sandbox, the code `npm start` runs) and the payment stand-in, the stand-ins'
// webhooks held so each test delivers them when, in what order and how often it wants.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, beforeEach, vi } from 'vitest'
import {
  createWhatsAppSandbox,
  WHATSAPP_SANDBOX_SECRETS,
  whatsappSandboxVars,
} from '../../../scripts/whatsapp-sandbox/sandbox'
import app from '../../../worker/app'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { deliverTo, freshEmail, newOrderId, testAddress } from '../../helpers/orders'
import { freshIp } from '../../helpers/user'
import {
  call,
  eventOf,
  type HeldWebhook,
  held,
  payEnv,
  SANDBOX_ORIGIN,
  sandbox,
} from '../api/payment/harness'

export const WA_ORIGIN = 'https://whatsapp-sandbox.test'
export const waHeld: HeldWebhook[] = []
export const wa = createWhatsAppSandbox({
  origin: WA_ORIGIN,
  shopOrigin: 'https://shop.test',
  ...WHATSAPP_SANDBOX_SECRETS,
  deliver: async (url, init) => {
    waHeld.push({ url, headers: init.headers, body: init.body })
  },
})

export const msgEnv = { ...payEnv, ...whatsappSandboxVars(WA_ORIGIN) } as Env

/** Every outbound call to a stand-in is answered by it. */
export function routeStandIns() {
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (req.url.startsWith(WA_ORIGIN)) return wa.fetch(req)
    if (req.url.startsWith(SANDBOX_ORIGIN)) return sandbox.fetch(req)
    if (req.url.startsWith('https://shop.test/')) return app.fetch(req, msgEnv, createExecutionContext())
    return realFetch(input, init)
  }) as typeof fetch)
}

/**
 * A test file's set-up: the stand-ins answer every outbound call, and each test starts with no
 * held webhook (payment or WhatsApp) and the cart fixtures as seeded.
 */
export function withMessageStandIns() {
  beforeAll(() => routeStandIns())
  beforeEach(async () => {
    held.length = 0
    waHeld.length = 0
    await seedCartFixtures()
  })
}

/** Calls the shop's API with WhatsApp configured. */
export const shopCall = (path: string, init: Parameters<typeof call>[1] = {}) => call(path, init, msgEnv)

/** Delivers one held payment webhook to the shop (it answers the stand-in's call). */
export const deliver = (w: HeldWebhook) =>
  shopCall(new URL(w.url).pathname, { rawBody: w.body, headers: w.headers })

/** The held `payment_link.paid` webhook of the link paid at the payment stand-in. */
export const linkPaidHook = () => held.find((w) => eventOf(w) === 'payment_link.paid') as HeldWebhook

/** The shopper's browser coming back from the provider's page to the shop's return URL. */
export async function browserReturn(url: string) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(url), msgEnv, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

/** Delivers the held WhatsApp notifications (all, or those matching) to the shop; their answers. */
export async function deliverWa(match: (w: HeldWebhook) => boolean = () => true) {
  const chosen = waHeld.filter(match)
  for (const w of chosen) waHeld.splice(waHeld.indexOf(w), 1)
  const answers = []
  for (const w of chosen)
    answers.push(await shopCall('/api/messages/whatsapp/webhook', { rawBody: w.body, headers: w.headers }))
  return answers
}

/** WhatsApp's notification that `from` pressed a button (`payload`, labelled `text`) of a message the shop sent. */
export const buttonPress = (from: string, id: string, button: { payload: string; text: string }) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      changes: [
        { field: 'messages', value: { messages: [{ from, id, timestamp: '1', type: 'button', button }] } },
      ],
    },
  ],
})

let phones = 0
/** A mobile number no other test uses (10 digits, starting 9). */
export const freshPhone = () =>
  `98${String(process.pid % 1000).padStart(3, '0')}${String(++phones).padStart(5, '0')}`

/**
 * Places an order for a phone (one scarf unless told), with the WhatsApp box ticked or not: a
 * guest's, or a signed-in customer's (`token`), spending their store credit when told.
 */
export async function placeFor(
  phone: string,
  opts: {
    optIn: boolean
    payment?: string
    email?: string
    products?: { sku: string; qty: number; product_option?: unknown }[]
    token?: string
    storeCredit?: boolean
  },
): Promise<{ orderId: string; orderNumber: string; accessKey: string }> {
  const orderId = newOrderId('msg')
  const res = await shopCall(opts.token ? `/api/order?token=${opts.token}` : '/api/order', {
    headers: { cookie: 'currency=INR', 'cf-connecting-ip': freshIp() },
    body: {
      order_id: orderId,
      user_id: '',
      cart_id: '',
      products: (opts.products ?? [{ sku: 'FX-SCARF', qty: 1 }]).map((p) => ({ ...p, price: 1 })),
      whatsapp_opt_in: opts.optIn,
      ...(opts.storeCredit ? { store_credit_applied: true } : {}),
      addressInformation: deliverTo(
        testAddress(opts.email ?? freshEmail('asha.wa'), { telephone: phone }),
        opts.payment ?? 'cashondelivery',
      ),
    },
  })
  if (res.status !== 200) throw new Error(`placement failed: ${JSON.stringify(res.json)}`)
  return { orderId, orderNumber: res.json.result.orderNumber, accessKey: res.json.result.accessKey }
}

/** Sends a form POST or a GET to the shop (the confirmation link's page). */
export async function shopPage(path: string, form?: Record<string, string>) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://shop.test${path}`, {
      method: form ? 'POST' : 'GET',
      headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      body: form ? new URLSearchParams(form).toString() : undefined,
    }),
    msgEnv,
    ctx,
  )
  const text = await res.text()
  await waitOnExecutionContext(ctx)
  return { status: res.status, text }
}

export const outboxOf = async (orderId: string) =>
  (
    await env.DB.prepare('SELECT * FROM message_outbox WHERE client_order_id = ? ORDER BY id')
      .bind(orderId)
      .all<{
        id: number
        kind: string
        status: string
        provider_message_id: string | null
        delivery_status: string | null
        provider_response: string | null
      }>()
  ).results

export const statusOf = async (orderId: string) =>
  (
    await env.DB.prepare('SELECT status FROM orders WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ status: string }>()
  )?.status

/** An order's payment columns, as the prepaid switch tests read them. */
export const orderOf = (orderId: string) =>
  env.DB.prepare(
    'SELECT status, payment_state, paid_minor, grand_total_minor, payment_method FROM orders WHERE client_order_id = ?',
  )
    .bind(orderId)
    .first<{
      status: string
      payment_state: string
      paid_minor: number
      grand_total_minor: number
      payment_method: string
    }>()
