/**
 * Request limits of the account endpoints, cheapest first:
 *
 * 1. `limitClientAddress`: the Workers Rate Limiting binding AUTH_LIMITER, a burst limit per client
 *    address (CF-Connecting-IP, set by Cloudflare) across every endpoint that hashes a password or
 *    sends mail. It costs no D1 write. It counts per Cloudflare location and is eventually
 *    consistent, so the exact, global limits below stay behind it. Locally (wrangler dev, tests)
 *    Miniflare implements it, and requests without the header share one key.
 * 2. Fixed-window counters in D1 (`withinLimits`/`reserveOrReject`, atomic upsert; KV has no
 *    compare-and-set): per address and per target over 15 minutes. A request reserves an attempt
 *    first (so parallel guesses are counted too); a successful login releases the reservation.
 * 3. Slow-down per account (`claimAttempt`/`recordFailure`/`recordSuccess`): never a lockout.
 *    After k recent failures the next password check is allowed only SLOWDOWN_BASE_MS·2^(k−1)
 *    (at most SLOWDOWN_CAP_MS) after the last one; attempts inside that spacing are refused
 *    without being checked or counted, so nobody can extend anyone else's wait. A correct password
 *    clears the account's failures, and failures older than SLOWDOWN_MEMORY_MS are forgotten.
 *    The slot is claimed with one compare-and-set, so parallel guesses get one check per slot.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail } from '../../platform/http'

const RATE_WINDOW_MS = 15 * 60 * 1000
export const LOGIN_LIMIT_PER_IP = 20
export const RESET_LIMIT_PER_ACCOUNT = 5
export const RESET_LIMIT_PER_IP = 20

/** AUTH_LIMITER's setting in wrangler.toml (`simple = { limit, period }`), for messages and tests. */
export const CLIENT_ADDRESS_LIMIT = 30
const CLIENT_ADDRESS_PERIOD_SECONDS = 60
export const MSG_CLIENT_ADDRESS_LIMITED = `Too many requests from your network address: at most ${CLIENT_ADDRESS_LIMIT} sign-in, registration, password or newsletter requests per minute. Please wait a minute and try again.`

export const SLOWDOWN_BASE_MS = 1000
export const SLOWDOWN_CAP_MS = 60_000
const SLOWDOWN_MEMORY_MS = 15 * 60 * 1000

/**
 * The upsert counting one attempt for `key` in its window (RETURNING the count inside the window).
 * With `unless` (an SQL condition that may read ?4, bound to `unless.value`), nothing is counted and
 * nothing returned while the condition holds: the count and the condition are one statement.
 */
export function hitStatement(
  db: D1Database,
  key: string,
  now: number,
  windowMs = RATE_WINDOW_MS,
  unless?: { sql: string; value: string },
): D1PreparedStatement {
  const statement = db.prepare(
    `INSERT INTO rate_limits (key, window_start, count) SELECT ?1, ?2, 1 WHERE ${unless ? `NOT (${unless.sql})` : 'true'}
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start <= ?2 - ?3 THEN 1 ELSE rate_limits.count + 1 END,
         window_start = CASE WHEN rate_limits.window_start <= ?2 - ?3 THEN ?2 ELSE rate_limits.window_start END
       RETURNING count`,
  )
  return unless ? statement.bind(key, now, windowMs, unless.value) : statement.bind(key, now, windowMs)
}

/** Takes back one attempt (a successful login is not a failure). */
export async function release(db: D1Database, key: string): Promise<void> {
  await db.prepare('UPDATE rate_limits SET count = MAX(count - 1, 0) WHERE key = ?').bind(key).run()
}

export type Limit = { key: string; limit: number; windowMs?: number }

/**
 * Counts one use on every key, all in one round trip (one batch: every key is counted, or none);
 * true when every count stays within its limit.
 */
export async function withinLimits(db: D1Database, limits: Limit[], now: number): Promise<boolean> {
  if (limits.length === 0) return true
  const results = (await db.batch(limits.map((l) => hitStatement(db, l.key, now, l.windowMs)))) as D1Result<{
    count: number
  }>[]
  return results.every((r, i) => (r.results[0]?.count ?? 1) <= (limits[i] as Limit).limit)
}

/** Reserves attempts on every key; over any limit → 429 envelope (nothing else happens). */
export async function reserveOrReject(
  db: D1Database,
  limits: Limit[],
  now: number,
  message: string,
): Promise<void> {
  if (!(await withinLimits(db, limits, now))) fail(429, message)
}

/**
 * Reserves one use of `what` by the request's client address (the key `<what>:ip:<address>`), at
 * most `limit` a window (`windowMs`, else the default one); over it → 429 with `message`.
 */
export function reservePerIp(
  c: Context<AppEnv>,
  what: string,
  limit: number,
  now: number,
  message: string,
  windowMs?: number,
): Promise<void> {
  const key = `${what}:ip:${clientAddress(c)}`
  return reserveOrReject(c.env.DB, [windowMs ? { key, limit, windowMs } : { key, limit }], now, message)
}

/**
 * This isolate's own count of each burst key in the current window of its period (windows aligned
 * to the clock, as the binding's). The binding counts every isolate of the location, never fewer
 * than this one saw, so once this isolate alone has counted a key past its limit the binding would
 * refuse it too: the request is refused without asking the binding. A burst that arrives at once
 * then costs one binding call per request let through, not one per request. At most
 * LOCAL_BURST_KEYS keys a window are kept (about 200 KB of the isolate's heap); past that the
 * window starts again empty, and the binding still answers for every key.
 */
const localBursts = new Map<number, { epoch: number; counts: Map<string, number> }>()
const LOCAL_BURST_KEYS = 2_000

/** Counts one request of `key` in this isolate; true when the isolate has seen more than `limit`. */
function overLocally(key: string, limit: number, periodSeconds: number): boolean {
  const epoch = Math.floor(Date.now() / (periodSeconds * 1000))
  let window = localBursts.get(periodSeconds)
  if (!window || window.epoch !== epoch || window.counts.size >= LOCAL_BURST_KEYS) {
    window = { epoch, counts: new Map() }
    localBursts.set(periodSeconds, window)
  }
  const count = (window.counts.get(key) ?? 0) + 1
  window.counts.set(key, count)
  return count > limit
}

/**
 * Refuses with 429 and Retry-After (the binding's period, in seconds) when `key` is over a Rate
 * Limiting binding's burst limit (`limit` a period: the binding's setting in wrangler.toml), counted
 * in this isolate first (see localBursts). Without the binding (a deployment that removed it) the
 * D1 counters behind it still apply.
 */
export async function limitBurst(
  c: Context<AppEnv>,
  limiter: RateLimit | undefined,
  key: string,
  limit: number,
  message: string,
  periodSeconds = CLIENT_ADDRESS_PERIOD_SECONDS,
): Promise<void> {
  if (!limiter) return
  if (overLocally(key, limit, periodSeconds) || !(await limiter.limit({ key })).success) {
    c.header('retry-after', String(periodSeconds))
    fail(429, message)
  }
}

/** Refuses with 429 and Retry-After when the client address is over AUTH_LIMITER's burst limit. */
export function limitClientAddress(c: Context<AppEnv>): Promise<void> {
  return limitBurst(
    c,
    c.env.AUTH_LIMITER,
    `auth:${clientAddress(c)}`,
    CLIENT_ADDRESS_LIMIT,
    MSG_CLIENT_ADDRESS_LIMITED,
  )
}

/** The spacing required after `failures` recent failures (0 → none). */
export function slowdownDelayMs(failures: number): number {
  if (failures <= 0) return 0
  return Math.min(SLOWDOWN_BASE_MS * 2 ** Math.min(failures - 1, 30), SLOWDOWN_CAP_MS)
}

// In SQL: the spacing after (failures + 1) failures, i.e. BASE·2^failures capped; `1 << n` is
// SQLite's power of two (n capped so the shift cannot overflow).
const NEXT_SPACING_SQL = 'MIN(?3 * (1 << MIN(failures, 30)), ?4)'

/**
 * Claims the next password check for `key` or refuses it: 429 with Retry-After (seconds) and
 * `message(seconds)`. The claimed slot is held for the spacing one more failure would need, so a
 * parallel guess waits too; `recordSuccess` releases it at once.
 */
export async function claimAttempt(
  c: Context<AppEnv>,
  key: string,
  now: number,
  message: (seconds: number) => string,
): Promise<void> {
  const db = c.env.DB
  const claimed = await db
    .prepare(
      `INSERT INTO auth_throttle (key, failures, last_failure_at, next_allowed_at) VALUES (?1, 0, 0, ?2 + ?3)
       ON CONFLICT(key) DO UPDATE SET
         failures = CASE WHEN last_failure_at <= ?2 - ?5 THEN 0 ELSE failures END,
         next_allowed_at = ?2 + CASE WHEN last_failure_at <= ?2 - ?5 THEN ?3 ELSE ${NEXT_SPACING_SQL} END
       WHERE auth_throttle.next_allowed_at <= ?2
       RETURNING failures`,
    )
    .bind(key, now, SLOWDOWN_BASE_MS, SLOWDOWN_CAP_MS, SLOWDOWN_MEMORY_MS)
    .first<{ failures: number }>()
  if (claimed) return
  const row = await db
    .prepare('SELECT next_allowed_at FROM auth_throttle WHERE key = ?')
    .bind(key)
    .first<{ next_allowed_at: number }>()
  const seconds = Math.max(1, Math.ceil(((row?.next_allowed_at ?? now) - now) / 1000))
  c.header('retry-after', String(seconds))
  fail(429, message(seconds))
}

/** A wrong password: one more recent failure, and the next check waits the doubled spacing. */
export async function recordFailure(db: D1Database, key: string, now: number): Promise<void> {
  await db
    .prepare(
      `INSERT INTO auth_throttle (key, failures, last_failure_at, next_allowed_at) VALUES (?1, 1, ?2, ?2 + ?3)
       ON CONFLICT(key) DO UPDATE SET
         failures = CASE WHEN last_failure_at <= ?2 - ?5 THEN 1 ELSE failures + 1 END,
         last_failure_at = ?2,
         next_allowed_at = ?2 + CASE WHEN last_failure_at <= ?2 - ?5 THEN ?3 ELSE ${NEXT_SPACING_SQL} END`,
    )
    .bind(key, now, SLOWDOWN_BASE_MS, SLOWDOWN_CAP_MS, SLOWDOWN_MEMORY_MS)
    .run()
}

/** The right password: the account's failures are forgotten and its next check is free. */
export async function recordSuccess(db: D1Database, key: string): Promise<void> {
  await db.prepare('DELETE FROM auth_throttle WHERE key = ?').bind(key).run()
}

/** Drops slow-down rows nobody needs any more (no failure for the memory window, slot open). */
export function pruneThrottle(db: D1Database, now: number): Promise<unknown> {
  return db
    .prepare('DELETE FROM auth_throttle WHERE last_failure_at < ?1 AND next_allowed_at < ?2')
    .bind(now - SLOWDOWN_MEMORY_MS, now)
    .run()
}
