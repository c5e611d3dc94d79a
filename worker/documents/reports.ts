/**
 * A month's GST summary and sales register (India's calendar), from the documents issued in it.
 * The summary adds each GSTR-1 section (./gstr1.ts) up and checks that invoices less credit notes
 * equal the money the shop took for them: payments, cash on delivery collected, store credit
 * spent, less refunds.
 */
import { istMonthRange } from '@shared/domain/gst'
import { magentoDate } from '../api/user/repo'
import { MAX_REPORT_DOCUMENTS, pos, rupees, type Table } from './gstr1'

export interface MonthSummary {
  month: string
  invoices: Sums
  creditNotes: Sums
  /** Invoices less credit notes (paise). */
  net: number
  /**
   * The money side, from orders, refunds and the store-credit ledger (INR orders): what the orders
   * invoiced in the month were paid (online, cash on delivery collected or due, store credit), less
   * gift cards sold with them; what was given back in the month on invoiced orders.
   */
  money: { paid: number; givenBack: number; net: number }
  /** Documents of orders charged in another currency (their INR values come from the order's rate). */
  otherCurrencies: number
  truncated: boolean
}

interface Sums {
  count: number
  taxable: number
  cgst: number
  sgst: number
  igst: number
  other: number
  total: number
}

/** The month's totals and the money they must reconcile to. */
export async function monthSummary(db: D1Database, month: string): Promise<MonthSummary> {
  const { start, end } = istMonthRange(month)
  const [from, to] = [magentoDate(start), magentoDate(end)]
  const invoiced = `SELECT client_order_id FROM tax_documents WHERE kind = 'invoice'`
  const [totals, paid, refunds, credits, count] = await db.batch([
    db
      .prepare(
        `SELECT kind, COUNT(*) AS count, SUM(taxable_minor) AS taxable, SUM(cgst_minor) AS cgst, SUM(sgst_minor) AS sgst,
           SUM(igst_minor) AS igst, SUM(other_tax_minor) AS other, SUM(total_minor) AS total,
           SUM(CASE WHEN o.currency <> 'INR' THEN 1 ELSE 0 END) AS foreign_count
         FROM tax_documents d JOIN orders o ON o.client_order_id = d.client_order_id
         WHERE d.period = ? GROUP BY kind`,
      )
      .bind(month),
    db
      .prepare(
        `SELECT SUM(CASE WHEN o.payment_method = 'cashondelivery' THEN o.grand_total_minor ELSE o.paid_minor END
             + CAST(ROUND(COALESCE(json_extract(o.doc, '$.customer_balance_amount'), 0) * 100) AS INTEGER)
             - COALESCE((SELECT SUM(CAST(ROUND(json_extract(it.value, '$.row_total_incl_tax') * 100) AS INTEGER))
                 FROM json_each(o.doc, '$.items') it
                 WHERE json_extract(it.value, '$.product_type') = 'virtual'
                   AND lower(json_extract(it.value, '$.name')) LIKE '%gift%card%'), 0)) AS minor
         FROM tax_documents d JOIN orders o ON o.client_order_id = d.client_order_id
         WHERE d.period = ? AND d.kind = 'invoice' AND o.currency = 'INR'`,
      )
      .bind(month),
    db
      .prepare(
        `SELECT SUM(r.amount_minor) AS minor FROM refunds r
         WHERE r.currency = 'INR' AND r.created_at >= ? AND r.created_at < ? AND r.client_order_id IN (${invoiced})`,
      )
      .bind(from, to),
    db
      .prepare(
        `SELECT SUM(l.amount_minor) AS minor FROM store_credit_ledger l
         WHERE l.amount_minor > 0 AND l.order_id IN (${invoiced}) AND l.created_at >= ? AND l.created_at < ?`,
      )
      .bind(from, to),
    db.prepare('SELECT COUNT(*) AS n FROM tax_documents WHERE period = ?').bind(month),
  ])
  const empty: Sums = { count: 0, taxable: 0, cgst: 0, sgst: 0, igst: 0, other: 0, total: 0 }
  const rows = (totals?.results ?? []) as (Sums & { kind: string; foreign_count: number })[]
  const of = (kind: string): Sums => {
    const r = rows.find((x) => x.kind === kind)
    return r
      ? {
          count: r.count,
          taxable: r.taxable,
          cgst: r.cgst,
          sgst: r.sgst,
          igst: r.igst,
          other: r.other,
          total: r.total,
        }
      : empty
  }
  const minor = (r: D1Result | undefined) =>
    Number((r?.results?.[0] as { minor?: number } | undefined)?.minor ?? 0)
  const invoices = of('invoice')
  const creditNotes = of('credit_note')
  const givenBack = minor(refunds) + minor(credits)
  return {
    month,
    invoices,
    creditNotes,
    net: invoices.total - creditNotes.total,
    money: { paid: minor(paid), givenBack, net: minor(paid) - givenBack },
    otherCurrencies: rows.reduce((s, r) => s + (r.foreign_count ?? 0), 0),
    truncated: Number((count?.results?.[0] as { n?: number } | undefined)?.n ?? 0) > MAX_REPORT_DOCUMENTS,
  }
}

/**
 * The sales register of a month: every document with its figures, one line each, then the
 * totals (credit notes negative).
 */
export async function salesRegister(db: D1Database, month: string): Promise<Table> {
  const { results } = await db
    .prepare(
      `SELECT d.kind, d.number, d.issued_on, o.increment_id, d.recipient_gstin, d.place_of_supply, d.regime,
         json_extract(d.data, '$.figures.recipient.name') AS name, (SELECT number FROM tax_documents WHERE id = d.invoice_id) AS against,
         d.taxable_minor, d.cgst_minor, d.sgst_minor, d.igst_minor, d.other_tax_minor, d.total_minor, o.payment_method
       FROM tax_documents d LEFT JOIN orders o ON o.client_order_id = d.client_order_id
       WHERE d.period = ? ORDER BY d.kind DESC, d.seq LIMIT ?`,
    )
    .bind(month, MAX_REPORT_DOCUMENTS)
    .all<{
      kind: string
      number: string
      issued_on: string
      increment_id: string | null
      recipient_gstin: string | null
      place_of_supply: string
      regime: string
      name: string | null
      against: string | null
      taxable_minor: number
      cgst_minor: number
      sgst_minor: number
      igst_minor: number
      other_tax_minor: number
      total_minor: number
      payment_method: string | null
    }>()
  const sign = (kind: string) => (kind === 'credit_note' ? -1 : 1)
  const total = { taxable: 0, cgst: 0, sgst: 0, igst: 0, other: 0, value: 0 }
  const rows = results.map((r) => {
    const s = sign(r.kind)
    total.taxable += s * r.taxable_minor
    total.cgst += s * r.cgst_minor
    total.sgst += s * r.sgst_minor
    total.igst += s * r.igst_minor
    total.other += s * r.other_tax_minor
    total.value += s * r.total_minor
    return [
      r.kind === 'invoice' ? 'Invoice' : 'Credit note',
      r.number,
      r.issued_on,
      r.against ?? '',
      r.increment_id ?? '',
      r.name ?? '',
      r.recipient_gstin ?? '',
      pos(r.place_of_supply),
      r.payment_method ?? '',
      rupees(s * r.taxable_minor),
      rupees(s * r.cgst_minor),
      rupees(s * r.sgst_minor),
      rupees(s * r.igst_minor),
      rupees(s * r.other_tax_minor),
      rupees(s * r.total_minor),
    ]
  })
  rows.push([
    'Total',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    '',
    rupees(total.taxable),
    rupees(total.cgst),
    rupees(total.sgst),
    rupees(total.igst),
    rupees(total.other),
    rupees(total.value),
  ])
  return {
    header: [
      'Document',
      'Number',
      'Date',
      'Against invoice',
      'Order',
      'Recipient',
      'GSTIN',
      'Place of supply',
      'Payment',
      'Taxable value',
      'CGST',
      'SGST/UTGST',
      'IGST',
      'Other tax',
      'Total',
    ],
    rows,
  }
}
