/**
 * NDR polling: the courier's list of failed deliveries (GET /ndr/all), read by the Cron Trigger and
 * merged with what its tracking webhooks said, so a lost or late webhook never leaves a failed
 * delivery unseen. For each parcel of ours the list names:
 * - not undelivered here yet: it is read back from the courier and applied exactly as a webhook is
 *   (./events.ts: the read-back decides, a parcel only moves forward), so the order moves and the
 *   shopper is mailed once, whichever of the webhook and the poll comes first;
 * - undelivered here: the list's attempt count and reason are taken when the list knows more
 *   (never fewer attempts); a new attempt clears the operator's last action so it can be acted on.
 * A repeat of the poll with the same list changes nothing.
 */
import { readConfig } from '../platform/env'
import type { ShipmentRow } from './book'
import { courierPort } from './config'
import { applyTracking } from './events'
import { CourierError } from './port'
import { movesForward, type ParcelState } from './states'

/** Most parcels one poll looks at (the rest wait for the next trigger). */
const NDR_POLL_BATCH = 100

export async function pollNdrs(env: Env, now: number) {
  const port = courierPort(env)
  if (!port) return 'no courier'
  const waits: Promise<unknown>[] = []
  const x = {
    env,
    config: readConfig(env),
    executionCtx: { waitUntil: (p: Promise<unknown>) => waits.push(p) },
  }
  const out = { listed: 0, moved: 0, merged: 0 }
  try {
    const list = (await port.ndrList()).filter((n) => /^[A-Za-z0-9-]{1,40}$/.test(n.awb))
    out.listed = list.length
    for (const ndr of list.slice(0, NDR_POLL_BATCH)) {
      const s = await env.DB.prepare('SELECT * FROM shipments WHERE awb = ?')
        .bind(ndr.awb)
        .first<ShipmentRow>()
      if (!s) continue
      // Read back only a parcel an NDR could still move (not delivered, returning or back).
      const movable = movesForward(s.state as ParcelState, 'undelivered')
      if (movable && (await applyTracking(x, s, await port.track(ndr.awb), 'provider:courier', now)))
        out.moved++
      const merged = await env.DB.prepare(
        `UPDATE shipments SET ndr_attempts = ?1, ndr_reason = COALESCE(NULLIF(?2, ''), ndr_reason),
           ndr_action = CASE WHEN ?1 > ndr_attempts THEN NULL ELSE ndr_action END
         WHERE id = ?3 AND state = 'undelivered'
           AND (?1 > ndr_attempts OR (ndr_reason IS NULL AND ?2 <> ''))`,
      )
        .bind(Math.max(ndr.attempts, 1), ndr.reason, s.id)
        .run()
      out.merged += merged.meta.changes
    }
  } catch (err) {
    if (!(err instanceof CourierError)) throw err
    // The courier unreachable: the next trigger polls again.
    return { ...out, error: err.message }
  } finally {
    await Promise.allSettled(waits)
  }
  return out
}
