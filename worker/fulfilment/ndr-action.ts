/**
 * Answering a failed delivery (NDR) at the courier: deliver again (`re-attempt`) or bring the
 * parcel back (`return`). One answer per attempt, whoever gives it (an operator in the back office
 * or the shopper's "Deliver again" reply on WhatsApp): the shipment row is claimed before the
 * courier is asked, so two answers never reach the courier for one attempt, and a courier that
 * refuses releases the claim so the attempt can still be answered.
 */
import { magentoDate } from '../api/user/repo'
import type { ShipmentRow } from './book'
import { courierPort } from './config'
import { CourierError } from './port'

type NdrAction = 're-attempt' | 'return'

type NdrAnswer =
  | { ok: true; shipment: ShipmentRow & { awb: string } }
  | { ok: false; status: 404 | 409 | 502; message: string }

/** Asks the courier to act on parcel `s`'s failed delivery; what happened, in words when refused. */
export async function answerNdr(
  env: Env,
  s: ShipmentRow | null,
  action: NdrAction,
  comments: string,
  now: number,
): Promise<NdrAnswer> {
  const db = env.DB
  if (!s?.awb) return { ok: false, status: 404, message: 'That parcel does not exist.' }
  if (s.state !== 'undelivered')
    return {
      ok: false,
      status: 409,
      message: `Parcel ${s.awb} has no failed delivery to act on (it is ${s.state.replace(/_/g, ' ')}).`,
    }
  if (s.ndr_action)
    return {
      ok: false,
      status: 409,
      message: `Parcel ${s.awb}: "${s.ndr_action}" was already asked for this attempt.`,
    }
  const port = courierPort(env)
  if (!port) return { ok: false, status: 409, message: 'No courier is configured.' }
  const claim = await db
    .prepare(
      'UPDATE shipments SET ndr_action = ?, updated_at = ? WHERE id = ? AND state = ? AND ndr_action IS NULL',
    )
    .bind(action, magentoDate(now), s.id, 'undelivered')
    .run()
  if (claim.meta.changes !== 1)
    return { ok: false, status: 409, message: `Parcel ${s.awb} was acted on a moment ago.` }
  try {
    await port.ndrAction(
      s.awb,
      action,
      comments || (action === 'return' ? 'Return to origin' : 'Please deliver again'),
    )
  } catch (err) {
    await db.prepare('UPDATE shipments SET ndr_action = NULL WHERE id = ?').bind(s.id).run()
    if (err instanceof CourierError)
      return {
        ok: false,
        status: 502,
        message: `The courier did not take it: ${err.message}. Nothing was changed.`,
      }
    throw err
  }
  return { ok: true, shipment: { ...s, awb: s.awb } }
}

/**
 * The order's parcel a "deliver again" is about: a forward parcel whose failed delivery is not
 * answered yet, else its latest forward parcel (so the refusal says why), or null.
 */
export async function parcelToRedeliver(db: D1Database, orderId: string): Promise<ShipmentRow | null> {
  return db
    .prepare(
      `SELECT * FROM shipments WHERE client_order_id = ? AND kind = 'forward'
       ORDER BY (state = 'undelivered' AND ndr_action IS NULL) DESC, id DESC LIMIT 1`,
    )
    .bind(orderId)
    .first<ShipmentRow>()
}
