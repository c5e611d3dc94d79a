// The GST reports of a month seeded with every kind of document: B2B (a buyer's GSTIN), B2C large
// (inter-state above ₹1,00,000), B2C small inside and outside the seller's state, cash on delivery
// invoiced at shipping, an order paid with store credit, a partial refund and a cancel. The GSTR-1
// sections add up to the documents, and invoices less credit notes equal the money the shop took
// less what it gave back, to the paisa.
import { env } from 'cloudflare:test'
import { istMonth } from '@shared/domain/gst'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mumbaiBilling } from '../../helpers/orders'
import { admin, operator, type Session } from '../admin/operator'
import { call, routeProviderCalls } from '../api/payment/harness'
import { placeOrder, placePaid, placeWithStoreCredit, seedDocumentFixtures } from './fixtures'

beforeAll(async () => {
  routeProviderCalls()
  await seedDocumentFixtures()
})
afterAll(() => vi.unstubAllGlobals())

const delhi = {
  firstname: 'Meera',
  lastname: 'Kapoor',
  street: ['8 Khan Market'],
  city: 'New Delhi',
  postcode: '110003',
  region: 'Delhi',
  country_id: 'IN',
  telephone: '9810000002',
  email: 'meera@example.com',
}

const asOperator = (who: Session, path: string, body: unknown) =>
  call(`/admin${path}`, { body, headers: { cookie: who.cookie, 'x-csrf-token': who.csrf } })

/** Parses the report's CSV (quoted cells, CRLF lines) into objects by header. */
function parseCsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text
    .trim()
    .split('\r\n')
    .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => (m[1] as string).replace(/""/g, '"')))
  return rows.map((r) => Object.fromEntries((head as string[]).map((h, i) => [h, r[i] ?? ''])))
}
const paise = (rupees: string) => Math.round(Number(rupees) * 100)

describe('a month of documents', () => {
  it('reconciles: GSTR-1 sections and HSN summary to the documents, documents to the money', async () => {
    const owner = await operator('owner')
    const month = istMonth(Date.now())
    // B2B: billed to a GSTIN in Mumbai, delivered in Bengaluru.
    await placePaid({ billing: mumbaiBilling, qty: 2 })
    // B2C small, inter-state (Delhi), later partly refunded.
    const b2cs = await placePaid({ shipping: delhi, qty: 3 })
    await asOperator(owner, `/api/orders/${b2cs.orderNumber}/refund`, {
      amount_minor: 50_050,
      reason: 'Price adjusted',
    })
    // B2C large: inter-state to an unregistered buyer above ₹1,00,000 (a lehenga at ₹1,02,000; an
    // order of many pieces would meet the cap on what one shopper's unpaid orders may hold).
    await env.DB.prepare(
      "UPDATE products SET doc = json_set(doc, '$.price', 102000, '$.final_price', 102000) WHERE sku = 'FX-LEHENGA'",
    ).run()
    await placePaid({ shipping: delhi, products: [{ sku: 'FX-LEHENGA', qty: 1 }] })
    // B2C small inside Karnataka, then canceled (refunded in full).
    const canceled = await placePaid()
    await asOperator(owner, `/api/orders/${canceled.orderNumber}/transition`, {
      to: 'canceled',
      reason: 'Customer asked',
    })
    // Cash on delivery, shipped (invoiced at shipping).
    const cod = await placeOrder('cashondelivery')
    for (const body of [
      { to: 'processing' },
      { to: 'packed' },
      { to: 'shipped', carrier: 'Delhivery', tracking_number: 'DL9' },
    ])
      expect((await asOperator(owner, `/api/orders/${cod.orderNumber}/transition`, body)).status).toBe(200)
    // Paid in full with store credit.
    const credit = await placeWithStoreCredit('gstr1-credit', 3000, delhi)
    expect(credit.json.result.status).toBe('processing')

    // The money, computed here from the orders, refunds and store-credit ledger: what each
    // invoiced order was paid (online, collected on delivery, or in store credit), less what went back.
    const money = await env.DB.prepare(
      `SELECT
         (SELECT SUM(CASE WHEN o.payment_method = 'cashondelivery' THEN o.grand_total_minor ELSE o.paid_minor END)
            + SUM(CAST(ROUND(COALESCE(json_extract(o.doc, '$.customer_balance_amount'), 0) * 100) AS INTEGER))
          FROM orders o WHERE o.client_order_id IN (SELECT client_order_id FROM tax_documents WHERE kind = 'invoice')) AS paid,
         (SELECT COALESCE(SUM(amount_minor), 0) FROM refunds) AS refunded`,
    ).first<{ paid: number; refunded: number }>()
    expect(money!.refunded).toBeGreaterThan(0)

    const csv = async (section: string) => {
      const res = await admin(owner, `/api/tax/gstr1.csv?month=${month}&section=${section}`)
      expect(res.status, section).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      return parseCsv(res.text)
    }
    const b2bRows = await csv('b2b')
    expect(b2bRows).toHaveLength(1)
    expect(b2bRows[0]).toMatchObject({
      'GSTIN/UIN of Recipient': '27AAPFU0939F1ZV',
      'Receiver Name': 'Vikram Shah',
      'Place Of Supply': '29-Karnataka',
      'Reverse Charge': 'N',
      'Invoice Type': 'Regular B2B',
    })
    expect(b2bRows[0]!['Invoice date']).toMatch(/^\d{2}-[A-Z][a-z]{2}-\d{4}$/)
    const b2cl = await csv('b2cl')
    expect(b2cl).toHaveLength(1)
    expect(b2cl[0]).toMatchObject({ 'Place Of Supply': '07-Delhi' })
    expect(paise(b2cl[0]!['Invoice Value'] as string)).toBeGreaterThan(1_00_000_00)
    const b2csRows = await csv('b2cs')
    expect(b2csRows.map((r) => r['Place Of Supply']).sort()).toEqual(['07-Delhi', '29-Karnataka'])
    // Inside Karnataka: the canceled order was credited in full, so only the cash-on-delivery one is left.
    const codInvoice = await env.DB.prepare(
      "SELECT taxable_minor FROM tax_documents WHERE kind = 'invoice' AND client_order_id = ?",
    )
      .bind(cod.orderId)
      .first<{ taxable_minor: number }>()
    expect(
      paise(b2csRows.find((r) => r['Place Of Supply'] === '29-Karnataka')!['Taxable Value'] as string),
    ).toBe(codInvoice!.taxable_minor)
    expect(await csv('exp')).toEqual([])
    expect(await csv('cdnr')).toEqual([])
    expect(await csv('cdnur')).toEqual([])

    // The documents themselves.
    const docs = await env.DB.prepare(
      `SELECT kind, SUM(taxable_minor) AS taxable, SUM(cgst_minor + sgst_minor + igst_minor) AS tax, SUM(total_minor) AS total,
         COUNT(*) AS n FROM tax_documents WHERE period = ? GROUP BY kind`,
    )
      .bind(month)
      .all<{ kind: string; taxable: number; tax: number; total: number; n: number }>()
    const inv = docs.results.find((d) => d.kind === 'invoice')!
    const cn = docs.results.find((d) => d.kind === 'credit_note')!
    expect(inv.n).toBe(6)
    expect(cn.n).toBe(2)

    // B2B + B2C large (per invoice) + B2C small (net of its credit notes) = invoices less credit notes.
    const taxable = (rows: Record<string, string>[]) =>
      rows.reduce((s, r) => s + paise(r['Taxable Value'] as string), 0)
    expect(taxable(b2bRows) + taxable(b2cl) + taxable(b2csRows)).toBe(inv.taxable - cn.taxable)

    // The HSN summary (B2B and B2C) adds up to the same taxable value and tax, and to the money.
    const hsn = [...(await csv('hsn_b2b')), ...(await csv('hsn_b2c'))]
    const hsnTaxable = taxable(hsn)
    const hsnTax = hsn.reduce(
      (s, r) =>
        s +
        paise(r['Integrated Tax Amount'] as string) +
        paise(r['Central Tax Amount'] as string) +
        paise(r['State/UT Tax Amount'] as string),
      0,
    )
    expect(hsnTaxable).toBe(inv.taxable - cn.taxable)
    expect(hsnTax).toBe(inv.tax - cn.tax)
    expect(hsn.find((r) => r.HSN === '6214')).toMatchObject({ UQC: 'PCS-PIECES' })
    expect(inv.total - cn.total).toBe(money!.paid - money!.refunded)
    expect(hsnTaxable + hsnTax).toBe(money!.paid - money!.refunded)

    // Documents issued: each series from its first to its last number.
    const docsRows = await csv('docs')
    expect(docsRows.map((r) => [r['Nature of Document'], r['Total Number']])).toEqual([
      ['Invoices for outward supply', '6'],
      ['Credit Note', '2'],
    ])

    // The sales register totals the same, and the page says it reconciles.
    const register = parseCsv((await admin(owner, `/api/tax/register.csv?month=${month}`)).text)
    expect(register).toHaveLength(9)
    expect(paise(register.at(-1)!.Total as string)).toBe(money!.paid - money!.refunded)
    const page = await admin(owner, `/tax?month=${month}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('reconciles to the paisa')
  })

  it('answers a bad month or section with words', async () => {
    const viewer = await operator('viewer')
    for (const q of [
      'month=2026-13&section=b2b',
      'month=abc&section=b2b',
      'month=2016-01&section=b2b',
      'month=2026-04&section=nope',
    ]) {
      const res = await admin(viewer, `/api/tax/gstr1.csv?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.json.result, q).toMatch(/^Invalid report: /)
    }
    const missing = await admin(viewer, '/api/tax/gstr1.csv?month=2026-04')
    expect(missing.json.result).toMatch(/section: one of b2b/)
  })
})
