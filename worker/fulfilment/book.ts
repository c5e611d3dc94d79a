/**
 * Booking shipments with the courier through an outbox. "Ready to ship" writes a shipment row and
 * its courier_outbox row in one batch (a second click, or a concurrent one, finds the shipment
 * already there and books nothing new), then books it at once; what the courier does not take is
 * retried by the Cron Trigger with the mail outbox's pauses, claim and attempt limit
 * (../api/mail/outbox.ts).
 *
 * Booking is four steps, each recorded on the shipment as it succeeds so a retry starts where the
 * last attempt stopped: create the courier order, assign the AWB, fetch the label, book the pickup.
 * The courier takes no idempotency key, so before a retry creates the order it looks our reference
 * up and adopts the order it finds: a create whose answer was lost never becomes a second order;
 * likewise a retry adopts an AWB the courier already assigned. Any failure mid-way (the courier's,
 * or the shop's own between two steps) settles the row as failed, to be retried.
 */
import { SHIPPING_RULES } from '@shared/config/shipping'
import { claimDue, SEND_CLAIM_MS, settleRow } from '../api/mail/outbox'
import { type OrderDocumentAddress, parseOrderDocument } from '../api/order/document'
import { transitionOrder } from '../api/order/lifecycle'
import { findOrderByClientId, type OrderRow } from '../api/order/repo'
import { magentoDate } from '../api/user/repo'
import { courierPort } from './config'
import { CourierError, type CourierPort, type Parcel, type ParcelItem, type Party } from './port'

export interface ShipmentRow {
  id: number
  client_order_id: string
  kind: 'forward' | 'return'
  ref: string
  return_id: number | null
  step: 'new' | 'created' | 'awb' | 'label' | 'booked'
  courier_order_id: string | null
  courier_shipment_id: string | null
  awb: string | null
  courier_name: string | null
  label_url: string | null
  pickup_date: string | null
  etd: string | null
  state: string
  state_rank: number
  status_id: number | null
  status_at: string | null
  ndr_reason: string | null
  ndr_attempts: number
  ndr_action: string | null
  cod_minor: number
  received_at: string | null
  scans: string
  created_at: string
  updated_at: string
}

/** The delivery address of an order as the courier takes it. */
function orderParty(order: OrderRow): Party {
  const doc = parseOrderDocument(order.doc)
  const a: Partial<OrderDocumentAddress> =
    doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address ?? {}
  return {
    name: a.firstname ?? '',
    lastName: a.lastname ?? '',
    address: a.street?.[0] ?? '',
    address2: a.street?.slice(1).filter(Boolean).join(', ') ?? '',
    city: a.city ?? '',
    state: a.region ?? '',
    country: a.country_id === 'IN' ? 'India' : (a.country_id ?? ''),
    postcode: a.postcode ?? '',
    email: order.customer_email,
    phone: (a.telephone ?? '').replace(/\D/g, '').slice(-10),
  }
}

/** The stocked lines of an order (a bundle's parts, not its parent row) as parcel items. */
async function orderItems(db: D1Database, orderId: string): Promise<ParcelItem[]> {
  const { results } = await db
    .prepare(
      `SELECT oi.sku, oi.qty, oi.price_incl_tax, COALESCE(p.name, oi.sku) AS name
       FROM order_items oi LEFT JOIN products p ON p.sku = oi.sku
       WHERE oi.client_order_id = ?1 AND (oi.parent_sku IS NOT NULL OR oi.sku NOT IN (
         SELECT parent_sku FROM order_items WHERE client_order_id = ?1 AND parent_sku IS NOT NULL))
       ORDER BY oi.id`,
    )
    .bind(orderId)
    .all<{ sku: string; qty: number; price_incl_tax: number; name: string }>()
  return results.map((r) => ({
    name: r.name,
    sku: r.sku,
    units: r.qty,
    sellingPriceMinor: Math.round(r.price_incl_tax * 100),
  }))
}

export const shipmentById = (db: D1Database, id: number) =>
  db.prepare('SELECT * FROM shipments WHERE id = ?').bind(id).first<ShipmentRow>()

/**
 * Writes a shipment and its outbox row (one batch; nothing when a shipment with this reference, or
 * an open forward shipment of the order, already exists). Returns the shipment either way.
 */
export async function enqueueShipment(
  db: D1Database,
  s: {
    orderId: string
    kind: 'forward' | 'return'
    ref: string
    returnId?: number | null
    codMinor?: number
  },
  now: number,
): Promise<ShipmentRow> {
  const stamp = magentoDate(now)
  await db.batch([
    db
      .prepare(
        // The order's own parcel collects nothing once the order is paid, judged as the row is
        // written: a payment link settled after the caller read the order still counts.
        `INSERT INTO shipments (client_order_id, kind, ref, return_id, cod_minor, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, CASE WHEN ?2 = 'forward' AND ?4 IS NULL AND EXISTS (SELECT 1 FROM orders
           WHERE client_order_id = ?1 AND payment_state = 'paid') THEN 0 ELSE ?5 END, ?6, ?6)
         ON CONFLICT DO NOTHING`,
      )
      .bind(s.orderId, s.kind, s.ref, s.returnId ?? null, s.codMinor ?? 0, stamp),
    db
      .prepare(
        `INSERT INTO courier_outbox (shipment_id, created_at)
         SELECT id, ?2 FROM shipments WHERE ref = ?1 ON CONFLICT DO NOTHING`,
      )
      .bind(s.ref, stamp),
  ])
  const row =
    (await db.prepare('SELECT * FROM shipments WHERE ref = ?').bind(s.ref).first<ShipmentRow>()) ??
    (await db
      .prepare(
        `SELECT * FROM shipments WHERE client_order_id = ? AND kind = 'forward' AND return_id IS NULL
         AND state NOT IN ('canceled', 'rto_delivered') ORDER BY id DESC LIMIT 1`,
      )
      .bind(s.orderId)
      .first<ShipmentRow>())
  if (!row) throw new Error(`shipment ${s.ref} was not written`)
  return row
}

/** The parcel a shipment books: the order's items (or a return's pieces) and the cash to collect. */
async function parcelOf(db: D1Database, shipment: ShipmentRow, order: OrderRow): Promise<Parcel> {
  const items = shipment.return_id
    ? await returnParcelItems(db, shipment)
    : await orderItems(db, order.client_order_id)
  const value = items.reduce((s, i) => s + i.sellingPriceMinor * i.units, 0)
  return {
    ref: shipment.ref,
    orderDate: new Date(`${order.created_at.replace(' ', 'T')}Z`),
    items,
    // Cash on delivery: the courier collects exactly what the order asks (never the item list's sum).
    subTotalMinor: shipment.cod_minor > 0 ? shipment.cod_minor : Math.max(value, 100),
    cod: shipment.cod_minor > 0,
    package: {
      lengthCm: SHIPPING_RULES.parcel.lengthCm,
      breadthCm: SHIPPING_RULES.parcel.breadthCm,
      heightCm: SHIPPING_RULES.parcel.heightCm,
      weightKg: SHIPPING_RULES.parcel.weightKg,
    },
  }
}

/** The pieces a return's shipment carries: those going back (reverse) or the replacement sizes. */
async function returnParcelItems(db: D1Database, shipment: ShipmentRow): Promise<ParcelItem[]> {
  const column = shipment.kind === 'return' ? 'sku' : 'exchange_sku'
  const { results } = await db
    .prepare(
      `SELECT ri.${column} AS sku, ri.qty, ri.unit_minor, COALESCE(p.name, ri.${column}) AS name, ri.size
       FROM return_items ri LEFT JOIN products p ON p.sku = ri.${column}
       WHERE ri.return_id = ? AND ri.${column} IS NOT NULL ORDER BY ri.id`,
    )
    .bind(shipment.return_id)
    .all<{ sku: string; qty: number; unit_minor: number; name: string; size: string | null }>()
  return results.map((r) => ({
    name: r.name,
    sku: r.sku,
    units: r.qty,
    sellingPriceMinor: r.unit_minor,
    qc: shipment.kind === 'return' ? { size: r.size ?? undefined } : undefined,
  }))
}

async function saveStep(db: D1Database, id: number, sets: Record<string, unknown>, now: number) {
  const keys = Object.keys(sets)
  await db
    .prepare(`UPDATE shipments SET ${keys.map((k) => `${k} = ?`).join(', ')}, updated_at = ? WHERE id = ?`)
    .bind(...keys.map((k) => sets[k]), magentoDate(now), id)
    .run()
}

/**
 * Runs the booking steps a shipment still needs. `retry` says an earlier attempt may have
 * created the courier order without us hearing the answer: look it up before creating one.
 */
async function bookSteps(
  port: CourierPort,
  db: D1Database,
  shipment: ShipmentRow,
  retry: boolean,
  now: number,
) {
  const order = await findOrderByClientId(db, shipment.client_order_id)
  if (!order) throw new CourierError('the order no longer exists', false)
  let s = shipment
  const isReturn = s.kind === 'return'
  if (s.step === 'new') {
    const found = retry ? await port.findOrder(s.ref) : null
    const parcel = await parcelOf(db, s, order)
    // The order's own parcel collects exactly the order total; an exchange's replacement collects
    // only the price difference it was booked with.
    if (
      !isReturn &&
      s.return_id === null &&
      parcel.cod &&
      parcel.subTotalMinor !== (order.grand_total_minor ?? -1)
    )
      throw new CourierError('the cash to collect differs from the order total; not booked', false)
    const made =
      found ??
      (isReturn
        ? await port.createReturn(parcel, await returnPickupParty(db, s, order))
        : await port.createOrder(parcel, orderParty(order)))
    await saveStep(
      db,
      s.id,
      { step: 'created', courier_order_id: made.courierOrderId, courier_shipment_id: made.shipmentId },
      now,
    )
    s = (await shipmentById(db, s.id)) as ShipmentRow
  }
  const shipmentId = s.courier_shipment_id as string
  if (s.step === 'created') {
    // A retry first reads the courier's order: an AWB assigned before the last attempt stopped is
    // adopted, never asked for again.
    const known = retry ? await port.findOrder(s.ref) : null
    const { awb, courierName } = known?.awb
      ? { awb: known.awb, courierName: known.courierName ?? null }
      : await port.assignAwb(shipmentId, isReturn)
    await saveStep(db, s.id, { step: 'awb', awb, courier_name: courierName }, now)
    s = (await shipmentById(db, s.id)) as ShipmentRow
  }
  if (s.step === 'awb') {
    // Reverse pickups carry no label of ours: the courier brings it.
    const label = isReturn ? null : await port.label(shipmentId)
    await saveStep(db, s.id, { step: 'label', label_url: label }, now)
    s = (await shipmentById(db, s.id)) as ShipmentRow
  }
  if (s.step === 'label') {
    const pickup = await port.pickup(shipmentId)
    await saveStep(db, s.id, { step: 'booked', pickup_date: pickup.date }, now)
    await db
      .prepare(`UPDATE shipments SET state = 'booked', state_rank = 1 WHERE id = ? AND state = 'booking'`)
      .bind(s.id)
      .run()
    s = (await shipmentById(db, s.id)) as ShipmentRow
  }
  return s
}

/** The shopper's address for a reverse pickup (the order's delivery address). */
async function returnPickupParty(_db: D1Database, _s: ShipmentRow, order: OrderRow): Promise<Party> {
  return orderParty(order)
}

type Booked = { status: 'sent' | 'failed' | 'dead'; shipment: ShipmentRow; message: string | null }

/** What happens to the order once its forward shipment is booked: it is packed, with the AWB. */
async function afterBooked(env: Env, s: ShipmentRow, now: number) {
  if (s.kind !== 'forward' || s.return_id !== null) return
  await transitionOrder(
    env.DB,
    {
      orderId: s.client_order_id,
      to: 'packed',
      from: ['processing'],
      actor: 'system',
      detail: { carrier: s.courier_name, tracking_number: s.awb, label_url: s.label_url },
    },
    now,
  )
}

/** Books one claimed outbox row and settles it (sent, failed with its next time, or dead). */
async function bookClaimed(
  env: Env,
  port: CourierPort,
  row: { id: number; attempts: number; shipment_id: number },
  now: number,
): Promise<Booked> {
  const shipment = (await shipmentById(env.DB, row.shipment_id)) as ShipmentRow
  let outcome: { ok: boolean; httpStatus: number | null; response: string }
  let done = shipment
  try {
    done = await bookSteps(port, env.DB, shipment, row.attempts > 1, now)
    outcome = { ok: true, httpStatus: 200, response: `booked AWB ${done.awb}` }
  } catch (err) {
    // A refusal no retry changes is settled as a 4xx. Anything else — the courier unreachable, or
    // the shop failing mid-way (a step done at the courier but not recorded here) — is retried
    // after its pause, resuming at the recorded step after reading the courier's order back; the
    // row never stays claimed, and the other rows of a drain are still booked.
    if (!(err instanceof CourierError)) console.error(`booking shipment ${shipment.ref} stopped:`, err)
    const refused = err instanceof CourierError && !err.retryable
    outcome = {
      ok: false,
      httpStatus: refused ? (err.httpStatus ?? 422) : null,
      response: err instanceof Error ? err.message : String(err),
    }
  }
  const status = await settleRow(env.DB, 'courier_outbox', row.id, row.attempts, outcome, now)
  if (status === 'sent') await afterBooked(env, done, now)
  return { status, shipment: done, message: outcome.ok ? null : outcome.response }
}

/**
 * Books a shipment now (the "ready to ship" answer): claims its outbox row unless a drain or
 * another click holds it; null when it is held, already booked, or waiting for its next retry.
 */
export async function bookNow(env: Env, shipmentId: number, now: number): Promise<Booked | null> {
  const port = courierPort(env)
  if (!port) return null
  const row = await env.DB.prepare(
    `UPDATE courier_outbox SET status = 'sending', attempts = attempts + 1, next_attempt_at = ?2
     WHERE shipment_id = ?1 AND status IN ('queued', 'failed') AND next_attempt_at <= ?3
     RETURNING id, attempts, shipment_id`,
  )
    .bind(shipmentId, now + SEND_CLAIM_MS, now)
    .first<{ id: number; attempts: number; shipment_id: number }>()
  return row ? bookClaimed(env, port, row, now) : null
}

/** The scheduled drain of the courier outbox: due bookings, retried with growing pauses. */
export async function drainCourierOutbox(env: Env, now: number) {
  const port = courierPort(env)
  if (!port) return 'no courier'
  const rows = await claimDue<{ shipment_id: number }>(
    env.DB,
    'courier_outbox',
    `'queued', 'sending', 'failed'`,
    'shipment_id',
    now,
  )
  const out = { sent: 0, failed: 0, dead: 0 }
  for (const row of rows) out[(await bookClaimed(env, port, row, now)).status]++
  return out
}
