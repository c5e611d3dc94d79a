/**
 * Delivery to a PIN code: whether the courier serves it, whether cash on delivery is collected
 * there, and in how many days — the courier's serviceability answer, cached per PIN for a day
 * (pin_serviceability). When the courier is not configured, down, or the asker has used up their
 * look-ups, the PIN table (cod_pincodes) answers for cash on delivery and the estimate is the
 * shop's default days.
 *
 * Each address may make COURIER_LOOKUPS_PER_HOUR look-ups that reach the courier in an hour;
 * beyond that it gets the cached or table answer, never an error, so a scan of PIN codes costs
 * the courier account nothing.
 */
import { SHIPPING_RULES } from '@shared/config/shipping'
import { withinLimits } from '../api/auth/rate-limit'
import { courierConfig, courierPort } from './config'
import { CourierError } from './port'

/** How long a courier answer for a PIN is reused. */
const SERVICEABILITY_TTL_MS = 24 * 60 * 60_000
/** Look-ups one address may send to the courier in an hour (the rest read the cache or the table). */
export const COURIER_LOOKUPS_PER_HOUR = 30

interface Delivery {
  postcode: string
  serviceable: boolean
  cod: boolean
  days: number
  /** Where the answer came from. */
  source: 'courier' | 'cache' | 'pin-table'
}

interface CachedRow {
  serviceable: number
  cod_available: number
  days: number | null
  fetched_at: number
}

/** The courier's cached answer for a PIN, while fresh. */
export function cachedServiceability(db: D1Database, postcode: string, now: number) {
  return db
    .prepare(
      'SELECT serviceable, cod_available, days, fetched_at FROM pin_serviceability WHERE postcode = ? AND cod = 1 AND fetched_at > ?',
    )
    .bind(postcode, now - SERVICEABILITY_TTL_MS)
    .first<CachedRow>()
}

async function fromTable(db: D1Database, postcode: string): Promise<Delivery> {
  const row = await db.prepare('SELECT 1 AS ok FROM cod_pincodes WHERE pincode = ?').bind(postcode).first()
  return {
    postcode,
    serviceable: true,
    cod: row !== null,
    days: SHIPPING_RULES.fallbackDays.domestic,
    source: 'pin-table',
  }
}

/** Delivery to an Indian PIN code (already validated as six digits, the first not 0). */
export async function deliveryTo(
  env: Env,
  postcode: string,
  askerKey: string,
  now: number,
): Promise<Delivery> {
  const db = env.DB
  const cached = await cachedServiceability(db, postcode, now)
  const days = (d: number | null) => d ?? SHIPPING_RULES.fallbackDays.domestic
  if (cached)
    return {
      postcode,
      serviceable: cached.serviceable === 1,
      cod: cached.cod_available === 1,
      days: days(cached.days),
      source: 'cache',
    }
  const port = courierPort(env)
  const cfg = courierConfig(env)
  if (!port || !cfg) return fromTable(db, postcode)
  if (
    !(await withinLimits(
      db,
      [{ key: `pin-lookup:${askerKey}`, limit: COURIER_LOOKUPS_PER_HOUR, windowMs: 3_600_000 }],
      now,
    ))
  )
    return fromTable(db, postcode)
  try {
    const s = await port.serviceability({
      pickupPostcode: cfg.pickupPostcode,
      deliveryPostcode: postcode,
      weightKg: SHIPPING_RULES.parcel.weightKg,
      cod: true,
    })
    await db
      .prepare(
        `INSERT INTO pin_serviceability (postcode, cod, serviceable, cod_available, days, rate_minor, fetched_at)
         VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(postcode, cod) DO UPDATE SET serviceable = excluded.serviceable, cod_available = excluded.cod_available,
           days = excluded.days, rate_minor = excluded.rate_minor, fetched_at = excluded.fetched_at`,
      )
      .bind(postcode, s.serviceable ? 1 : 0, s.cod ? 1 : 0, s.days, s.rateMinor, now)
      .run()
    return {
      postcode,
      serviceable: s.serviceable,
      cod: s.serviceable && s.cod,
      days: days(s.days),
      source: 'courier',
    }
  } catch (err) {
    if (!(err instanceof CourierError)) throw err
    return fromTable(db, postcode)
  }
}
