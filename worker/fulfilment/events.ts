/**
 * The courier's tracking events, and what they move. The webhook is untrusted (it carries a static
 * token and no signature):
 * - the token (x-api-key) is compared with SHIPROCKET_WEBHOOK_TOKEN in constant time; a wrong or
 *   missing one is refused and nothing is stored;
 * - the raw body is stored once per distinct body: a repeat is answered 200 and changes nothing;
 * - nothing is taken from the body but the AWB and the claimed status: the parcel's status is READ
 *   BACK from the courier by AWB, and only the read-back moves anything. A claim the read-back
 *   disagrees with is recorded as such and not applied;
 * - a parcel only moves forward (./states.ts): a late "in transit" never undoes "delivered".
 * When the read-back cannot be made (the courier down), the stored row is dropped again and the
 * answer is 503, so a repeat of the same body is processed in full.
 */

import type { OrderStatus } from '@shared/config/order-status'
import { constantTimeEqual, sha256Hex } from '../api/auth/crypto'
import { runAfterAnswer } from '../api/mail/deliver'
import { notifyOrder } from '../api/mail/notify'
import { orderEventStatement, transitionOrder } from '../api/order/lifecycle'
import { findOrderByClientId } from '../api/order/repo'
import { magentoDate } from '../api/user/repo'
import type { AppConfig } from '../platform/env'
import { type ShipmentRow, shipmentById } from './book'
import { courierPort } from './config'
import { CourierError, type Tracking } from './port'
import { onReturnParcel } from './return-parcels'
import { movesForward, type ParcelState, STATE_RANK, stateOfCode } from './states'

/** The largest webhook body read (the documented body with its scans is a few KB). */
export const MAX_COURIER_EVENT_BYTES = 64 * 1024

type Answering = { env: Env; executionCtx: Pick<ExecutionContext, 'waitUntil'> }

async function sameToken(given: string, expected: string): Promise<boolean> {
  // Hashed first, so neither the length nor a prefix of the token shows in the time taken.
  const enc = new TextEncoder()
  return constantTimeEqual(enc.encode(await sha256Hex(given)), enc.encode(await sha256Hex(expected)))
}

type EventAnswer = { status: 200 | 401 | 400 | 503; outcome: string }

/** Handles one tracking webhook delivery. */
export async function receiveCourierEvent(
  x: Answering & { config: AppConfig },
  raw: string,
  token: string | null,
  now: number,
): Promise<EventAnswer> {
  const expected = (x.env as Env & { SHIPROCKET_WEBHOOK_TOKEN?: string }).SHIPROCKET_WEBHOOK_TOKEN
  if (!expected || !token || !(await sameToken(token, expected))) return { status: 401, outcome: 'refused' }
  let body: Record<string, unknown>
  try {
    body = JSON.parse(raw) as Record<string, unknown>
  } catch {
    return { status: 400, outcome: 'not JSON' }
  }
  const awb = typeof body.awb === 'string' || typeof body.awb === 'number' ? String(body.awb).trim() : ''
  const claimed = Number(body.shipment_status_id ?? body.current_status_id)
  if (!/^[A-Za-z0-9-]{1,40}$/.test(awb) || !Number.isInteger(claimed))
    return { status: 400, outcome: 'no AWB or status' }
  const db = x.env.DB
  const stored = await db
    .prepare(
      `INSERT INTO courier_events (body_hash, body, awb, status_id, received_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(body_hash) DO NOTHING RETURNING id`,
    )
    .bind(await sha256Hex(raw), raw, awb, claimed, magentoDate(now))
    .first<{ id: number }>()
  if (!stored) return { status: 200, outcome: 'duplicate' }
  const mark = (outcome: string) =>
    db.prepare('UPDATE courier_events SET outcome = ? WHERE id = ?').bind(outcome, stored.id).run()
  const shipment = await db.prepare('SELECT * FROM shipments WHERE awb = ?').bind(awb).first<ShipmentRow>()
  const port = courierPort(x.env)
  if (!shipment || !port) {
    await mark('unknown')
    return { status: 200, outcome: 'unknown' }
  }
  let tracking: Tracking
  try {
    tracking = await port.track(awb)
  } catch (err) {
    if (!(err instanceof CourierError)) throw err
    await db.prepare('DELETE FROM courier_events WHERE id = ?').bind(stored.id).run()
    return { status: 503, outcome: 'read-back failed' }
  }
  const applied = await applyTracking(x, shipment, tracking, 'provider:courier', now)
  const outcome = tracking.statusId !== claimed ? 'disagrees' : applied ? 'applied' : 'stale'
  await mark(outcome)
  return { status: 200, outcome }
}

/** The order status each parcel state of an order's own shipment moves the order to. */
const ORDER_OF: Partial<Record<ParcelState, OrderStatus>> = {
  shipped: 'shipped',
  out_for_delivery: 'out_for_delivery',
  undelivered: 'undelivered',
  delivered: 'delivered',
  rto: 'rto',
}

/** The shopper's mail for each order status a courier event moves to. */
const MAIL_OF: Partial<Record<OrderStatus, Parameters<typeof notifyOrder>[2]>> = {
  shipped: 'shipped',
  out_for_delivery: 'out_for_delivery',
  undelivered: 'undelivered',
  delivered: 'delivered',
  rto: 'rto',
}

/**
 * Applies what the courier says a parcel is now (read back, never a webhook's word): the shipment
 * moves with a compare-and-set on its state, then the order (or the return) follows. True when
 * the parcel moved.
 */
export async function applyTracking(
  x: Answering & { config: AppConfig },
  shipment: ShipmentRow,
  tracking: Tracking,
  actor: string,
  now: number,
): Promise<boolean> {
  const db = x.env.DB
  const next = stateOfCode(tracking.statusId)
  const current = shipment.state as ParcelState
  const scans = JSON.stringify(tracking.scans.slice(0, 50))
  if (!next || !movesForward(current, next)) {
    // Scans still refresh the timeline; the state stays.
    await db
      .prepare('UPDATE shipments SET scans = ?, etd = COALESCE(?, etd) WHERE id = ?')
      .bind(scans, tracking.etd, shipment.id)
      .run()
    return false
  }
  const stamp = magentoDate(now)
  const moved = await db
    .prepare(
      `UPDATE shipments SET state = ?1, state_rank = ?2, status_id = ?3, status_at = ?4, scans = ?5,
         etd = COALESCE(?6, etd), updated_at = ?4,
         ndr_attempts = ndr_attempts + (CASE WHEN ?1 = 'undelivered' THEN 1 ELSE 0 END),
         ndr_reason = CASE WHEN ?1 = 'undelivered' THEN ?7 ELSE ndr_reason END,
         ndr_action = CASE WHEN ?1 = 'undelivered' THEN NULL ELSE ndr_action END
       WHERE id = ?8 AND state = ?9`,
    )
    .bind(
      next,
      STATE_RANK[next],
      tracking.statusId,
      stamp,
      scans,
      tracking.etd,
      tracking.scans[0]?.activity ?? null,
      shipment.id,
      current,
    )
    .run()
  if (moved.meta.changes !== 1) return false
  const after = (await shipmentById(db, shipment.id)) as ShipmentRow
  if (shipment.return_id !== null) {
    await onReturnParcel(x, after, next, now)
    return true
  }
  await moveOrderWithParcel(x, after, next, actor, now)
  return true
}

/** Moves an order along with its own shipment, through any status it skipped, mailing each move. */
async function moveOrderWithParcel(
  x: Answering & { config: AppConfig },
  s: ShipmentRow,
  state: ParcelState,
  actor: string,
  now: number,
) {
  const db = x.env.DB
  const target = ORDER_OF[state]
  if (!target) {
    await orderEventStatement(
      db,
      s.client_order_id,
      { kind: 'note', actor, detail: { text: `Courier: parcel ${s.awb} is ${state.replace(/_/g, ' ')}` } },
      now,
    ).run()
    return
  }
  const order = await findOrderByClientId(db, s.client_order_id)
  if (!order) return
  // A parcel picked up before the booking was recorded, or an event that skipped "shipped".
  const path: OrderStatus[] = []
  if (order.status === 'processing') path.push('packed')
  if ((order.status === 'processing' || order.status === 'packed') && target !== 'shipped')
    path.push('shipped')
  path.push(target)
  const detail = { carrier: s.courier_name ?? '', tracking_number: s.awb ?? '' }
  for (const to of path) {
    const cod = to === 'delivered' && order.payment_method === 'cashondelivery' && order.paid_minor === 0
    const total = order.grand_total_minor ?? 0
    const result = await transitionOrder(
      db,
      {
        orderId: s.client_order_id,
        to,
        actor,
        detail: { ...detail, courier_status: tracking(state) },
        // Cash on delivery: delivered means the courier collected the order's total in cash.
        ...(cod && total > 0
          ? {
              paymentState: 'paid' as const,
              paidMinor: total,
              withMove: db
                .prepare(
                  `INSERT INTO cod_settlements (client_order_id, amount_minor, collected_at, collected_by)
                   SELECT ?1, ?2, ?3, 'courier' WHERE changes() = 1 ON CONFLICT DO NOTHING`,
                )
                .bind(s.client_order_id, total, magentoDate(now)),
            }
          : {}),
      },
      now,
    )
    const mail = MAIL_OF[to]
    if (result.changed && mail)
      runAfterAnswer(
        x,
        () => notifyOrder(x.env, x.config, mail, s.client_order_id, now, detail),
        `order ${mail} mail`,
      )
  }
}

const tracking = (state: ParcelState) => state.replace(/_/g, ' ')

/** Reads a parcel back from the courier and applies it (the back office's "refresh"). */
export async function refreshShipment(
  x: Answering & { config: AppConfig },
  id: number,
  actor: string,
  now: number,
) {
  const s = await shipmentById(x.env.DB, id)
  const port = courierPort(x.env)
  if (!s?.awb || !port) return false
  return applyTracking(x, s, await port.track(s.awb), actor, now)
}
