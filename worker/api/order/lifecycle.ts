/**
 * Moving an order through its lifecycle. A transition is a compare-and-set on the order's status:
 * it applies only when the order still has the status it was read with, and everything that must
 * happen with it (the event row, the stock going back, payment columns) runs in the SAME batch,
 * guarded by the same condition. Two concurrent cancels, an expiry racing a payment, a webhook
 * arriving twice: exactly one of them changes the order, the others change nothing and say so.
 */
import {
  isOrderStatus,
  ORDER_TRANSITIONS,
  type OrderStatus,
  type PaymentState,
} from '@shared/config/order-status'
import { bumpIndexVersionStatement } from '../../search'
import { runAfterAnswer } from '../mail/deliver'
import { mailRestocked } from '../stock-alerts/notify'
import { magentoDate } from '../user/repo'
import { findOrderByClientId, type OrderRow } from './repo'

/** Who made a change: 'shopper', 'system', 'provider:<name>' or an operator's e-mail. */
type Actor = string

type EventKind = 'status' | 'payment' | 'refund' | 'note' | 'mail'

/**
 * An event row for an order (status changes are written by transitionOrder itself). With
 * `onlyAfterChange` the row is written only when the statement before it in the same batch changed
 * a row, so an event stands for a change that happened.
 */
export function orderEventStatement(
  db: D1Database,
  orderId: string,
  event: { kind: EventKind; actor: Actor; detail?: Record<string, unknown>; from?: string; to?: string },
  now: number,
  opts: { onlyAfterChange?: boolean } = {},
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO order_events (client_order_id, kind, from_status, to_status, actor, detail, created_at)
       SELECT ?, ?, ?, ?, ?, ?, ? WHERE ? = 0 OR changes() = 1`,
    )
    .bind(
      orderId,
      event.kind,
      event.from ?? null,
      event.to ?? null,
      event.actor,
      JSON.stringify(event.detail ?? {}),
      magentoDate(now),
      opts.onlyAfterChange ? 1 : 0,
    )
}

/**
 * The rows of order_items that stand for stock: every row of a line that is stocked itself, and
 * every linked product a bundle or grouped line consumed (its parent row holds no stock).
 */
export const STOCK_ROWS = `oi.client_order_id = ?1 AND (oi.parent_sku IS NOT NULL OR oi.sku NOT IN (
  SELECT parent_sku FROM order_items WHERE client_order_id = ?1 AND parent_sku IS NOT NULL))`

/**
 * Puts an order's stock back, only while the order still has `fromStatus` and its stock has not
 * gone back before; the transition's own update then stamps stock_released_at in the same batch.
 */
function releaseStockStatement(db: D1Database, orderId: string, fromStatus: string): D1PreparedStatement {
  const units = `(SELECT SUM(oi.qty) FROM order_items oi WHERE ${STOCK_ROWS} AND oi.sku = inventory.sku)`
  return db
    .prepare(
      `UPDATE inventory SET qty = qty + ${units}
       WHERE manage_stock = 1 AND sku IN (SELECT oi.sku FROM order_items oi WHERE ${STOCK_ROWS})
         AND EXISTS (SELECT 1 FROM orders WHERE client_order_id = ?1 AND status = ?2 AND stock_released_at IS NULL)`,
    )
    .bind(orderId, fromStatus)
}

/**
 * Unwinds the store credit and gift cards of an order, only while the order still has
 * `fromStatus`: the store credit it spent (its net ledger amount) goes back, less the value of the
 * gift cards it bought that were redeemed already (that value is store credit by now: giving it
 * back would make credit from nothing); then its gift cards not yet redeemed are voided. The
 * balance first, then the ledger row with the balance after it.
 */
function returnCreditStatements(
  db: D1Database,
  orderId: string,
  fromStatus: string,
  stamp: string,
): D1PreparedStatement[] {
  const guard = 'EXISTS (SELECT 1 FROM orders WHERE client_order_id = ?1 AND status = ?2)'
  const redeemed = `(SELECT COALESCE(SUM(paid_minor - clawed_minor), 0) FROM gift_cards
    WHERE client_order_id = ?1 AND status = 'redeemed')`
  const spent = `SELECT customer_id, -SUM(amount_minor) - ${redeemed} AS minor FROM store_credit_ledger
    WHERE order_id = ?1 AND ${guard} GROUP BY customer_id HAVING -SUM(amount_minor) - ${redeemed} > 0`
  return [
    db
      .prepare(
        `INSERT INTO store_credit (customer_id, balance_minor, updated_at)
         SELECT customer_id, minor, ?3 FROM (${spent}) WHERE true
         ON CONFLICT(customer_id) DO UPDATE SET balance_minor = balance_minor + excluded.balance_minor,
           updated_at = excluded.updated_at`,
      )
      .bind(orderId, fromStatus, stamp),
    db
      .prepare(
        `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, order_id, comment, created_at)
         SELECT s.customer_id, s.minor, b.balance_minor, ?1, 'Returned: order not completed', ?3
         FROM (${spent}) s JOIN store_credit b ON b.customer_id = s.customer_id`,
      )
      .bind(orderId, fromStatus, stamp),
    db
      .prepare(
        `UPDATE gift_cards SET status = 'void', clawed_minor = paid_minor
         WHERE client_order_id = ?1 AND status = 'issued' AND ${guard}`,
      )
      .bind(orderId, fromStatus),
  ]
}

export interface Transition {
  /** The order's client order id (orders.client_order_id). */
  orderId: string
  to: OrderStatus
  actor: Actor
  /** Why, and anything an operator wants to read later (carrier, tracking number, provider ids). */
  detail?: Record<string, unknown>
  /** Give the order's stock back (cancel, expiry); happens at most once per order, ever. */
  releaseStock?: boolean
  /** Give back the store credit the order spent and void its unredeemed gift cards (cancel, expiry). */
  returnCredit?: boolean
  /** Set the payment state with the status (e.g. paid → 'paid'). */
  paymentState?: PaymentState
  /** Add to the amount paid (minor units), with paymentState 'paid'. */
  paidMinor?: number
  /**
   * Only move from one of these statuses (default: any status allowed to move to `to`). A status
   * listed here that equals `to` allows a move that keeps the status and records a payment state
   * (a confirmed cash-on-delivery order paid online stays 'processing').
   */
  from?: readonly OrderStatus[]
  /**
   * A further SQL condition on the order's row (columns of `orders`, no parameters) that the move
   * needs at the moment it is written: checked by the same statements as the status, so a change
   * that makes it false in between makes the move change nothing ('raced').
   */
  onlyIf?: string
  /**
   * A row that must exist exactly when the move happened (an operator's audit row): it runs in the
   * same batch right after the status update and must be conditional on `changes() = 1`.
   */
  withMove?: D1PreparedStatement
  /**
   * Tax documents the move issues (an invoice at payment or shipping, a credit note at a cancel):
   * run in the same batch after the move, each written only under its own condition on the
   * order's new state (worker/documents/issue.ts).
   */
  documents?: readonly D1PreparedStatement[]
  /**
   * The request being answered, when there is one: stock that came back (releaseStock) mails the
   * shoppers waiting for those skus right after its answer, not on the next scheduled run.
   */
  answering?: { env: Env; executionCtx: Pick<ExecutionContext, 'waitUntil'> }
}

type TransitionResult =
  | { changed: true; from: OrderStatus; order: OrderRow }
  | { changed: false; reason: 'not-found' | 'not-allowed' | 'raced'; status: string | null }

/**
 * Moves an order to `t.to` if its current status allows it. Returns changed: false without
 * writing anything when the order is gone, the move is not allowed from its status, or another
 * change won the race.
 */
export async function transitionOrder(db: D1Database, t: Transition, now: number): Promise<TransitionResult> {
  const current = await findOrderByClientId(db, t.orderId)
  if (!current) return { changed: false, reason: 'not-found', status: null }
  const from = current.status
  const allowedFrom = t.from ?? null
  const keepsStatus = t.to === from && t.paymentState !== undefined && allowedFrom?.includes(from) === true
  if (
    !isOrderStatus(from) ||
    !(ORDER_TRANSITIONS[from].includes(t.to) || keepsStatus) ||
    (allowedFrom && !allowedFrom.includes(from))
  ) {
    return { changed: false, reason: 'not-allowed', status: from }
  }
  const stamp = magentoDate(now)
  const guard = `client_order_id = ? AND status = ?${t.onlyIf ? ` AND (${t.onlyIf})` : ''}`
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO order_events (client_order_id, kind, from_status, to_status, actor, detail, created_at)
         SELECT client_order_id, 'status', status, ?, ?, ?, ? FROM orders WHERE ${guard}`,
      )
      .bind(t.to, t.actor, JSON.stringify(t.detail ?? {}), stamp, t.orderId, from),
  ]
  // Stock coming back may make a sku sellable again: the catalogue version moves on so in-stock
  // listings are computed afresh.
  if (t.releaseStock)
    statements.push(releaseStockStatement(db, t.orderId, from), bumpIndexVersionStatement(db))
  if (t.returnCredit) statements.push(...returnCreditStatements(db, t.orderId, from, stamp))
  const sets = ['status = ?', 'updated_at = ?']
  const values: unknown[] = [t.to, stamp]
  if (t.releaseStock) {
    sets.push('stock_released_at = COALESCE(stock_released_at, ?)')
    values.push(stamp)
  }
  if (t.paymentState) {
    sets.push('payment_state = ?')
    values.push(t.paymentState)
  }
  if (t.paidMinor) {
    sets.push('paid_minor = paid_minor + ?')
    values.push(t.paidMinor)
  }
  statements.push(
    db.prepare(`UPDATE orders SET ${sets.join(', ')} WHERE ${guard}`).bind(...values, t.orderId, from),
  )
  const updateAt = statements.length - 1
  if (t.withMove) statements.push(t.withMove)
  if (t.documents) statements.push(...t.documents)
  const results = await db.batch(statements)
  const update = results[updateAt]
  if (update?.meta.changes !== 1) return { changed: false, reason: 'raced', status: from }
  const released = t.releaseStock ? (results[1]?.meta.changes ?? 0) : 0
  if (released > 0 && t.answering) {
    const { env } = t.answering
    runAfterAnswer(
      t.answering,
      async () => {
        const { results: rows } = await env.DB.prepare(
          `SELECT DISTINCT oi.sku FROM order_items oi WHERE ${STOCK_ROWS}`,
        )
          .bind(t.orderId)
          .all<{ sku: string }>()
        return mailRestocked(
          env,
          rows.map((r) => r.sku),
          Date.now(),
        )
      },
      'back-in-stock mail',
    )
  }
  const order = (await findOrderByClientId(db, t.orderId)) as OrderRow
  return { changed: true, from: from as OrderStatus, order }
}
