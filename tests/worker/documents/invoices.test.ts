// Tax invoices are issued in the batch of the event that makes an order invoiceable: a verified
// payment (20 at once take 20 consecutive numbers), the shipping of a cash-on-delivery order, the
// placement of an order paid with store credit. An issued invoice is stored and never changes.
import { env } from 'cloudflare:test'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { deliverTo, newOrderId, testAddress } from '../../helpers/orders'
import { call, held, type Placed, routeProviderCalls, sandbox } from '../api/payment/harness'

beforeAll(routeProviderCalls)
afterAll(() => vi.unstubAllGlobals())
beforeEach(async () => {
  held.length = 0
  await seedCartFixtures()
  // The fixtures' scarf is a chapter 62 article (the catalogue's hsn_code attribute).
  await env.DB.prepare(
    "UPDATE products SET doc = json_set(doc, '$.hsn_code', '6214') WHERE sku = 'FX-SCARF'",
  ).run()
  await env.DB.prepare("UPDATE inventory SET qty = 1000 WHERE sku = 'FX-SCARF'").run()
})

interface DocRow {
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

const docsOf = async (orderId: string) =>
  (
    await env.DB.prepare('SELECT * FROM tax_documents WHERE client_order_id = ? ORDER BY id')
      .bind(orderId)
      .all<DocRow>()
  ).results

const mumbaiBilling = {
  firstname: 'Vikram',
  lastname: 'Shah',
  company: 'Shah Textiles Pvt Ltd',
  street: ['Kalbadevi Road 22'],
  city: 'Mumbai',
  postcode: '400002',
  region: 'Maharashtra',
  country_id: 'IN',
  telephone: '9820000001',
  vat_id: '27AAPFU0939F1ZV',
  email: 'vikram@example.com',
}

async function placeOrder(
  payment: string,
  opts: { billing?: Record<string, unknown>; shipping?: Record<string, unknown>; qty?: number } = {},
): Promise<Placed> {
  const orderId = newOrderId('inv')
  const shipping = opts.shipping ?? testAddress('asha.inv@example.com')
  const res = await call('/api/order', {
    body: {
      order_id: orderId,
      products: [{ sku: 'FX-SCARF', qty: opts.qty ?? 1, price: 1 }],
      addressInformation: { ...deliverTo(shipping, payment), billingAddress: opts.billing ?? shipping },
    },
  })
  if (res.status !== 200) throw new Error(`placement failed: ${JSON.stringify(res.json)}`)
  const r = res.json.result
  return { orderId, orderNumber: r.orderNumber, accessKey: r.accessKey, orderLinkToken: r.orderLinkToken }
}

/** Opens the payment and pays it at the test provider; returns what the checkout would post back. */
async function payAtProvider(o: Placed) {
  const started = await call('/api/payment/start', {
    body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
  })
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  const answer = (await sandbox.razorpayPay(
    started.json.result.options.order_id,
    'succeed',
  )) as unknown as Record<string, string>
  return answer
}

const verify = (o: Placed, fields: Record<string, string>) =>
  call('/api/payment/razorpay/verify', { body: { orderNumber: o.orderNumber, ...fields } })

describe('an invoice at payment', () => {
  it('is not issued for an unpaid order, and is issued with the payment, once', async () => {
    const o = await placeOrder('card', { billing: mumbaiBilling })
    expect(await docsOf(o.orderId)).toEqual([])
    const answer = await payAtProvider(o)
    expect((await verify(o, answer)).status).toBe(200)
    // The callback again (a retry) issues nothing more.
    expect((await verify(o, answer)).status).toBe(200)
    const docs = await docsOf(o.orderId)
    expect(docs).toHaveLength(1)
    const [inv] = docs
    expect(inv).toMatchObject({ kind: 'invoice', place_of_supply: '29', recipient_gstin: '27AAPFU0939F1ZV' })
    expect(inv!.number).toMatch(/^OA\/\d{2}-\d{2}\/\d{6}$/)
    expect(inv!.number.length).toBeLessThanOrEqual(16)
    const order = await env.DB.prepare('SELECT grand_total_minor FROM orders WHERE client_order_id = ?')
      .bind(o.orderId)
      .first<{ grand_total_minor: number }>()
    // The invoice's value is the order's total, and its tax lines add up to it.
    expect(inv!.total_minor).toBe(order!.grand_total_minor)
    expect(inv!.taxable_minor + inv!.cgst_minor + inv!.sgst_minor + inv!.igst_minor).toBe(inv!.total_minor)
    // Delivered in Karnataka by a Karnataka seller: CGST + SGST, no IGST, though billed to Mumbai.
    expect(inv!.igst_minor).toBe(0)
    expect(inv!.cgst_minor).toBeGreaterThan(0)
    expect(inv!.html).toContain(inv!.number)
    expect(inv!.html).toContain('29AADCO4321K1ZC')
    expect(inv!.html).toContain('27AAPFU0939F1ZV')
    expect(inv!.html).toContain('Karnataka, code 29')
    expect(inv!.html).toContain('Maharashtra, code 27')
    expect(inv!.html).toContain('6214')
    expect(inv!.html).toContain(o.orderNumber)
    expect(inv!.html).not.toContain('[[')
  })

  it('gives 20 payments verified at once 20 consecutive numbers, none shared or skipped', async () => {
    const orders = await Promise.all(Array.from({ length: 20 }, () => placeOrder('card')))
    const answers: Record<string, string>[] = []
    for (const o of orders) answers.push(await payAtProvider(o))
    const before = await env.DB.prepare(
      "SELECT COALESCE(MAX(seq), 0) AS seq, COUNT(*) AS n FROM tax_documents WHERE kind = 'invoice'",
    ).first<{ seq: number; n: number }>()
    const results = await Promise.all(orders.map((o, i) => verify(o, answers[i]!)))
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200))
    const { results: rows } = await env.DB.prepare(
      "SELECT seq, number, fy, client_order_id FROM tax_documents WHERE kind = 'invoice' AND seq > ? ORDER BY seq",
    )
      .bind(before!.seq)
      .all<{ seq: number; number: string; fy: string; client_order_id: string }>()
    expect(rows).toHaveLength(20)
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => before!.seq + i + 1))
    expect(new Set(rows.map((r) => r.number)).size).toBe(20)
    expect(new Set(rows.map((r) => r.client_order_id))).toEqual(new Set(orders.map((o) => o.orderId)))
  })
})
