/**
 * The operator's inspection of a return that arrived (docs/fulfilment.md): a decision per piece;
 * accepted pieces go back into stock, rejected ones do not; the money follows the return's
 * resolution and never exceeds what was paid and not yet refunded (refundOrder reserves it).
 */
import { moveCredit } from '../admin/customers'
import { runAfterAnswer } from '../api/mail/deliver'
import { notifyOrder } from '../api/mail/notify'
import { orderEventStatement } from '../api/order/lifecycle'
import { findOrderByClientId, type OrderRow } from '../api/order/repo'
import { refundOrder } from '../api/payment/refund'
import { magentoDate } from '../api/user/repo'
import type { AppConfig } from '../platform/env'
import { fail } from '../platform/http'
import { bumpIndexVersionStatement } from '../search'
import { bookNow, enqueueShipment } from './book'
import { releaseExchangeHolds } from './return-parcels'
import type { ReturnRow } from './returns'

type Ctx = { env: Env; config: AppConfig; executionCtx: Pick<ExecutionContext, 'waitUntil'> }

/**
 * The operator's inspection of a return that arrived: a decision per piece. Accepted pieces go
 * back into stock; the money follows the return's resolution. For a cash-on-delivery order a
 * refund to the "original method" is a payout the operator makes by bank or UPI: its reference is
 * required and recorded with the refund.
 */
export async function inspectReturn(
  x: Ctx,
  returnId: number,
  decisions: Record<string, 'accepted' | 'rejected'>,
  payoutReference: string | null,
  actor: string,
  now: number,
) {
  const db = x.env.DB
  const ret = await db.prepare('SELECT * FROM returns WHERE id = ?').bind(returnId).first<ReturnRow>()
  if (!ret) return fail(404, `Return ${returnId} does not exist.`)
  if (ret.status !== 'received')
    return fail(
      409,
      `Return R${ret.number} is ${ret.status.replace('_', ' ')}; only a return that has arrived can be inspected.`,
    )
  const order = (await findOrderByClientId(db, ret.client_order_id)) as OrderRow
  const { results: items } = await db
    .prepare(
      'SELECT id, sku, qty, unit_minor, exchange_sku, exchange_unit_minor FROM return_items WHERE return_id = ? ORDER BY id',
    )
    .bind(returnId)
    .all<{
      id: number
      sku: string
      qty: number
      unit_minor: number
      exchange_sku: string | null
      exchange_unit_minor: number | null
    }>()
  for (const it of items)
    if (decisions[String(it.id)] !== 'accepted' && decisions[String(it.id)] !== 'rejected')
      return fail(400, 'Every piece needs a decision: accepted or rejected.')
  const accepted = items.filter((it) => decisions[String(it.id)] === 'accepted')
  const value = accepted.reduce((s, it) => s + it.unit_minor * it.qty, 0)
  const cod = order.payment_method === 'cashondelivery'
  if (ret.resolution === 'refund' && cod && value > 0 && !payoutReference)
    return fail(
      400,
      'This order was paid in cash: give the bank or UPI reference of the payout (or the shopper takes store credit).',
    )
  const stamp = magentoDate(now)
  const exchange = ret.resolution === 'exchange'
  const difference = accepted.reduce(
    (s, it) => s + ((it.exchange_unit_minor ?? it.unit_minor) - it.unit_minor) * it.qty,
    0,
  )
  const nextStatus = exchange && accepted.length > 0 ? 'exchange_shipping' : 'closed'
  // The claim: decisions, restock and the status move in one batch, guarded by the status.
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `UPDATE returns SET status = ?, difference_minor = ?, updated_at = ? WHERE id = ? AND status = 'received'`,
      )
      .bind(nextStatus, exchange ? difference : 0, stamp, returnId),
  ]
  for (const it of items)
    statements.push(
      db
        .prepare(
          `UPDATE return_items SET decision = ? WHERE id = ? AND decision = 'pending' AND (SELECT status FROM returns WHERE id = ?) = ?`,
        )
        .bind(decisions[String(it.id)], it.id, returnId, nextStatus),
    )
  statements.push(
    db
      .prepare(
        `UPDATE inventory SET qty = qty + (SELECT SUM(qty) FROM return_items WHERE return_id = ?1 AND decision = 'accepted' AND restocked = 0 AND sku = inventory.sku)
         WHERE manage_stock = 1 AND sku IN (SELECT sku FROM return_items WHERE return_id = ?1 AND decision = 'accepted' AND restocked = 0)`,
      )
      .bind(returnId),
    db
      .prepare(`UPDATE return_items SET restocked = 1 WHERE return_id = ? AND decision = 'accepted'`)
      .bind(returnId),
    // Sizes held for pieces that were rejected go back on sale.
    ...releaseExchangeHolds(db, returnId, true),
    bumpIndexVersionStatement(db),
    orderEventStatement(
      db,
      ret.client_order_id,
      {
        kind: 'note',
        actor,
        detail: {
          text: `Return R${ret.number} inspected: ${accepted.length} of ${items.length} piece lines accepted`,
          accepted: accepted.map((a) => a.sku),
        },
      },
      now,
    ),
  )
  const [claim] = await db.batch(statements)
  if (claim?.meta.changes !== 1)
    return fail(409, `Return R${ret.number} was inspected by someone else a moment ago.`)
  let refunded = 0
  let credited = 0
  let message: string | null = null
  const refund = async (amount: number, reason: string) => {
    const r = await refundOrder(
      x.env,
      x.config,
      { orderId: ret.client_order_id, amountMinor: amount, actor, reason },
      now,
    )
    if (!r.ok) message = r.message
    return r.ok
  }
  if (!exchange && value > 0) {
    // Never more than was paid and not yet refunded (refundOrder reserves it).
    const amount = Math.min(value, order.paid_minor - order.refunded_minor)
    if (ret.resolution === 'store_credit' && order.customer_id !== null && amount > 0) {
      if (await refund(amount, `Return R${ret.number} as store credit`)) {
        await moveCredit(
          db,
          order.customer_id,
          { amount_minor: amount, comment: `Return R${ret.number} of order ${order.increment_id}` },
          actor,
          now,
        )
        credited = amount
      }
    } else if (amount > 0) {
      const reason = payoutReference
        ? `Return R${ret.number}: paid out by bank/UPI, reference ${payoutReference}`
        : `Return R${ret.number}`
      if (await refund(amount, reason)) refunded = amount
    }
  }
  if (exchange && accepted.length > 0) {
    // A cheaper size: the difference goes back (store credit for a customer, else the original method).
    if (difference < 0) {
      const amount = Math.min(-difference, order.paid_minor - order.refunded_minor)
      if (amount > 0 && (await refund(amount, `Return R${ret.number}: price difference of the exchange`))) {
        if (order.customer_id !== null)
          await moveCredit(
            db,
            order.customer_id,
            { amount_minor: amount, comment: `Exchange R${ret.number} difference` },
            actor,
            now,
          )
        refunded = amount
      }
    }
    const replacement = await enqueueShipment(
      db,
      {
        orderId: ret.client_order_id,
        kind: 'forward',
        ref: `${order.increment_id}-X${ret.number}`,
        returnId,
        // A dearer size: the courier collects the difference in cash with the replacement.
        codMinor: Math.max(0, difference),
      },
      now,
    )
    await bookNow(x.env, replacement.id, now)
  }
  await db
    .prepare(
      "UPDATE returns SET refund_minor = ?, credit_minor = ?, status = CASE WHEN ? THEN 'refund_failed' ELSE status END WHERE id = ?",
    )
    .bind(refunded, credited, message !== null ? 1 : 0, returnId)
    .run()
  runAfterAnswer(
    x,
    () =>
      notifyOrder(
        x.env,
        x.config,
        accepted.length > 0 ? 'return_received' : 'return_rejected',
        ret.client_order_id,
        now,
      ),
    'return mail',
  )
  return {
    status: message ? 'refund_failed' : nextStatus,
    refunded_minor: refunded,
    credited_minor: credited,
    message,
  }
}
