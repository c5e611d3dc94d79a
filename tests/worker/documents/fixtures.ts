// Orders for the tax-document tests: placed through the API (the delivery and billing addresses
// chosen), paid at the local test provider, and their documents read back.
import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { grantStoreCredit } from '../../../worker/api/giftcard/routes'
import { deliverTo, freshEmail, newOrderId, testAddress } from '../../helpers/orders'
import { api, freshIp, registerAndLogin } from '../../helpers/user'
import { call, type Placed, payAtProvider, seedPaymentFixtures, verify } from '../api/payment/harness'

/** The cart fixtures with stock for many orders; the scarf is a chapter 62 article (its hsn_code). */
export async function seedDocumentFixtures() {
  await seedPaymentFixtures()
  await env.DB.prepare(
    "UPDATE products SET doc = json_set(doc, '$.hsn_code', '6214') WHERE sku = 'FX-SCARF'",
  ).run()
  await env.DB.prepare("UPDATE inventory SET qty = 100000 WHERE sku IN ('FX-SCARF', 'FX-LEHENGA')").run()
}

export interface DocRow {
  id: number
  kind: string
  fy: string
  seq: number
  number: string
  client_order_id: string
  total_minor: number
  taxable_minor: number
  cgst_minor: number
  sgst_minor: number
  igst_minor: number
  place_of_supply: string
  recipient_gstin: string | null
  html: string
  data: string
}

export const docsOf = async (orderId: string) =>
  (
    await env.DB.prepare('SELECT * FROM tax_documents WHERE client_order_id = ? ORDER BY id')
      .bind(orderId)
      .all<DocRow>()
  ).results

export async function placeOrder(
  payment: string,
  opts: {
    billing?: Record<string, unknown>
    shipping?: Record<string, unknown>
    qty?: number
    products?: { sku: string; qty: number }[]
    headers?: Record<string, string>
    /** The signed-in customer placing it (their id and token); a guest's order otherwise. */
    customer?: { id: number; token: string }
  } = {},
): Promise<Placed> {
  const orderId = newOrderId('inv')
  // A shopper and a network address of its own per order: what one may place and hold is limited.
  const shipping = opts.shipping ?? testAddress(freshEmail('asha.inv'))
  const res = await call(opts.customer ? `/api/order?token=${opts.customer.token}` : '/api/order', {
    body: {
      order_id: orderId,
      ...(opts.customer ? { user_id: String(opts.customer.id) } : {}),
      products: (opts.products ?? [{ sku: 'FX-SCARF', qty: opts.qty ?? 1 }]).map((p) => ({ ...p, price: 1 })),
      addressInformation: { ...deliverTo(shipping, payment), billingAddress: opts.billing ?? shipping },
    },
    headers: { 'cf-connecting-ip': freshIp(), ...opts.headers },
  })
  if (res.status !== 200) throw new Error(`placement failed: ${JSON.stringify(res.json)}`)
  const r = res.json.result
  return { orderId, orderNumber: r.orderNumber, accessKey: r.accessKey, orderLinkToken: r.orderLinkToken }
}

/**
 * A new shopper (`name`) holding `credit` rupees of store credit places `qty` scarves delivered to
 * and billed at `address`, paying with the credit; the answer of the order API.
 */
export async function placeWithStoreCredit(name: string, credit: number, address: unknown, qty = 1) {
  const user = await registerAndLogin(name)
  await grantStoreCredit(env.DB, user.id, credit, 'Gift', Date.now())
  return api(`/order?token=${user.token}`, {
    body: {
      order_id: `${name}-${Date.now()}`,
      products: [{ sku: 'FX-SCARF', qty, price: 1 }],
      store_credit_applied: true,
      addressInformation: { shippingAddress: address, billingAddress: address, payment_method_code: 'card' },
    },
  })
}

/** Places and pays an order by card (Razorpay at the test provider). */
export async function placePaid(opts: Parameters<typeof placeOrder>[1] = {}): Promise<Placed> {
  const o = await placeOrder('card', opts)
  const answer = await payAtProvider(o)
  const res = await verify(o, answer)
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return o
}
