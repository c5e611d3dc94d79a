// Tax invoices are issued in the batch of the payment that makes an order invoiceable: once, and
// 20 payments verified at once take 20 consecutive numbers, none shared or skipped.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { mumbaiBilling } from '../../helpers/orders'
import { payAtProvider, setUpPaymentSandbox, verify } from '../api/payment/harness'
import { docsOf, placeOrder, seedDocumentFixtures } from './fixtures'

setUpPaymentSandbox(seedDocumentFixtures)

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
    // Its lines are stored with it and add up to it.
    const lines = await env.DB.prepare(
      'SELECT SUM(value_minor) AS v, SUM(taxable_minor) AS t, COUNT(*) AS n FROM tax_document_lines WHERE document_id = ?',
    )
      .bind(inv!.id)
      .first<{ v: number; t: number; n: number }>()
    expect(lines).toEqual({ v: inv!.total_minor, t: inv!.taxable_minor, n: 2 })
    // The payment mail links to it: the order page with its signed link, asked to download the invoice.
    const mail = await env.DB.prepare(
      "SELECT body AS text FROM mail_outbox WHERE kind = 'order-paid' AND subject LIKE ?",
    )
      .bind(`%${o.orderNumber}%`)
      .first<{ text: string }>()
    const invoiceLine = mail!.text.split('\n').find((l) => l.startsWith(`Your tax invoice ${inv!.number}: `))
    expect(invoiceLine).toMatch(new RegExp(`/order/${o.orderNumber}#k=[A-Za-z0-9._-]+&doc=invoice$`))
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
