/**
 * Orders in the back office: one order's detail (its money included), and every change an
 * operator makes to an order (the list is order-list.ts). A status change goes through transitionOrder only (compare-and-set,
 * stock and credit back exactly once); money goes back through refundOrder only; a note is an
 * order event. Each change also writes an audit row.
 */
import { isOrderStatus, ORDER_TRANSITIONS, type OrderStatus } from '@shared/config/order-status'
import { z } from 'zod'
import { heldForRedeemedCards, orderHold, refundRoom } from '../api/giftcard/ledger'
import { runAfterAnswer } from '../api/mail/deliver'
import { notifyOrder } from '../api/mail/notify'
import { type OrderDocument, parseOrderDocument } from '../api/order/document'
import { orderEventStatement, transitionOrder } from '../api/order/lifecycle'
import { findOrderByAnyId, type OrderRow } from '../api/order/repo'
import { purgeStockFlips } from '../api/order/stock-pages'
import { refundOrder } from '../api/payment/refund'
import { documentsOnMove } from '../documents/credit-notes'
import { INVOICEABLE_SQL } from '../documents/issue'
import type { AppConfig } from '../platform/env'
import { fail } from '../platform/http'
import { orderAudit } from './audit'
import { amountTyped, oneAmount, requiredText } from './input'

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
  /** The shopper's WhatsApp number (when they opted in at checkout) and the messages sent to it. */
  whatsapp: {
    phone: string | null
    messages: { kind: string; status: string; delivery_status: string | null; created_at: string }[]
  }
  doc: OrderDocument
  events: OrderEventRow[]
  /** Statuses an operator may move it to now. */
  next: readonly OrderStatus[]
  /** Its gift cards and store credit, and what a refund may give back now. */
  hold: Awaited<ReturnType<typeof orderHold>>
  room: ReturnType<typeof refundRoom>
  /** Every payment a provider reported for it, and every refund. */
  payments: {
    provider: string
    provider_payment_id: string
    amount_minor: number
    currency: string
    status: string
    refund_id: string | null
  }[]
  refunds: {
    provider: string
    provider_refund_id: string | null
    amount_minor: number
    currency: string
    status: string
    actor: string
    reason: string
    created_at: string
  }[]
  /** Its tax invoice and credit notes, and whether it may be invoiced now. */
  documents: OrderDocumentRow[]
  invoiceable: boolean
}

/** An order by its number (or client id) with its history and money; 404 when there is none. */
export async function orderDetail(db: D1Database, number: string): Promise<OrderDetail> {
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  const [events, payments, refunds, documents, invoiceable, phone, messages] = await db.batch([
    db
      .prepare('SELECT * FROM order_events WHERE client_order_id = ? ORDER BY id')
      .bind(order.client_order_id),
    db
      .prepare(
        'SELECT provider, provider_payment_id, amount_minor, currency, status, refund_id FROM provider_payments WHERE client_order_id = ? ORDER BY id',
      )
      .bind(order.client_order_id),
    db
      .prepare(
        'SELECT provider, provider_refund_id, amount_minor, currency, status, actor, reason, created_at FROM refunds WHERE client_order_id = ? ORDER BY id',
      )
      .bind(order.client_order_id),
    db
      .prepare(
        'SELECT id, kind, number, issued_on, total_minor FROM tax_documents WHERE client_order_id = ? ORDER BY id',
      )
      .bind(order.client_order_id),
    db
      .prepare(`SELECT 1 AS ok FROM orders o WHERE o.client_order_id = ? AND ${INVOICEABLE_SQL}`)
      .bind(order.client_order_id),
    db.prepare('SELECT phone FROM order_messaging WHERE client_order_id = ?').bind(order.client_order_id),
    db
      .prepare(
        'SELECT kind, status, delivery_status, created_at FROM message_outbox WHERE client_order_id = ? ORDER BY id LIMIT 50',
      )
      .bind(order.client_order_id),
  ])
  const next = isOrderStatus(order.status)
    ? ORDER_TRANSITIONS[order.status].filter((s) => s !== 'closed')
    : []
  const hold = await orderHold(db, order.client_order_id)
  return {
    order,
    whatsapp: {
      phone: ((phone?.results ?? []) as { phone: string }[])[0]?.phone ?? null,
      messages: (messages?.results ?? []) as OrderDetail['whatsapp']['messages'],
    },
    doc: parseOrderDocument(order.doc),
    events: (events?.results ?? []) as OrderEventRow[],
    next,
    hold,
    room: refundRoom(order, hold),
    payments: (payments?.results ?? []) as OrderDetail['payments'],
    refunds: (refunds?.results ?? []) as OrderDetail['refunds'],
    documents: (documents?.results ?? []) as OrderDocumentRow[],
    invoiceable: (invoiceable?.results?.length ?? 0) > 0,
  }
}

/** What an operator may ask of an order's status. */
export const TransitionSchema = z.discriminatedUnion(
  'to',
  [
    z.object({ to: z.literal('processing') }),
    z.object({ to: z.literal('packed') }),
    z.object({
      to: z.literal('shipped'),
      carrier: requiredText('carrier', 80),
      tracking_number: requiredText('tracking_number', 80),
    }),
    z.object({ to: z.literal('delivered') }),
    z.object({ to: z.literal('canceled'), reason: requiredText('reason', 500) }),
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
    reason: requiredText('reason', 500),
  })
  .transform(oneAmount)

export const NoteSchema = z.object({ text: requiredText('text', 2000) })

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
 * credit back (once, with the status change) and refunds what was paid and not yet refunded (the
 * refund mails the shopper itself). The shopper is mailed about the move after the answer. A move the order's status does not allow, or one that
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
      withMove: orderAudit(
        db,
        x.actor,
        req.to,
        order,
        { before: { status: order.status }, after: { status: req.to, ...detail } },
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
  let owed = result.order.paid_minor - result.order.refunded_minor
  if (canceling) {
    // A sku the cancel brought back leaves its cached "Out of stock" product pages.
    await purgeStockFlips(x.env, order.client_order_id, 'returned')
    // What the order paid for gift cards already redeemed is not given back (by refund or as store
    // credit): it says so in the history, for the operator to decide.
    const room = refundRoom(result.order, await orderHold(db, order.client_order_id))
    owed = Math.min(owed, room.max)
    if (room.redeemedMinor > 0) {
      await orderEventStatement(
        db,
        order.client_order_id,
        { kind: 'note', actor: 'system', detail: { text: heldForRedeemedCards(order, room) } },
        now,
      ).run()
    }
  }
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
    await orderAudit(
      db,
      x.actor,
      'refund',
      order,
      {
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

/**
 * Refunds part (or the rest) of what an order was paid; never more than paid and not yet refunded
 * (the refund mails the shopper itself).
 */
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
  await orderAudit(
    db,
    x.actor,
    'refund',
    order,
    {
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
    orderAudit(db, x.actor, 'note', order, { after: { text: note } }, now),
  ])
  return { noted: true }
}
