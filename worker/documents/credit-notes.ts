/**
 * Credit notes (CGST Act s. 34): issued in the batch of the refund, return or cancel they answer,
 * against the order's invoice, through the same numbered statement as invoices (./issue.ts).
 */
import { istDate } from '@shared/domain/gst'
import {
  type CreditRequest,
  CreditTooLarge,
  creditLines,
  type DocumentLine,
  remainingLines,
  totalsOf,
} from '@shared/domain/tax-document'
import { parseOrderDocument } from '../api/order/document'
import { documentStatements, invoiceStatements, type OrderSource, type StoredDocument } from './issue'
import type { DocumentData } from './render'
import { sellerConfig } from './seller'

/** What a credit note answers: a refund of an amount in the order's currency, or pieces returned. */
interface CreditSource {
  /** Unique per refund or return ('refund:<id>'), so the same one is never credited twice. */
  source: string
  reason: string
  /** Money given back, in the order's currency (minor units). */
  amountMinor?: number
  /** Everything still on the invoice (a cancel or a final refund). */
  full?: boolean
  /** Pieces returned: the invoice line index and quantity. */
  lines?: { index: number; qty: number }[]
  /** Write it only if the order then has this status (a credit note issued with a cancel). */
  onlyIfStatus?: string
}

/**
 * The statement that issues a credit note against the order's invoice in the batch of a refund or
 * return (CGST Act s. 34): tax reversed line by line at the invoice's rates, never more than the
 * invoice still has (a refund of more — a gift card on the same order — credits what is left).
 * None when the order has no invoice (nothing was invoiced, so nothing is credited) or nothing is
 * left on it. It writes only if the invoice exists and this source was not credited before.
 */
export async function creditNoteStatements(
  env: Env,
  order: OrderSource,
  credit: CreditSource,
  now: number,
): Promise<D1PreparedStatement[]> {
  const seller = sellerConfig(env)
  if (!seller) return []
  const db = env.DB
  const { results } = await db
    .prepare(
      'SELECT id, kind, number, issued_on, data FROM tax_documents WHERE client_order_id = ? ORDER BY id',
    )
    .bind(order.client_order_id)
    .all<StoredDocument>()
  const invoiceRow = results.find((r) => r.kind === 'invoice')
  if (!invoiceRow) return []
  const invoice = JSON.parse(invoiceRow.data) as DocumentData
  const earlier = results
    .filter((r) => r.kind === 'credit_note')
    .map((r) => (JSON.parse(r.data) as DocumentData).figures.lines)
  const remaining = remainingLines(invoice.figures.lines, earlier)
  const left = remaining.reduce((s, l) => s + l.valueMinor, 0)
  if (left <= 0) return []
  let request: CreditRequest
  if (credit.full) request = { kind: 'full' }
  else if (credit.lines?.length) request = { kind: 'lines', lines: credit.lines }
  else {
    const amount = credit.amountMinor ?? 0
    if (amount <= 0) return []
    // The refund in INR: as is for an INR order, else in the proportion of the order's two totals.
    const inr =
      order.currency === 'INR'
        ? amount
        : Math.round((amount * invoice.figures.totals.valueMinor) / Math.max(1, order.grand_total_minor ?? 1))
    request = inr >= left ? { kind: 'full' } : { kind: 'amount', valueMinor: inr }
  }
  let lines: DocumentLine[]
  try {
    lines = creditLines(remaining, request)
  } catch (err) {
    if (err instanceof CreditTooLarge || err instanceof RangeError) {
      console.error(
        JSON.stringify({ msg: 'credit note not issued', order: order.client_order_id, err: String(err) }),
      )
      return []
    }
    throw err
  }
  const figures = { ...invoice.figures, lines, totals: totalsOf(lines), vouchers: [], storeCreditMinor: 0 }
  return documentStatements(db, {
    kind: 'credit_note',
    prefix: seller.creditNotePrefix,
    order,
    figures,
    lines,
    data: {
      kind: 'credit_note',
      date: istDate(now),
      orderDate: order.created_at,
      currency: order.currency,
      figures: { ...figures, supplier: seller.supplier },
      invoice: { number: invoiceRow.number, date: invoiceRow.issued_on },
      reason: credit.reason.slice(0, 300),
    },
    now,
    source: credit.source,
    guard: `EXISTS (SELECT 1 FROM tax_documents WHERE kind = 'invoice' AND client_order_id = ?22)
        AND NOT EXISTS (SELECT 1 FROM tax_documents WHERE source = ?23)
        AND (?24 IS NULL OR EXISTS (SELECT 1 FROM orders WHERE client_order_id = ?22 AND status = ?24))`,
    guardBinds: [order.client_order_id, credit.source, credit.onlyIfStatus ?? null],
  })
}

/** The store credit an order was paid with (minor units of its currency). */
function storeCreditSpent(order: OrderSource): number {
  const doc = parseOrderDocument(order.doc)
  return Math.round((doc.customer_balance_amount ?? 0) * 100)
}

/**
 * The documents an operator's move of an order issues in the move's batch: shipping invoices a
 * cash-on-delivery order (the goods leave); cancelling an invoiced order credits the store credit
 * the cancel gives back (the money refunded after it gets its own credit note from the refund).
 */
export async function documentsOnMove(
  env: Env,
  order: OrderSource,
  move: { to: string; reason?: string },
  now: number,
): Promise<D1PreparedStatement[]> {
  if (move.to === 'shipped') return invoiceStatements(env, order, now)
  const credit = storeCreditSpent(order)
  if (move.to !== 'canceled' || credit <= 0) return []
  return creditNoteStatements(
    env,
    order,
    {
      source: `cancel-credit:${order.client_order_id}`,
      reason: `Canceled: ${move.reason ?? ''}`,
      amountMinor: credit,
      onlyIfStatus: 'canceled',
    },
    now,
  )
}
