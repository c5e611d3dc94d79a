/**
 * The back office's side of shipping, returns and cash on delivery (docs/fulfilment.md): booking
 * an order with the courier ("ready to ship"), acting on failed deliveries (NDR: re-attempt or
 * return), receiving parcels that came back undelivered (RTO: stock back after inspection),
 * inspecting returns, and settling cash on delivery (collected by hand, remitted with its UTR).
 * Every change is audited with the operator and written to the order's history.
 */
import { z } from 'zod'
import { runAfterAnswer } from '../api/mail/deliver'
import { notifyOrder } from '../api/mail/notify'
import { orderEventStatement, transitionOrder } from '../api/order/lifecycle'
import { findOrderByAnyId } from '../api/order/repo'
import { magentoDate } from '../api/user/repo'
import { bookNow, enqueueShipment, type ShipmentRow, shipmentById } from '../fulfilment/book'
import { courierPort } from '../fulfilment/config'
import { refreshShipment } from '../fulfilment/events'
import { inspectReturn } from '../fulfilment/inspect'
import { answerNdr } from '../fulfilment/ndr-action'
import type { AppConfig } from '../platform/env'
import { fail } from '../platform/http'
import { auditStatement, orderAudit } from './audit'

interface Ctx {
  env: Env
  config: AppConfig
  executionCtx: Pick<ExecutionContext, 'waitUntil'>
  actor: string
}

const COD = 'cashondelivery'

/** Books an order with the courier: one shipment per order however often or concurrently asked. */
export async function readyToShip(x: Ctx, number: string, now: number) {
  const db = x.env.DB
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  if (!courierPort(x.env))
    return fail(
      409,
      'No courier is configured (SHIPROCKET_EMAIL and SHIPROCKET_PASSWORD): ship it by hand instead.',
    )
  if (order.status !== 'processing')
    return fail(
      409,
      `Order ${order.increment_id} is ${order.status}: only a confirmed order can be made ready to ship.`,
    )
  const shipment = await enqueueShipment(
    db,
    {
      orderId: order.client_order_id,
      kind: 'forward',
      ref: order.increment_id,
      // Nothing is collected for an order paid online (a COD order switched to a payment link).
      codMinor:
        order.payment_method === COD && order.payment_state !== 'paid' ? (order.grand_total_minor ?? 0) : 0,
    },
    now,
  )
  const booked = await bookNow(x.env, shipment.id, now)
  await orderAudit(
    db,
    x.actor,
    'ready_to_ship',
    order,
    { after: { shipment: shipment.ref, outcome: booked?.status ?? 'in hand' } },
    now,
  ).run()
  const s = (await shipmentById(db, shipment.id)) as ShipmentRow
  return {
    shipment: {
      id: s.id,
      ref: s.ref,
      step: s.step,
      awb: s.awb,
      courier: s.courier_name,
      label_url: s.label_url,
    },
    booking: booked?.status ?? 'in hand',
    message:
      booked?.status === 'failed'
        ? `The courier did not answer (${booked.message}); it will be tried again automatically.`
        : (booked?.message ?? null),
  }
}

export const NdrSchema = z.object({
  action: z.enum(['re-attempt', 'return'], { error: 'action must be re-attempt or return' }),
  comments: z.string().trim().max(200, 'comments must be at most 200 characters').default(''),
})

/** Acts on a failed delivery: asks the courier to try again, or to bring the parcel back. */
export async function actOnNdr(x: Ctx, shipmentId: number, req: z.infer<typeof NdrSchema>, now: number) {
  const db = x.env.DB
  const answered = await answerNdr(x.env, await shipmentById(db, shipmentId), req.action, req.comments, now)
  if (!answered.ok)
    return fail(
      answered.status,
      answered.status === 404 ? `Shipment ${shipmentId} does not exist.` : answered.message,
    )
  const s = answered.shipment
  await db.batch([
    orderEventStatement(
      db,
      s.client_order_id,
      {
        kind: 'note',
        actor: x.actor,
        detail: { text: `Failed delivery of ${s.awb}: ${req.action} asked`, comments: req.comments },
      },
      now,
    ),
    auditStatement(
      db,
      {
        actor: x.actor,
        action: `shipment.ndr.${req.action}`,
        target: `shipment:${s.awb}`,
        after: { comments: req.comments },
      },
      now,
    ),
  ])
  // The courier's answer moves the parcel: read it back at once.
  await refreshShipment(x, s.id, x.actor, now).catch(() => false)
  return { awb: s.awb, action: req.action }
}

export const RtoSchema = z.object({
  restock: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .transform((v) => v === true || v === 'true')
    .default(true),
  note: z.string().trim().max(500).default(''),
})

/** Receives an order that came back undelivered: inspected, its stock back unless damaged. */
export async function receiveRto(x: Ctx, number: string, req: z.infer<typeof RtoSchema>, now: number) {
  const db = x.env.DB
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  const result = await transitionOrder(
    db,
    {
      orderId: order.client_order_id,
      to: 'returned',
      from: ['rto'],
      actor: x.actor,
      detail: { restocked: req.restock, note: req.note },
      releaseStock: req.restock,
      returnCredit: true,
      answering: x,
      withMove: orderAudit(db, x.actor, 'rto_received', order, { after: { restock: req.restock } }, now, {
        onlyIfChanged: true,
      }),
    },
    now,
  )
  if (!result.changed)
    return fail(
      409,
      `Order ${order.increment_id} is ${result.status}: only an order coming back undelivered can be received.`,
    )
  await db
    .prepare(
      `UPDATE shipments SET received_at = ? WHERE client_order_id = ? AND kind = 'forward' AND return_id IS NULL AND received_at IS NULL`,
    )
    .bind(magentoDate(now), order.client_order_id)
    .run()
  runAfterAnswer(
    x,
    () => notifyOrder(x.env, x.config, 'returned', order.client_order_id, now),
    'order returned mail',
  )
  return {
    status: 'returned',
    restocked: req.restock,
    refundable_minor: result.order.paid_minor - result.order.refunded_minor,
  }
}

/** Cash on delivery collected by hand (the courier's event does it on delivery). */
export async function codCollected(x: Ctx, number: string, now: number) {
  const db = x.env.DB
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  if (order.payment_method !== COD) return fail(409, `Order ${order.increment_id} is not cash on delivery.`)
  const total = order.grand_total_minor ?? 0
  const stamp = magentoDate(now)
  const [moved] = await db.batch([
    db
      .prepare(
        `UPDATE orders SET paid_minor = ?2, payment_state = 'paid', updated_at = ?3
         WHERE client_order_id = ?1 AND status = 'delivered' AND paid_minor = 0 AND payment_method = 'cashondelivery'`,
      )
      .bind(order.client_order_id, total, stamp),
    db
      .prepare(
        `INSERT INTO cod_settlements (client_order_id, amount_minor, collected_at, collected_by)
         SELECT ?1, ?2, ?3, ?4 WHERE changes() = 1 ON CONFLICT DO NOTHING`,
      )
      .bind(order.client_order_id, total, stamp, x.actor),
    db
      .prepare(
        `INSERT INTO order_events (client_order_id, kind, actor, detail, created_at)
         SELECT ?1, 'payment', ?2, ?3, ?4 WHERE changes() = 1`,
      )
      .bind(order.client_order_id, x.actor, JSON.stringify({ cashCollectedMinor: total }), stamp),
  ])
  if (moved?.meta.changes !== 1)
    return fail(
      409,
      `Order ${order.increment_id}: cash can be marked collected once, after delivery (status ${order.status}, paid ${order.paid_minor}).`,
    )
  await orderAudit(db, x.actor, 'cod_collected', order, { after: { amount_minor: total } }, now).run()
  runAfterAnswer(
    x,
    () => notifyOrder(x.env, x.config, 'cod_collected', order.client_order_id, now),
    'cod mail',
  )
  return { collected_minor: total }
}

export const RemittanceSchema = z.object({
  utr: z
    .string({ error: 'utr is required' })
    .trim()
    .regex(/^[A-Za-z0-9]{6,30}$/, 'utr must be the bank reference (6 to 30 letters and digits)'),
})

/** The courier paid the collected cash to the shop's bank account (its UTR recorded). */
export async function codRemitted(
  x: Ctx,
  number: string,
  req: z.infer<typeof RemittanceSchema>,
  now: number,
) {
  const db = x.env.DB
  const order = await findOrderByAnyId(db, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  const res = await db
    .prepare(
      'UPDATE cod_settlements SET remitted_at = ?, remittance_utr = ? WHERE client_order_id = ? AND remitted_at IS NULL',
    )
    .bind(magentoDate(now), req.utr, order.client_order_id)
    .run()
  if (res.meta.changes !== 1)
    return fail(409, `Order ${order.increment_id}: no collected cash waiting for remittance.`)
  await db.batch([
    orderEventStatement(
      db,
      order.client_order_id,
      { kind: 'payment', actor: x.actor, detail: { codRemitted: true, utr: req.utr } },
      now,
    ),
    orderAudit(db, x.actor, 'cod_remitted', order, { after: { utr: req.utr } }, now),
  ])
  return { remitted: true, utr: req.utr }
}

/** A decision per piece: `decisions: {id: …}` in JSON, or `decision_<id>` fields from the form. */
export const InspectSchema = z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object' || 'decisions' in v) return v
    const fields = v as Record<string, unknown>
    const decisions = Object.fromEntries(
      Object.entries(fields)
        .filter(([k]) => k.startsWith('decision_'))
        .map(([k, d]) => [k.slice('decision_'.length), d]),
    )
    return { decisions, payout_reference: fields.payout_reference }
  },
  z.object({
    decisions: z.record(
      z.string().regex(/^\d{1,12}$/, 'must be a piece id'),
      z.enum(['accepted', 'rejected'], { error: 'must be accepted or rejected' }),
    ),
    payout_reference: z.string().trim().max(60, 'payout_reference must be at most 60 characters').optional(),
  }),
)

export async function inspect(x: Ctx, returnId: number, req: z.infer<typeof InspectSchema>, now: number) {
  const result = await inspectReturn(x, returnId, req.decisions, req.payout_reference || null, x.actor, now)
  await auditStatement(
    x.env.DB,
    { actor: x.actor, action: 'return.inspect', target: `return:${returnId}`, after: result },
    now,
  ).run()
  return result
}

/** Confirmed orders without a parcel yet (the oldest first). */
export async function ordersToShip(db: D1Database) {
  const { results } = await db
    .prepare(
      `SELECT o.increment_id, o.grand_total_minor, o.payment_method FROM orders o
       WHERE o.status = 'processing' AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.client_order_id = o.client_order_id)
       ORDER BY o.entity_id LIMIT 200`,
    )
    .all<Record<string, unknown>>()
  return results
}

/** Everything waiting for the operator: failed deliveries, parcels coming back, returns, COD. */
export async function fulfilmentWork(db: D1Database) {
  const [ndr, rto, returns, cod, booking] = await db.batch([
    db.prepare(
      `SELECT s.id, s.awb, s.courier_name, s.ndr_reason, s.ndr_attempts, s.ndr_action, s.updated_at, o.increment_id
       FROM shipments s JOIN orders o ON o.client_order_id = s.client_order_id
       WHERE s.state = 'undelivered' ORDER BY s.updated_at LIMIT 200`,
    ),
    db.prepare(
      `SELECT s.id, s.awb, s.state, s.updated_at, o.increment_id, o.status
       FROM shipments s JOIN orders o ON o.client_order_id = s.client_order_id
       WHERE o.status = 'rto' AND s.kind = 'forward' AND s.return_id IS NULL ORDER BY s.updated_at LIMIT 200`,
    ),
    db.prepare(
      `SELECT r.id, r.number, r.status, r.resolution, r.reason, o.increment_id,
         (SELECT json_group_array(json_object('id', ri.id, 'sku', ri.sku, 'qty', ri.qty, 'exchange_sku', ri.exchange_sku, 'unit_minor', ri.unit_minor))
          FROM return_items ri WHERE ri.return_id = r.id) AS items
       FROM returns r JOIN orders o ON o.client_order_id = r.client_order_id
       WHERE r.status NOT IN ('closed', 'canceled') ORDER BY r.id LIMIT 200`,
    ),
    db.prepare(
      `SELECT o.increment_id, o.status, o.grand_total_minor, o.paid_minor, c.collected_at, c.remitted_at, c.remittance_utr
       FROM orders o LEFT JOIN cod_settlements c ON c.client_order_id = o.client_order_id
       WHERE o.payment_method = 'cashondelivery' AND o.status = 'delivered' AND (c.client_order_id IS NULL OR c.remitted_at IS NULL)
       ORDER BY o.entity_id LIMIT 200`,
    ),
    db.prepare(
      `SELECT s.id, s.ref, s.step, b.status, b.attempts, b.provider_response, b.next_attempt_at
       FROM courier_outbox b JOIN shipments s ON s.id = b.shipment_id
       WHERE b.status != 'sent' ORDER BY b.id LIMIT 200`,
    ),
  ])
  return {
    ndr: ndr?.results ?? [],
    rto: rto?.results ?? [],
    returns: ((returns?.results ?? []) as { items: string }[]).map((r) => ({
      ...r,
      items: JSON.parse(r.items),
    })),
    cod: cod?.results ?? [],
    booking: booking?.results ?? [],
  }
}
