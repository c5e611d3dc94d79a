/**
 * Delivery to a PIN code: whether the courier serves it, whether cash on delivery is collected
 * there, and by when — the courier's serviceability answer, cached per PIN for a day
 * (pin_serviceability). When the courier is not configured, down, slow, or the asker has used up
 * their look-ups, the PIN table (cod_pincodes) answers for cash on delivery and the estimate is the
 * shop's default days.
 *
 * A shopper's request waits at most COURIER_WAIT_MS (2.5 s unless configured) for the courier. A slower answer is still
 * taken (the request's waitUntil keeps the look-up alive) and cached, and the answer given in the
 * meantime says so (`pending`): it is the PIN table's, and the page asks again. So the answer is
 * always defined and always says where it came from; once the courier's answer is cached it is the
 * only one given, at checkout, on the product page and at placement.
 *
 * Each address may make COURIER_LOOKUPS_PER_HOUR look-ups that reach the courier in an hour;
 * beyond that it gets the cached or table answer, never an error, so a scan of PIN codes costs
 * the courier account nothing.
 */
import { codUnavailableMessage } from '@shared/config/checkout'
import { SHIPPING_RULES } from '@shared/config/shipping'
import { estimatedDelivery } from '@shared/domain/availability'
import { msgDeliveryBy, PRODUCT_EXTRA_MSG } from '@shared/i18n/messages'
import { withinLimits } from '../api/auth/rate-limit'
import { courierConfig, courierPort } from './config'
import { CourierError, type Serviceability } from './port'

/** How long a courier answer for a PIN is reused. */
const SERVICEABILITY_TTL_MS = 24 * 60 * 60_000
/** Look-ups one address may send to the courier in an hour (the rest read the cache or the table). */
export const COURIER_LOOKUPS_PER_HOUR = 30

interface Delivery {
  postcode: string
  serviceable: boolean
  cod: boolean
  days: number
  /** The day it should arrive, 'Do of MMMM, YYYY' (today in India plus `days`). */
  date: string
  /** Where the answer came from. */
  source: 'courier' | 'cache' | 'pin-table'
  /** The courier was asked and has not answered yet: this is the PIN table's answer; ask again. */
  pending: boolean
}

interface CachedRow {
  serviceable: number
  cod_available: number
  days: number | null
}

/** The courier's cached answer for a PIN, while fresh. */
function cachedServiceability(db: D1Database, postcode: string, now: number) {
  return db
    .prepare(
      'SELECT serviceable, cod_available, days FROM pin_serviceability WHERE postcode = ? AND cod = 1 AND fetched_at > ?',
    )
    .bind(postcode, now - SERVICEABILITY_TTL_MS)
    .first<CachedRow>()
}

async function tableCod(db: D1Database, postcode: string): Promise<boolean> {
  return (
    (await db.prepare('SELECT 1 AS ok FROM cod_pincodes WHERE pincode = ?').bind(postcode).first()) !== null
  )
}

/**
 * Whether the courier collects cash at a PIN as the shop knows it now: its cached answer while
 * fresh, else the PIN table. What placement and the cart's payment methods decide by. Both are
 * read at once (one round trip where reads coalesce); the table counts only without a fresh answer.
 */
export async function knownPinCod(db: D1Database, postcode: string, now: number): Promise<boolean> {
  const [cached, table] = await Promise.all([cachedServiceability(db, postcode, now), tableCod(db, postcode)])
  if (cached) return cached.serviceable === 1 && cached.cod_available === 1
  return table
}

function answer(
  postcode: string,
  now: number,
  s: { serviceable: boolean; cod: boolean; days: number | null },
  source: Delivery['source'],
  pending = false,
): Delivery {
  const days = s.days ?? SHIPPING_RULES.fallbackDays.domestic
  return {
    postcode,
    serviceable: s.serviceable,
    cod: s.serviceable && s.cod,
    days,
    date: estimatedDelivery({ delivery_days: days }, now) ?? '',
    source,
    pending,
  }
}

/** Asks the courier and caches its answer; null when it cannot be asked (down, refusing). */
async function askCourier(env: Env, postcode: string, now: number): Promise<Serviceability | null> {
  const port = courierPort(env)
  const cfg = courierConfig(env)
  if (!port || !cfg) return null
  try {
    const s = await port.serviceability({
      pickupPostcode: cfg.pickupPostcode,
      deliveryPostcode: postcode,
      weightKg: SHIPPING_RULES.parcel.weightKg,
      cod: true,
    })
    await env.DB.prepare(
      `INSERT INTO pin_serviceability (postcode, cod, serviceable, cod_available, days, rate_minor, fetched_at)
         VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(postcode, cod) DO UPDATE SET serviceable = excluded.serviceable, cod_available = excluded.cod_available,
           days = excluded.days, rate_minor = excluded.rate_minor, fetched_at = excluded.fetched_at`,
    )
      .bind(postcode, s.serviceable ? 1 : 0, s.cod ? 1 : 0, s.days, s.rateMinor, now)
      .run()
    return s
  } catch (err) {
    if (err instanceof CourierError) return null
    throw err
  }
}

const TIMED_OUT = Symbol('timed out')

/** Delivery to an Indian PIN code (already validated as six digits, the first not 0). */
export async function deliveryTo(
  env: Env,
  postcode: string,
  askerKey: string,
  now: number,
  waitUntil: (p: Promise<unknown>) => void,
): Promise<Delivery> {
  const db = env.DB
  const cached = await cachedServiceability(db, postcode, now)
  if (cached)
    return answer(
      postcode,
      now,
      { serviceable: cached.serviceable === 1, cod: cached.cod_available === 1, days: cached.days },
      'cache',
    )
  const table = async (pending = false) =>
    answer(
      postcode,
      now,
      { serviceable: true, cod: await tableCod(db, postcode), days: null },
      'pin-table',
      pending,
    )
  const cfg = courierConfig(env)
  if (!cfg) return table()
  const limit = { key: `pin-lookup:${askerKey}`, limit: COURIER_LOOKUPS_PER_HOUR, windowMs: 3_600_000 }
  if (!(await withinLimits(db, [limit], now))) return table()
  const lookup = askCourier(env, postcode, now)
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), cfg.waitMs)
  })
  const first = await Promise.race([lookup, late])
  clearTimeout(timer)
  if (first === TIMED_OUT) {
    // The courier's answer is still taken and cached when it comes; until then the table's stands.
    waitUntil(lookup.catch(() => undefined))
    return table(true)
  }
  return first ? answer(postcode, now, first, 'courier') : table()
}

/**
 * When the parcel should arrive, in words: the courier's date, or the shop's usual one (and that the
 * courier is still being asked). The checkout's shipping step and the product page's PIN check
 * both show it, so they state the same date.
 */
export function deliveryEstimate(d: Delivery): string {
  if (!d.serviceable) return `We cannot deliver to PIN ${d.postcode} yet.`
  if (d.source !== 'pin-table') return msgDeliveryBy(d.postcode, d.date)
  const checking = d.pending ? ` Checking PIN ${d.postcode} with the courier…` : ''
  return `Delivery to ${d.postcode} usually by ${d.date}.${checking}`
}

/** The product page's answer: the estimate, and whether cash on delivery is collected there. */
export function deliveryMessage(d: Delivery): string {
  if (!d.serviceable) return deliveryEstimate(d)
  const cod = d.cod ? PRODUCT_EXTRA_MSG.codAvailable : codUnavailableMessage('IN', d.postcode, false)
  return `${deliveryEstimate(d)} ${cod}`
}
