/**
 * Orders in the back office: the list (filters, paging, CSV), one order's detail, and every change
 * an operator makes to an order. A status change goes through transitionOrder only (compare-and-set,
 * stock and credit back exactly once); money goes back through refundOrder only; a note is an
 * order event. Each change also writes an audit row.
 */
import { isOrderStatus, ORDER_TRANSITIONS, type OrderStatus } from '@shared/config/order-status'
import { shopTimeZone } from '@shared/config/store'
import { storedInstant, zonedDateTime, zonedDayRange } from '@shared/domain/shop-clock'
import { z } from 'zod'
import { runAfterAnswer } from '../api/mail/deliver'
import { notifyOrder } from '../api/mail/notify'
import { orderEventStatement, transitionOrder } from '../api/order/lifecycle'
import { findOrderByAnyId, type OrderRow } from '../api/order/repo'
import { refundOrder } from '../api/payment/refund'
import { magentoDate } from '../api/user/repo'
import { documentsOnMove } from '../documents/credit-notes'
import { INVOICEABLE_SQL } from '../documents/issue'
import type { AppConfig } from '../platform/env'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import { amountTyped, containsPattern, oneAmount } from './input'

export const PAGE_SIZE = 25
const MAX_CSV_ROWS = 5000

const dateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .optional()

export const OrderFilterSchema = z.object({
  status: z
    .string()
    .max(40)
    .refine(isOrderStatus, 'is not an order status')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  payment: z
    .enum(['none', 'awaiting', 'paid', 'failed', 'partially_refunded', 'refunded'], {
      error: 'is not a payment state',
    })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  from: dateParam.or(z.literal('').transform(() => undefined)),
  to: dateParam.or(z.literal('').transform(() => undefined)),
  q: z.string().trim().max(200, 'is too long').optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
})
export type OrderFilter = z.infer<typeof OrderFilterSchema>

export interface OrderListRow {
  entity_id: number
  client_order_id: string
  increment_id: string
  customer_email: string
  status: string
  payment_state: string
  payment_method: string
  currency: string
  grand_total_minor: number | null
  paid_minor: number
  refunded_minor: number
  created_at: string
}

/** The WHERE clause of a filter (every value bound, never spliced). */
function whereOf(f: OrderFilter): { sql: string; binds: unknown[] } {
  const parts: string[] = []
  const binds: unknown[] = []
  if (f.status) parts.push('status = ?') && binds.push(f.status)
  if (f.payment) parts.push('payment_state = ?') && binds.push(f.payment)
  // From and to are days of the shop's calendar (its time zone); created_at is stored in UTC.
  if (f.from)
    parts.push('created_at >= ?') && binds.push(magentoDate(zonedDayRange(f.from, shopTimeZone()).start))
  if (f.to) parts.push('created_at < ?') && binds.push(magentoDate(zonedDayRange(f.to, shopTimeZone()).end))
  if (f.q) {
    const q = f.q
    const like = containsPattern(q)
    parts.push(`(increment_id = ? OR customer_email LIKE ? ESCAPE '\\'
      OR json_extract(doc, '$.billing_address.telephone') LIKE ? ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM order_items oi WHERE oi.client_order_id = orders.client_order_id AND oi.sku = ?))`)
    binds.push(q, like, like, q)
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', binds }
}

const LIST_COLUMNS = `entity_id, client_order_id, increment_id, customer_email, status, payment_state, payment_method,
  currency, grand_total_minor, paid_minor, refunded_minor, created_at`

/** One page of orders, newest first, with the total count of the filter. */
export async function listOrders(
  db: D1Database,
  f: OrderFilter,
): Promise<{ rows: OrderListRow[]; total: number }> {
  const { sql, binds } = whereOf(f)
  const [rows, count] = await db.batch([
    db
      .prepare(`SELECT ${LIST_COLUMNS} FROM orders ${sql} ORDER BY entity_id DESC LIMIT ? OFFSET ?`)
      .bind(...binds, PAGE_SIZE, (f.page - 1) * PAGE_SIZE),
    db.prepare(`SELECT COUNT(*) AS n FROM orders ${sql}`).bind(...binds),
  ])
  return {
    rows: (rows?.results ?? []) as OrderListRow[],
    total: Number((count?.results?.[0] as { n: number } | undefined)?.n ?? 0),
  }
}

/** A CSV cell: quoted, quotes doubled, and a leading formula character neutralised for spreadsheets. */
export function csvCell(value: unknown): string {
  let s = value == null ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return `"${s.replace(/"/g, '""')}"`
}

/** The filter's orders as CSV (at most MAX_CSV_ROWS, newest first). */
export async function ordersCsv(db: D1Database, f: OrderFilter): Promise<string> {
  const { sql, binds } = whereOf(f)
  const { results } = await db
    .prepare(`SELECT ${LIST_COLUMNS} FROM orders ${sql} ORDER BY entity_id DESC LIMIT ?`)
    .bind(...binds, MAX_CSV_ROWS)
    .all<OrderListRow>()
  const header = [
    'number',
    `created_at (${shopTimeZone()})`,
    'email',
    'status',
    'payment_state',
    'payment_method',
    'currency',
    'total_minor',
    'paid_minor',
    'refunded_minor',
  ]
  const lines = results.map((r) =>
    [
      r.increment_id,
      zonedDateTime(storedInstant(r.created_at) ?? 0, shopTimeZone()),
      r.customer_email,
      r.status,
      r.payment_state,
      r.payment_method,
      r.currency,
      r.grand_total_minor,
      r.paid_minor,
      r.refunded_minor,
    ]
      .map(csvCell)
      .join(','),
  )
  return `${[header.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`
}

interface OrderEventRow {
  id: number
  kind: string
  from_status: string | null
  to_status: string | null
  actor: string
  detail: string
  created_at: string
}

/** A tax document of the order, as its screen lists it. */
export interface OrderDocumentRow {
  id: number
  kind: 'invoice' | 'credit_note'
  number: string
  issued_on: string
  total_minor: number
}

export interface OrderDetail {
  order: OrderRow
  doc: Record<string, unknown>
  events: OrderEventRow[]
  /** Statuses an operator may move it to now. */
  next: readonly OrderStatus[]
  /** Its tax invoice and credit notes, and whether it may be invoiced now. */
  documents: OrderDocumentRow[]
  invoiceable: boolean
}

/** An order by its number (or client id) with its history; 404 when there is none. */
export async function orderDetail(db: D1Database, number: string): Promise<OrderDetail> {
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  const [events, documents, invoiceable] = await db.batch([
    db
      .prepare('SELECT * FROM order_events WHERE client_order_id = ? ORDER BY id')
      .bind(order.client_order_id),
    db
      .prepare(
        'SELECT id, kind, number, issued_on, total_minor FROM tax_documents WHERE client_order_id = ? ORDER BY id',
      )
      .bind(order.client_order_id),
    db
      .prepare(`SELECT 1 AS ok FROM orders o WHERE o.client_order_id = ? AND ${INVOICEABLE_SQL}`)
      .bind(order.client_order_id),
  ])
  const next = isOrderStatus(order.status)
    ? ORDER_TRANSITIONS[order.status].filter((s) => s !== 'closed')
    : []
  return {
    order,
    doc: JSON.parse(order.doc),
    events: (events?.results ?? []) as OrderEventRow[],
    next,
    documents: (documents?.results ?? []) as OrderDocumentRow[],
    invoiceable: (invoiceable?.results?.length ?? 0) > 0,
  }
}

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`)

/** What an operator may ask of an order's status. */
export const TransitionSchema = z.discriminatedUnion(
  'to',
  [
    z.object({ to: z.literal('processing') }),
    z.object({ to: z.literal('packed') }),
    z.object({
      to: z.literal('shipped'),
      carrier: text('carrier', 80),
      tracking_number: text('tracking_number', 80),
    }),
    z.object({ to: z.literal('delivered') }),
    z.object({ to: z.literal('canceled'), reason: text('reason', 500) }),
  ],
  { error: 'to must be one of processing, packed, shipped, delivered, canceled' },
)
type TransitionRequest = z.infer<typeof TransitionSchema>

export const RefundSchema = z
  .object({
    amount: amountTyped('amount').optional(),
    amount_minor: z.coerce
      .number()
      .int('amount_minor must be a whole number')
      .positive('amount_minor must be positive')
      .optional(),
    reason: text('reason', 500),
  })
  .transform(oneAmount)

export const NoteSchema = z.object({ text: text('text', 2000) })

interface Ctx {
  env: Env
  config: AppConfig
  executionCtx: Pick<ExecutionContext, 'waitUntil'>
  actor: string
}

const MAIL_OF: Partial<Record<OrderStatus, 'shipped' | 'delivered' | 'canceled'>> = {
  shipped: 'shipped',
  delivered: 'delivered',
  canceled: 'canceled',
}

/**
 * Moves an order (by number) as the operator asked. Cancelling gives the stock and any store
 * credit back (once, with the status change) and refunds what was paid and not yet refunded.
 * The shopper is mailed after the answer. A move the order's status does not allow, or one that
 * lost a race with another change, is a 409 that says what the status is now.
 */
export async function moveOrder(x: Ctx, number: string, req: TransitionRequest, now: number) {
  const db = x.env.DB
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  const detail: Record<string, string> = {}
  if (req.to === 'shipped')
    Object.assign(detail, { carrier: req.carrier, tracking_number: req.tracking_number })
  if (req.to === 'canceled') detail.reason = req.reason
  const canceling = req.to === 'canceled'
  const result = await transitionOrder(
    db,
    {
      orderId: order.client_order_id,
      to: req.to,
      actor: x.actor,
      detail,
      releaseStock: canceling,
      returnCredit: canceling,
      answering: x,
      // Confirming means what it says only for cash on delivery: an online order is confirmed by its payment.
      from: req.to === 'processing' ? ['pending'] : undefined,
      // The audit row is written with the move, in its batch, and only if the move happened.
      withMove: auditStatement(
        db,
        {
          actor: x.actor,
          action: `order.${req.to}`,
          target: `order:${order.increment_id}`,
          before: { status: order.status },
          after: { status: req.to, ...detail },
        },
        now,
        { onlyIfChanged: true },
      ),
      documents: await documentsOnMove(x.env, order, req, now),
    },
    now,
  )
  if (!result.changed) {
    const why = result.reason === 'raced' ? 'another change won the race' : 'its status does not allow it'
    return fail(
      409,
      `Order ${order.increment_id} cannot move to ${req.to}: ${why} (status ${result.status}).`,
    )
  }
  let refund: Awaited<ReturnType<typeof refundOrder>> | null = null
  const owed = result.order.paid_minor - result.order.refunded_minor
  if (canceling && owed > 0) {
    refund = await refundOrder(
      x.env,
      x.config,
      {
        orderId: order.client_order_id,
        amountMinor: owed,
        actor: x.actor,
        reason: `Canceled: ${req.reason}`,
      },
      now,
    )
    await auditStatement(
      db,
      {
        actor: x.actor,
        action: 'order.refund',
        target: `order:${order.increment_id}`,
        before: { refunded_minor: result.order.refunded_minor, payment_state: result.order.payment_state },
        after: refund.ok
          ? { refunded_minor: refund.refundedMinor, payment_state: refund.paymentState, reason: 'canceled' }
          : { failed: refund.message },
      },
      now,
    ).run()
  }
  const mail = MAIL_OF[req.to]
  if (mail)
    runAfterAnswer(
      x,
      () => notifyOrder(x.env, x.config, mail, order.client_order_id, now, detail),
      `order ${mail} mail`,
    )
  return { status: req.to, from: result.from, refund }
}

/** Refunds part or all of what is still refundable (never more); refundOrder sends the one refund mail. */
export async function refundPart(x: Ctx, number: string, req: z.infer<typeof RefundSchema>, now: number) {
  const db = x.env.DB
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  const result = await refundOrder(
    x.env,
    x.config,
    { orderId: order.client_order_id, amountMinor: req.amount_minor, actor: x.actor, reason: req.reason },
    now,
  )
  if (!result.ok) return fail(result.status, result.message)
  await auditStatement(
    db,
    {
      actor: x.actor,
      action: 'order.refund',
      target: `order:${order.increment_id}`,
      before: { refunded_minor: order.refunded_minor, payment_state: order.payment_state },
      after: { refunded_minor: result.refundedMinor, payment_state: result.paymentState, reason: req.reason },
    },
    now,
  ).run()
  return result
}

/** Adds an internal note to an order's history (never shown to the shopper). */
export async function addNote(x: Ctx, number: string, note: string, now: number) {
  const db = x.env.DB
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  await db.batch([
    orderEventStatement(
      db,
      order.client_order_id,
      { kind: 'note', actor: x.actor, detail: { text: note } },
      now,
    ),
    auditStatement(
      db,
      { actor: x.actor, action: 'order.note', target: `order:${order.increment_id}`, after: { text: note } },
      now,
    ),
  ])
  return { noted: true }
}
