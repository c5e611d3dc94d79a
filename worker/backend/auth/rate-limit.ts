/**
 * Fixed-window attempt counters in D1 (atomic upsert; KV has no compare-and-set). A request
 * reserves an attempt first (so parallel guesses are counted too); a successful login releases
 * the reservation.
 */
import { fail } from './http'

export const RATE_WINDOW_MS = 15 * 60 * 1000
export const LOGIN_LIMIT_PER_ACCOUNT = 5
export const LOGIN_LIMIT_PER_IP = 20
export const RESET_LIMIT_PER_ACCOUNT = 5
export const RESET_LIMIT_PER_IP = 20

/** Counts one attempt for `key` and returns the count inside the current window. */
export async function hit(db: D1Database, key: string, now: number): Promise<number> {
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, 1)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start <= ?2 - ?3 THEN 1 ELSE rate_limits.count + 1 END,
         window_start = CASE WHEN rate_limits.window_start <= ?2 - ?3 THEN ?2 ELSE rate_limits.window_start END
       RETURNING count`,
    )
    .bind(key, now, RATE_WINDOW_MS)
    .first<{ count: number }>()
  return row?.count ?? 1
}

/** Takes back one attempt (a successful login is not a failure). */
export async function release(db: D1Database, key: string): Promise<void> {
  await db.prepare('UPDATE rate_limits SET count = MAX(count - 1, 0) WHERE key = ?').bind(key).run()
}

/** Clears a counter (after a successful login for the account). */
export async function clear(db: D1Database, key: string): Promise<void> {
  await db.prepare('DELETE FROM rate_limits WHERE key = ?').bind(key).run()
}

/** Reserves attempts on every key; over any limit → 429 envelope (nothing else happens). */
export async function reserveOrReject(
  db: D1Database,
  limits: { key: string; limit: number }[],
  now: number,
  message: string,
): Promise<void> {
  const counts = await Promise.all(limits.map((l) => hit(db, l.key, now)))
  if (counts.some((count, i) => count > (limits[i] as { limit: number }).limit)) fail(429, message)
}
