// When each document is issued, and that issued documents never change: cash on delivery is
// invoiced when it ships (in the ship move's batch), an order paid with store credit as it is
// placed; refunds write their credit notes in their own batch (both or neither); a cancel
// credits what the invoice still has. The stored document is what every later read returns.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { mumbaiBilling } from '../../helpers/orders'
import { operator, type Session } from '../admin/operator'
import { call, setUpPaymentSandbox } from '../api/payment/harness'
import { docsOf, placeOrder, placePaid, placeWithStoreCredit, seedDocumentFixtures } from './fixtures'

setUpPaymentSandbox(seedDocumentFixtures)

/** Calls the back office as `who` with the payment configuration (refunds reach the test provider). */
const asOperator = (who: Session, path: string, body?: unknown) =>
  call(`/admin${path}`, {
    ...(body !== undefined ? { body } : {}),
    headers: { cookie: who.cookie, 'x-csrf-token': who.csrf },
  })

const orderOf = (orderId: string) =>
  env.DB.prepare('SELECT * FROM orders WHERE client_order_id = ?').bind(orderId).first<{
    increment_id: string
    grand_total_minor: number
    paid_minor: number
    refunded_minor: number
    doc: string
  }>()

describe('cash on delivery is invoiced when it ships', () => {
  it('issues nothing at placement, confirmation or packing, and the invoice with the ship move', async () => {
    const staff = await operator('staff')
    const mumbai = { ...mumbaiBilling, vat_id: null, postcode: '400001' }
    const o = await placeOrder('cashondelivery', { shipping: mumbai })
    for (const to of ['processing', 'packed'] as const) {
      expect((await asOperator(staff, `/api/orders/${o.orderNumber}/transition`, { to })).status).toBe(200)
      expect(await docsOf(o.orderId)).toEqual([])
    }
    const shipped = await asOperator(staff, `/api/orders/${o.orderNumber}/transition`, {
      to: 'shipped',
      carrier: 'Delhivery',
      tracking_number: 'DL123',
    })
    expect(shipped.status).toBe(200)
    const docs = await docsOf(o.orderId)
    expect(docs).toHaveLength(1)
    // Delivered in Maharashtra by a Karnataka seller: IGST only.
    expect(docs[0]).toMatchObject({ kind: 'invoice', place_of_supply: '27', cgst_minor: 0, sgst_minor: 0 })
    expect(docs[0]!.igst_minor).toBeGreaterThan(0)
    expect(docs[0]!.total_minor).toBe((await orderOf(o.orderId))!.grand_total_minor)
    // A second ship move is refused, and issues nothing.
    const again = await asOperator(staff, `/api/orders/${o.orderNumber}/transition`, {
      to: 'shipped',
      carrier: 'Delhivery',
      tracking_number: 'DL124',
    })
    expect(again.status).toBe(409)
    expect(await docsOf(o.orderId)).toHaveLength(1)
  })
})

describe('store credit is a payment, not a discount', () => {
  it('invoices an order paid in full with store credit as it is placed, at its full taxable value', async () => {
    const res = await placeWithStoreCredit('doc-credit', 5000, { ...mumbaiBilling, vat_id: null }, 2)
    // ₹2,000 of goods and ₹149 shipping (below the free-shipping threshold).
    expect(res.json.result).toMatchObject({ status: 'processing', storeCreditApplied: 2149 })
    const orderId = JSON.parse(JSON.stringify(res.json.result)).orderNumber as string
    const row = await env.DB.prepare(
      'SELECT client_order_id, grand_total_minor FROM orders WHERE increment_id = ?',
    )
      .bind(orderId)
      .first<{ client_order_id: string; grand_total_minor: number }>()
    expect(row!.grand_total_minor).toBe(0)
    const [inv] = await docsOf(row!.client_order_id)
    // ₹2,000 of goods and its shipping: the invoice is for ₹2,149, its tax inside it, whatever paid for it.
    expect(inv).toMatchObject({ kind: 'invoice', total_minor: 214_900 })
    expect(inv!.taxable_minor + inv!.igst_minor).toBe(214_900)
    expect(inv!.html).toContain('Paid with store credit: ₹2,149.00')
    // The order number the placement assigned is on it.
    expect(inv!.html).toContain(orderId)
    expect(inv!.html).not.toContain('[[')
  })
})

describe('an issued invoice never changes', () => {
  it('keeps its text and figures when the catalogue and the order change later', async () => {
    const o = await placePaid({ billing: mumbaiBilling })
    const [before] = await docsOf(o.orderId)
    // The catalogue changes: new name, price, HSN code; the stored order document is edited too.
    await env.DB.prepare(
      "UPDATE products SET doc = json_set(doc, '$.name', 'Renamed scarf', '$.price', 99999, '$.hsn_code', '9999') WHERE sku = 'FX-SCARF'",
    ).run()
    await env.DB.prepare(
      "UPDATE orders SET doc = json_set(doc, '$.items[0].name', 'Edited', '$.billing_address.firstname', 'Someone') WHERE client_order_id = ?",
    )
      .bind(o.orderId)
      .run()
    const res = await rawDocument(o.orderNumber, o.accessKey)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain('Silk Scarf')
    expect(text).toContain('6214')
    expect(text).toContain('Vikram')
    expect(text).not.toContain('Renamed scarf')
    expect(text).not.toContain('Someone')
    const [after] = await docsOf(o.orderId)
    expect(after).toEqual(before)
    // The database itself refuses to change or remove an issued document.
    await expect(
      env.DB.prepare("UPDATE tax_documents SET html = 'x' WHERE id = ?").bind(before!.id).run(),
    ).rejects.toThrow(/immutable/)
    await expect(
      env.DB.prepare('DELETE FROM tax_documents WHERE id = ?').bind(before!.id).run(),
    ).rejects.toThrow(/immutable/)
    await expect(
      env.DB.prepare('UPDATE tax_document_lines SET value_minor = 0 WHERE document_id = ?')
        .bind(before!.id)
        .run(),
    ).rejects.toThrow(/immutable/)
  })
})

/** The shop's document endpoint, read as the browser's download reads it. */
async function rawDocument(orderNumber: string, accessKey?: string, headers: Record<string, string> = {}) {
  const { default: app } = await import('../../../worker/app')
  const { payEnv } = await import('../api/payment/harness')
  const { createExecutionContext } = await import('cloudflare:test')
  return app.fetch(
    new Request('https://shop.test/api/documents/get', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ orderNumber, ...(accessKey ? { accessKey } : {}) }),
    }),
    payEnv,
    createExecutionContext(),
  )
}

describe('credit notes', () => {
  it('are written with each refund: a partial, then the rest, reversing the invoice exactly', async () => {
    const staff = await operator('staff')
    const o = await placePaid({ qty: 3 })
    const [inv] = await docsOf(o.orderId)
    const partial = await asOperator(staff, `/api/orders/${o.orderNumber}/refund`, {
      amount_minor: 70_001,
      reason: 'One scarf returned, damaged',
    })
    expect(partial.status, JSON.stringify(partial.json)).toBe(200)
    let docs = await docsOf(o.orderId)
    expect(docs.map((d) => d.kind)).toEqual(['invoice', 'credit_note'])
    const cn1 = docs[1]!
    expect(cn1.number).toMatch(/^OC\/\d{2}-\d{2}\/\d{6}$/)
    expect(cn1.total_minor).toBe(70_001)
    expect(cn1.taxable_minor + cn1.cgst_minor + cn1.sgst_minor + cn1.igst_minor).toBe(70_001)
    expect(cn1.html).toContain(inv!.number)
    const order = await orderOf(o.orderId)
    const rest = order!.paid_minor - order!.refunded_minor
    const final = await asOperator(staff, `/api/orders/${o.orderNumber}/refund`, {
      amount_minor: rest,
      reason: 'All returned',
    })
    expect(final.status).toBe(200)
    docs = await docsOf(o.orderId)
    expect(docs).toHaveLength(3)
    const credited = docs.filter((d) => d.kind === 'credit_note')
    const sum = (f: (d: (typeof docs)[number]) => number) => credited.reduce((s, d) => s + f(d), 0)
    expect(sum((d) => d.total_minor)).toBe(inv!.total_minor)
    expect(sum((d) => d.taxable_minor)).toBe(inv!.taxable_minor)
    expect(sum((d) => d.cgst_minor)).toBe(inv!.cgst_minor)
    expect(sum((d) => d.sgst_minor)).toBe(inv!.sgst_minor)
    // Line by line too: the invoice's lines less the notes' lines are zero.
    const { results } = await env.DB.prepare(
      `SELECT l.line_no, SUM(CASE WHEN d.kind = 'invoice' THEN l.value_minor ELSE -l.value_minor END) AS left_value,
         SUM(CASE WHEN d.kind = 'invoice' THEN l.cgst_minor ELSE -l.cgst_minor END) AS left_cgst
       FROM tax_document_lines l JOIN tax_documents d ON d.id = l.document_id
       WHERE d.client_order_id = ? GROUP BY l.line_no`,
    )
      .bind(o.orderId)
      .all<{ left_value: number; left_cgst: number }>()
    expect(results.every((r) => r.left_value === 0 && r.left_cgst === 0)).toBe(true)
  })

  it('are written with a cancel’s refund, in full', async () => {
    const staff = await operator('staff')
    const o = await placePaid({ billing: mumbaiBilling })
    const res = await asOperator(staff, `/api/orders/${o.orderNumber}/transition`, {
      to: 'canceled',
      reason: 'Out of fabric',
    })
    expect(res.status).toBe(200)
    const docs = await docsOf(o.orderId)
    expect(docs.map((d) => d.kind)).toEqual(['invoice', 'credit_note'])
    expect(docs[1]!.total_minor).toBe(docs[0]!.total_minor)
    expect(docs[1]!.recipient_gstin).toBe('27AAPFU0939F1ZV')
    expect(docs[1]!.html).toContain('Canceled: Out of fabric')
  })

  it('and their refund are written both or neither', async () => {
    const staff = await operator('staff')
    const o = await placePaid()
    // The number the credit note would take is already used (by a row put there by hand): the
    // credit note's insert fails, and with it the refund's whole batch.
    const fy = (await docsOf(o.orderId))[0]!.fy
    const next = await env.DB.prepare(
      "SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM tax_documents WHERE kind = 'credit_note' AND fy = ?",
    )
      .bind(fy)
      .first<{ seq: number }>()
    await env.DB.prepare(
      `INSERT INTO tax_documents (kind, fy, seq, number, client_order_id, issued_at, issued_on, period, place_of_supply,
         regime, taxable_minor, cgst_minor, sgst_minor, igst_minor, other_tax_minor, total_minor, data, html)
       VALUES ('invoice', ?, 999999, ?, 'blocker', '2026-01-01 00:00:00', '2026-01-01', '2026-01', '29', 'igst', 0, 0, 0, 0, 0, 0, '{}', '')`,
    )
      .bind(fy, `OC/${fy}/${String(next!.seq).padStart(6, '0')}`)
      .run()
    const res = await asOperator(staff, `/api/orders/${o.orderNumber}/refund`, {
      amount_minor: 10_000,
      reason: 'Goodwill',
    })
    expect(res.status).toBeGreaterThanOrEqual(500)
    // The refund was asked of the provider under its own row (recorded before the call, for its
    // request id); the batch that records it as made failed with its credit note, so it stays
    // 'requested' for the provider's report to settle, and the order's payment state is unchanged.
    const refunds = await env.DB.prepare('SELECT status FROM refunds WHERE client_order_id = ?')
      .bind(o.orderId)
      .all<{ status: string }>()
    expect(refunds.results.map((r) => r.status)).toEqual(['requested'])
    const order = await env.DB.prepare('SELECT payment_state FROM orders WHERE client_order_id = ?')
      .bind(o.orderId)
      .first<{ payment_state: string }>()
    expect(order!.payment_state).toBe('paid')
    expect((await docsOf(o.orderId)).map((d) => d.kind)).toEqual(['invoice'])
    const events = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM order_events WHERE client_order_id = ? AND kind = 'refund'",
    )
      .bind(o.orderId)
      .first<{ n: number }>()
    expect(events!.n).toBe(0)
  })

  it('is not written for a refund of an order that was never invoiced', async () => {
    const staff = await operator('staff')
    const o = await placeOrder('cashondelivery')
    const res = await asOperator(staff, `/api/orders/${o.orderNumber}/transition`, {
      to: 'canceled',
      reason: 'Asked to',
    })
    expect(res.status).toBe(200)
    expect(await docsOf(o.orderId)).toEqual([])
  })
})
