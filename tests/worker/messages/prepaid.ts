// The prepaid discount tests' helpers: the operator's setting, the link offered and paid at the
// payment stand-in, and the check that a paid order's stored figures agree with its invoice.
import { env } from 'cloudflare:test'
import { formatMinor } from '@shared/domain/currency'
import { expect } from 'vitest'
import { parseOrderDocument } from '../../../worker/api/order/document'
import { findOrderByClientId } from '../../../worker/api/order/repo'
import { sandbox } from '../api/payment/harness'
import { type placeFor, shopCall } from './harness'

export type Placed = Awaited<ReturnType<typeof placeFor>>

export const inr = (minor: number) => formatMinor(minor, 'INR')

export const orderOf = (orderId: string) => findOrderByClientId(env.DB, orderId)

export const setDiscount = (
  kind: 'off' | 'percent' | 'fixed',
  percent: number,
  capMinor: number,
  fixedMinor: number,
) =>
  env.DB.prepare(
    `INSERT INTO prepaid_discount (id, kind, percent, cap_minor, fixed_minor, updated_at) VALUES (1, ?, ?, ?, ?, '')
     ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, percent = excluded.percent,
       cap_minor = excluded.cap_minor, fixed_minor = excluded.fixed_minor`,
  )
    .bind(kind, percent, capMinor, fixedMinor)
    .run()

/** What the order page is given: the order's total and what paying by link asks. */
export const orderView = async (o: Placed) =>
  (await shopCall('/api/payment/order', { body: { orderNumber: o.orderNumber, accessKey: o.accessKey } }))
    .json.result as { grandTotalMinor: number; prepaidAmountMinor: number }

export const pageAsks = async (o: Placed) => (await orderView(o)).prepaidAmountMinor

export async function offer(o: Placed) {
  const res = await shopCall('/api/payment/link', {
    body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
  })
  expect(res.status).toBe(200)
  return res.json.result as { url: string; amountMinor: number; discountMinor: number }
}

export async function pay(url: string) {
  const paid = await sandbox.payLink(new URL(url).pathname.split('/').pop() as string)
  if ('error' in paid) throw new Error(paid.error)
  return paid
}

/** What the order's lines were charged (paise), gift cards included: the goods a discount can come off. */
export const goodsOf = (doc: string) =>
  parseOrderDocument(doc).items.reduce((s, it) => s + it.row_total_minor - (it.discount_minor ?? 0), 0)

export const lineDiscounts = (doc: string) =>
  parseOrderDocument(doc).items.map((it) => it.discount_minor ?? 0)

/** Every record of the money once paid: the order, the link's row, the payment, the invoice. */
export async function moneyOf(orderId: string) {
  return env.DB.prepare(
    `SELECT o.grand_total_minor AS total, o.paid_minor AS paid,
       (SELECT amount_minor FROM payments WHERE client_order_id = ?1) AS link,
       (SELECT amount_minor FROM provider_payments WHERE client_order_id = ?1) AS payment,
       (SELECT total_minor FROM tax_documents WHERE client_order_id = ?1 AND kind = 'invoice') AS invoice
     FROM orders o WHERE o.client_order_id = ?1`,
  )
    .bind(orderId)
    .first<{ total: number; paid: number; link: number; payment: number; invoice: number | null }>()
}

/**
 * Checks a paid order's stored figures against its invoice: each line's value and tax, the order's
 * tax, its total (what is left after `creditMinor` of store credit, a payment the invoice shows
 * apart) in every column and field, and the link, payment and ledger at that total. The document.
 */
export async function expectAgreesWithInvoice(orderId: string, paid: number, creditMinor: number) {
  const row = await env.DB.prepare(
    'SELECT doc, grand_total, grand_total_minor, base_grand_total_minor, paid_minor FROM orders WHERE client_order_id = ?',
  )
    .bind(orderId)
    .first<{
      doc: string
      grand_total: number
      grand_total_minor: number
      base_grand_total_minor: number
      paid_minor: number
    }>()
  const doc = parseOrderDocument(row?.doc as string)
  const invoice = await env.DB.prepare(
    `SELECT id, total_minor, cgst_minor + sgst_minor + igst_minor + other_tax_minor AS tax, data
     FROM tax_documents WHERE client_order_id = ? AND kind = 'invoice'`,
  )
    .bind(orderId)
    .first<{ id: number; total_minor: number; tax: number; data: string }>()
  const lines = (
    await env.DB.prepare(
      `SELECT value_minor AS value, cgst_minor + sgst_minor + igst_minor + other_tax_minor AS tax
       FROM tax_document_lines WHERE document_id = ? ORDER BY line_no`,
    )
      .bind(invoice?.id)
      .all<{ value: number; tax: number }>()
  ).results
  // The goods lines of the invoice are the order's lines; the last is shipping (COD fee with it).
  expect(lines).toHaveLength(doc.items.length + 1)
  doc.items.forEach((it, i) => {
    expect(it.row_total_minor - (it.discount_minor ?? 0), it.sku).toBe(lines[i]?.value)
    expect(it.tax_minor, it.sku).toBe(lines[i]?.tax)
    expect(Math.round(it.tax_amount * 100), it.sku).toBe(lines[i]?.tax)
  })
  expect(doc.extension_attributes.shipping_assignments[0]?.items).toEqual(doc.items)
  expect(doc.extension_attributes.tax_amount_minor).toBe(invoice?.tax)
  expect(Math.round(doc.tax_amount * 100)).toBe(invoice?.tax)
  expect(invoice?.total_minor).toBe(paid + creditMinor)
  expect(JSON.parse(invoice?.data as string).figures.storeCreditMinor).toBe(creditMinor)
  expect(Math.round((doc.customer_balance_amount ?? 0) * 100)).toBe(creditMinor)
  expect(row).toMatchObject({ grand_total_minor: paid, base_grand_total_minor: paid, paid_minor: paid })
  expect(Math.round((row?.grand_total as number) * 100)).toBe(paid)
  expect(doc.grand_total_minor).toBe(paid)
  expect(Math.round(doc.grand_total * 100)).toBe(paid)
  expect(Math.round(doc.base_grand_total * 100)).toBe(paid)
  expect(await moneyOf(orderId)).toMatchObject({ total: paid, paid, link: paid, payment: paid })
  return doc
}
