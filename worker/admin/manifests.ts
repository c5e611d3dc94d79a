/**
 * The day's pickup manifest (docs/fulfilment.md): the courier's handover sheet for the forward
 * parcels whose pickup is booked and that are in no manifest yet.
 *
 * - A parcel goes into one manifest only: the parcels are claimed (shipments.manifest_id) in one
 *   statement before the courier is asked, so a double click or two operators at once make one
 *   manifest, and the second ask is refused in words.
 * - Nothing to manifest is refused in words, never an empty manifest.
 * - The courier not answering releases the claim (nothing was manifested, the operator asks again).
 *   The courier refusing a generate because it already holds a manifest for those parcels (an
 *   earlier answer lost on the way) reads that manifest back through its print call instead.
 * - At most MANIFEST_LIMIT parcels per manifest, so one request's cost is bounded; the rest wait
 *   for the next ask.
 */
import { shopTimeZone } from '@shared/config/store'
import { zonedDate } from '@shared/domain/shop-clock'
import { magentoDate } from '../api/user/repo'
import { courierPort } from '../fulfilment/config'
import { CourierError, type CourierPort } from '../fulfilment/port'
import { fail } from '../platform/http'
import { auditStatement } from './audit'

const MANIFEST_LIMIT = 100

interface Ctx {
  env: Env
  actor: string
}

interface ManifestedParcel {
  id: number
  ref: string
  awb: string
  courier_name: string | null
  courier_shipment_id: string
  courier_order_id: string
}

/** Forward parcels with their pickup booked, not yet picked up, in no manifest. */
const WAITING = `kind = 'forward' AND step = 'booked' AND state = 'booked' AND manifest_id IS NULL
  AND courier_shipment_id IS NOT NULL AND awb IS NOT NULL`

function portOrRefuse(env: Env): CourierPort {
  const port = courierPort(env)
  if (!port)
    return fail(
      409,
      'No courier is configured (SHIPROCKET_EMAIL and SHIPROCKET_PASSWORD): there is no manifest to make.',
    )
  return port
}

async function parcelsOf(db: D1Database, manifestId: number) {
  const { results } = await db
    .prepare(
      `SELECT id, ref, awb, courier_name, courier_shipment_id, courier_order_id FROM shipments
       WHERE manifest_id = ? ORDER BY id`,
    )
    .bind(manifestId)
    .all<ManifestedParcel>()
  return results
}

/** The manifest for the parcels booked for pickup that no manifest covers yet. */
export async function manifestTodaysPickups(x: Ctx, now: number) {
  const db = x.env.DB
  const port = portOrRefuse(x.env)
  const day = zonedDate(now, shopTimeZone())
  const made = await db
    .prepare(
      `INSERT INTO courier_manifests (day, status, created_by, created_at) VALUES (?, 'pending', ?, ?) RETURNING id`,
    )
    .bind(day, x.actor, magentoDate(now))
    .first<{ id: number }>()
  const id = (made as { id: number }).id
  // The claim: one statement, so concurrent asks never share a parcel.
  const claim = await db
    .prepare(
      `UPDATE shipments SET manifest_id = ?1 WHERE id IN
         (SELECT id FROM shipments WHERE ${WAITING} ORDER BY id LIMIT ${MANIFEST_LIMIT})`,
    )
    .bind(id)
    .run()
  if (claim.meta.changes === 0) {
    await db.prepare('DELETE FROM courier_manifests WHERE id = ?').bind(id).run()
    return fail(
      409,
      'Nothing to manifest: every parcel booked for pickup is already in a manifest, or none is booked yet.',
    )
  }
  return completeManifest(x, port, id, now)
}

/** A manifest's document asked again: generated if the courier never answered, else printed again. */
export async function printManifestAgain(x: Ctx, id: number, now: number) {
  const port = portOrRefuse(x.env)
  const row = await x.env.DB.prepare('SELECT id FROM courier_manifests WHERE id = ?').bind(id).first()
  if (!row) return fail(404, `Manifest ${id} does not exist.`)
  return completeManifest(x, port, id, now)
}

async function completeManifest(x: Ctx, port: CourierPort, id: number, now: number) {
  const db = x.env.DB
  const m = (await db
    .prepare('SELECT id, day, status FROM courier_manifests WHERE id = ?')
    .bind(id)
    .first<{ id: number; day: string; status: string }>()) as { id: number; day: string; status: string }
  const parcels = await parcelsOf(db, id)
  const reprint = () => port.printManifest(parcels.map((p) => p.courier_order_id))
  let url: string
  try {
    if (m.status === 'ready') url = await reprint()
    else
      url = await port.manifest(parcels.map((p) => p.courier_shipment_id)).catch((err) =>
        // Refused: the courier may hold these parcels in a manifest already (its answer was lost).
        err instanceof CourierError && !err.retryable ? reprint() : Promise.reject(err),
      )
  } catch (err) {
    if (!(err instanceof CourierError)) throw err
    if (m.status === 'pending') {
      await db.batch([
        db.prepare('UPDATE shipments SET manifest_id = NULL WHERE manifest_id = ?').bind(id),
        db.prepare(`DELETE FROM courier_manifests WHERE id = ? AND status = 'pending'`).bind(id),
      ])
      return fail(502, `The courier made no manifest (${err.message}). Nothing was manifested: ask again.`)
    }
    return fail(502, `The courier did not print the manifest again (${err.message}).`)
  }
  await db.batch([
    db.prepare(`UPDATE courier_manifests SET status = 'ready', manifest_url = ? WHERE id = ?`).bind(url, id),
    auditStatement(
      db,
      {
        actor: x.actor,
        action: m.status === 'ready' ? 'manifest.print' : 'manifest.generate',
        target: `manifest:${id}`,
        after: { url, awbs: parcels.map((p) => p.awb) },
      },
      now,
    ),
  ])
  return {
    manifest: { id, day: m.day, url },
    shipments: parcels.map((p) => ({ ref: p.ref, awb: p.awb, courier: p.courier_name })),
  }
}

/** Today's manifests with the parcels each covers, and the parcels still waiting for one. */
export async function todaysManifests(db: D1Database, now: number) {
  const day = zonedDate(now, shopTimeZone())
  const [manifests, waiting] = await db.batch([
    db
      .prepare(
        `SELECT m.id, m.status, m.manifest_url, m.created_by, m.created_at,
           (SELECT json_group_array(json_object('ref', s.ref, 'awb', s.awb)) FROM shipments s WHERE s.manifest_id = m.id) AS parcels
         FROM courier_manifests m WHERE m.day = ? ORDER BY m.id DESC LIMIT 50`,
      )
      .bind(day),
    db.prepare(`SELECT ref, awb FROM shipments WHERE ${WAITING} ORDER BY id LIMIT ${MANIFEST_LIMIT}`),
  ])
  return {
    day,
    manifests: ((manifests?.results ?? []) as { parcels: string }[]).map((m) => ({
      ...m,
      parcels: JSON.parse(m.parcels) as { ref: string; awb: string }[],
    })),
    waiting: (waiting?.results ?? []) as { ref: string; awb: string }[],
  }
}
