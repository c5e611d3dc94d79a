/**
 * Issuing tax documents. Each document is ONE statement that the batch of the event issuing it
 * runs (the payment's move to 'processing', the shipping of a cash-on-delivery order, the
 * placement of an order paid in full with store credit, a refund): it takes the next serial of its
 * series and financial year inside that batch, so both are written or neither, and two batches
 * can never take the same number or leave one out. The statement writes only when its condition
 * still holds in the batch (the order is invoiceable and has no invoice; the credit note's refund
 * was not credited before), so a replayed event writes nothing twice.
 *
 * The document is rendered BEFORE the batch from the order as placed; its number (and, at
 * placement, the order number) are not known then, so the rendering carries a random placeholder
 * that the statement replaces with the number it took. What is stored is never rendered again.
 */

import { destinationTax } from '@shared/config/store'
import { isGiftCard } from '@shared/domain/gift-card-details'
import { financialYear, istDate, istMonth, type PlaceOfSupply } from '@shared/domain/gst'
import { OTHER_COUNTRIES, stateByCode } from '@shared/domain/gst-states'
import { allocateMinor } from '@shared/domain/money'
import {
  type DocumentLine,
  type InvoiceFigures,
  invoiceFigures,
  type LineInput,
  type Party,
  totalsOf,
} from '@shared/domain/tax-document'
import { type OrderDocument, type OrderDocumentAddress, parseOrderDocument } from '../api/order/document'
import { addressState } from '../api/order/tax-facts'
import { magentoDate } from '../api/user/repo'
import { type DocumentData, renderDocumentHtml } from './render'
import { sellerConfig } from './seller'

/**
 * When an order's supply is invoiced (SQL over `orders o`): once it is paid online; a cash-on-
 * delivery order once it is shipped (the goods leave: CGST Act s. 31(1)); an order paid in full
 * with store credit at once. Refunds later do not undo an invoice (credit notes do).
 */
export const INVOICEABLE_SQL = `o.status IN ('processing', 'packed', 'shipped', 'delivered', 'closed') AND (
  o.payment_state IN ('paid', 'partially_refunded', 'refunded')
  OR (o.payment_method = 'cashondelivery' AND o.status IN ('shipped', 'delivered', 'closed'))
  OR (o.payment_method <> 'cashondelivery' AND o.grand_total_minor = 0))`

/** The order fields a document is made from (the order as placed). */
export interface OrderSource {
  client_order_id: string
  /** Unknown at placement: the statement fills it in. */
  increment_id: string | null
  doc: string
  currency: string
  grand_total_minor: number | null
  base_grand_total_minor?: number | null
  created_at: string
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '')

function party(a: OrderDocumentAddress | null | undefined, gstin: string | null = null): Party {
  const raw = a?.street
  const street = Array.isArray(raw) ? raw.map(str).filter(Boolean) : [str(raw)]
  const country = str(a?.country_id).toUpperCase() || 'IN'
  const state = country === 'IN' && a ? addressState({ ...a, country_id: country }) : null
  return {
    name: [str(a?.firstname), str(a?.lastname)].filter(Boolean).join(' '),
    address: [
      str(a?.company),
      ...street,
      [str(a?.city), str(a?.postcode)].filter(Boolean).join(' '),
      country === 'IN' ? '' : country,
    ].filter(Boolean),
    state,
    country,
    phone: str(a?.telephone) || null,
    gstin,
  }
}

/** Where the order is supplied: as the order recorded it, else (older orders) from its delivery address. */
function placeOf(doc: OrderDocument, delivery: Party): PlaceOfSupply | null {
  const stored = doc.extension_attributes?.gst?.place_of_supply
  if (stored && 'state' in stored) {
    const s = stateByCode(stored.state)
    return s ? { kind: 'state', state: s } : null
  }
  if (stored && 'country' in stored && stored.country !== 'IN')
    return { kind: 'abroad', country: stored.country }
  if (delivery.country !== 'IN') return { kind: 'abroad', country: delivery.country }
  return delivery.state ? { kind: 'state', state: delivery.state } : null
}

/**
 * The invoice input of an order, every amount in paise of INR. An order charged in another
 * currency is converted by splitting its total in INR (as the order recorded it) over the lines in
 * proportion to what each was charged, so the INR lines add up to that total exactly.
 */
function invoiceInputOf(order: OrderSource, seller: NonNullable<ReturnType<typeof sellerConfig>>) {
  const doc = parseOrderDocument(order.doc)
  const shipAddress = doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address ?? null
  const buyerGstin = doc.extension_attributes?.gst?.buyer_gstin ?? null
  const recipient = party(doc.billing_address, buyerGstin)
  const delivery = party(shipAddress ?? doc.billing_address)
  const place = placeOf(doc, delivery)
  if (!place) return null
  const items = doc.items ?? []
  const minor = (major: number | undefined) => Math.round((major ?? 0) * 100)
  const charged = items.map(
    (it) => (it.row_total_minor ?? 0) - (it.discount_minor ?? minor(it.discount_amount)),
  )
  const shippingCharged = minor(doc.shipping_amount)
  const abroad = place.kind === 'abroad'
  const inr = order.currency === 'INR'
  // The total in INR: the order's own for INR; else its INR total as recorded at placement.
  const inrTotal = inr
    ? charged.reduce((s, v) => s + v, 0) + shippingCharged
    : (order.base_grand_total_minor ??
      Math.round((order.grand_total_minor ?? 0) / (doc.base_to_order_rate || 1)))
  const values = inr ? [...charged, shippingCharged] : allocateMinor(inrTotal, [...charged, shippingCharged])
  const scale = (x: number, i: number) =>
    inr
      ? x
      : (charged[i] as number) > 0
        ? Math.round((x * (values[i] as number)) / (charged[i] as number))
        : 0
  const lines: LineInput[] = items.map((it, i) => ({
    sku: str(it.sku),
    description: str(it.name) || str(it.sku),
    options: it.options ?? [],
    hsn: it.hsn_code ?? null,
    uqc: it.uqc ?? 'PCS',
    qty: it.qty_ordered ?? 1,
    valueMinor: values[i] as number,
    discountMinor: scale(it.discount_minor ?? minor(it.discount_amount), i),
    gstRate: it.gst_rate ?? (abroad ? 0 : (it.tax_percent ?? 0)),
    // Abroad, the tax the line's price includes is the destination's (UK VAT), not India's.
    destinationTaxMinor: abroad ? scale(it.tax_minor ?? minor(it.tax_amount), i) : 0,
    voucher: isGiftCard(it),
  }))
  return {
    supplier: seller.supplier,
    recipient,
    delivery,
    place,
    lines,
    shippingMinor: values.at(-1) as number,
    destinationTaxLabel: abroad
      ? (doc.extension_attributes?.tax_label ?? destinationTax(delivery.country).label)
      : null,
    storeCreditMinor: minor(doc.customer_balance_amount),
  }
}

/** A random token that cannot occur in a rendering by chance or by a shopper's typing. */
function placeholder(what: string) {
  const bytes = crypto.getRandomValues(new Uint8Array(12))
  return `[[${what}:${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}]]`
}

interface Prepared {
  kind: 'invoice' | 'credit_note'
  prefix: string
  order: OrderSource
  figures: Pick<InvoiceFigures, 'regime' | 'place' | 'recipient'>
  lines: DocumentLine[]
  data: Omit<DocumentData, 'number' | 'orderNumber'>
  now: number
  source: string | null
  /** The SQL condition (over nothing) the row is written under. */
  guard: string
  guardBinds: unknown[]
}

/**
 * The INSERT … SELECT that writes one document with the next serial of its series, and the one
 * that writes its lines right after it in the same batch, only when the document was written
 * (changes() is the document statement's; the document is then the order's newest).
 */
export async function documentStatements(db: D1Database, p: Prepared): Promise<D1PreparedStatement[]> {
  const numberMark = placeholder('number')
  const orderMark = placeholder('order')
  const data: DocumentData = { ...p.data, number: numberMark, orderNumber: p.order.increment_id ?? orderMark }
  const html = await renderDocumentHtml(data)
  const fy = financialYear(p.now)
  const totals = totalsOf(p.lines)
  const place = p.figures.place.kind === 'abroad' ? OTHER_COUNTRIES.code : p.figures.place.state.code
  const number = `printf('%s/%s/%06d', ?3, ?2, n.seq)`
  const orderNumber = '(SELECT increment_id FROM orders WHERE client_order_id = ?4)'
  const fill = (param: string) => `replace(replace(${param}, ?20, ${number}), ?21, ${orderNumber})`
  const lines = p.lines.map((l) => [
    l.hsn,
    l.uqc,
    l.qty,
    l.rate,
    l.valueMinor,
    l.taxableMinor,
    l.cgst,
    l.sgst,
    l.igst,
    l.destinationTaxMinor,
  ])
  const document = db
    .prepare(
      `INSERT INTO tax_documents (kind, fy, seq, number, client_order_id, invoice_id, source, issued_at, issued_on,
         period, recipient_gstin, place_of_supply, regime, taxable_minor, cgst_minor, sgst_minor, igst_minor,
         other_tax_minor, total_minor, data, html)
       SELECT ?1, ?2, n.seq, ${number}, ?4,
         CASE WHEN ?1 = 'credit_note' THEN (SELECT id FROM tax_documents WHERE kind = 'invoice' AND client_order_id = ?4) END,
         ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ${fill('?18')}, ${fill('?19')}
       FROM (SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM tax_documents WHERE kind = ?1 AND fy = ?2) n
       WHERE ${p.guard}`,
    )
    .bind(
      p.kind,
      fy,
      p.prefix,
      p.order.client_order_id,
      p.source,
      magentoDate(p.now),
      istDate(p.now),
      istMonth(p.now),
      p.figures.recipient.gstin ?? null,
      place,
      p.figures.regime,
      totals.taxableMinor,
      totals.cgst,
      totals.sgst,
      totals.igst,
      totals.destinationTaxMinor,
      totals.valueMinor,
      JSON.stringify(data),
      html,
      numberMark,
      orderMark,
      ...p.guardBinds,
    )
  const lineRows = db
    .prepare(
      `INSERT INTO tax_document_lines (document_id, line_no, hsn, uqc, qty, rate, value_minor, taxable_minor,
         cgst_minor, sgst_minor, igst_minor, other_tax_minor)
       SELECT (SELECT MAX(id) FROM tax_documents WHERE client_order_id = ?2), j.key + 1, j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3,
         j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7, j.value ->> 8, j.value ->> 9
       FROM json_each(?1) j WHERE changes() = 1`,
    )
    .bind(JSON.stringify(lines), p.order.client_order_id)
  return [document, lineRows]
}

/**
 * The figures of the tax invoice `order` gets (each line's value, taxable value and GST, the
 * totals), or null when none can be issued: the seller is not configured, or the order's place of
 * supply cannot be told (logged).
 */
export function invoiceFiguresOf(env: Env, order: OrderSource): InvoiceFigures | null {
  const seller = sellerConfig(env)
  if (!seller) return null
  const input = invoiceInputOf(order, seller)
  if (!input) {
    console.error(
      JSON.stringify({ msg: 'invoice not issued: no place of supply', order: order.client_order_id }),
    )
    return null
  }
  return invoiceFigures(input)
}

/**
 * The statement that issues an order's tax invoice in the batch of the event that makes the order
 * invoiceable; none when the seller is not configured (logged) or the order's place of supply
 * cannot be told. It writes only if, inside the batch, the order is invoiceable and has no invoice.
 */
export async function invoiceStatements(
  env: Env,
  order: OrderSource,
  now: number,
): Promise<D1PreparedStatement[]> {
  const seller = sellerConfig(env)
  const figures = invoiceFiguresOf(env, order)
  if (!seller || !figures) return []
  return documentStatements(env.DB, {
    kind: 'invoice',
    prefix: seller.invoicePrefix,
    order,
    figures,
    lines: figures.lines,
    data: {
      kind: 'invoice',
      date: istDate(now),
      orderDate: order.created_at,
      currency: order.currency,
      figures,
    },
    now,
    source: null,
    guard: `EXISTS (SELECT 1 FROM orders o WHERE o.client_order_id = ?22 AND ${INVOICEABLE_SQL})
        AND NOT EXISTS (SELECT 1 FROM tax_documents WHERE kind = 'invoice' AND client_order_id = ?22)`,
    guardBinds: [order.client_order_id],
  })
}

export interface StoredDocument {
  id: number
  kind: 'invoice' | 'credit_note'
  number: string
  issued_on: string
  data: string
}

/** An order's tax documents, oldest first. */
export async function documentsOf(db: D1Database, orderId: string) {
  const { results } = await db
    .prepare(
      'SELECT id, kind, number, issued_on, issued_at, total_minor, source FROM tax_documents WHERE client_order_id = ? ORDER BY id',
    )
    .bind(orderId)
    .all<{
      id: number
      kind: 'invoice' | 'credit_note'
      number: string
      issued_on: string
      issued_at: string
      total_minor: number
      source: string | null
    }>()
  return results
}
