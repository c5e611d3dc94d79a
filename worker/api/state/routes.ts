/**
 * /api/state/* (abandoned-cart snapshots):
 *   POST /send-state {state, id} → true   (the latest snapshot per cart is kept in D1 `cart_states`)
 *
 * The id names the caller's own cart, as the cart endpoints take it: a guest cart's token, or a
 * customer cart's id with its owner's access token (another's → 403, none → 401, no such active
 * cart → 404). The snapshot is stored under the cart's row id, so no one can write over a
 * snapshot of a cart that is not theirs, and no cart token is kept in `cart_states`.
 *
 * A guest's checkout sends `reminder: {email, consent}` with the snapshot when they tick (or untick)
 * "E-mail me a reminder if I leave my bag": recorded for that cart only, a guest cart only, within
 * the per-address and per-e-mail bounds of worker/messages/guest-reminders.ts.
 *
 * It writes to D1, so every cost is bounded (docs/cart-state-snapshots.md):
 * - size: the body is read up to MAX_SEND_STATE_BODY_BYTES, the stored state is at most
 *   MAX_STATE_BYTES of UTF-8 and nests at most MAX_STATE_DEPTH levels (400 naming the limit);
 * - rate: STATE_LIMIT_PER_IP snapshots per address (an IPv6 /64 counts as one) per 15 minutes,
 *   and STATE_BYTES_PER_DAY bytes for the whole shop per day (429);
 * - retention: snapshots untouched for STATE_RETENTION_DAYS are deleted, at most
 *   STATE_PRUNE_BATCH per pass, on about 1 % of writes (an index on updated_at finds them).
 */

import { EmailSchema } from '@shared/schemas/user'
import { Hono } from 'hono'
import { z } from 'zod'
import { GUEST_CONSENTS_PER_HOUR, recordGuestConsent } from '../../messages/guest-reminders'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail, jsonBody, noStore, ok } from '../../platform/http'
import { reserveOrReject } from '../auth/rate-limit'
import { callersCart } from '../cart/repo'
import { magentoDate } from '../user/repo'

/** Most UTF-8 bytes of one stored snapshot (the JSON of `state`). */
export const MAX_STATE_BYTES = 64 * 1024
/** Most bytes of a request body (the state plus the id and the JSON around them). */
export const MAX_SEND_STATE_BODY_BYTES = MAX_STATE_BYTES + 1024
/** Deepest nesting of objects and arrays inside `state`. */
export const MAX_STATE_DEPTH = 32
/** Longest snapshot id. */
const MAX_STATE_ID_LENGTH = 100
/** Snapshots one address may send per rate window (anyone may call this; it writes to D1). */
export const STATE_LIMIT_PER_IP = 300
/** Bytes of snapshots the whole shop accepts per day: bounds what a crowd of addresses can store. */
export const STATE_BYTES_PER_DAY = 64 * 1024 * 1024
/** Snapshots not updated for this long are deleted. */
export const STATE_RETENTION_DAYS = 30
/** Share of writes that also prune expired snapshots. */
const STATE_PRUNE_PROBABILITY = 0.01
/** Most snapshots one prune pass deletes (keeps the cost of the write that runs it bounded). */
export const STATE_PRUNE_BATCH = 500

export const MSG_TOO_MANY_STATES = 'Too many cart snapshots from this address. Please try again later.'
export const MSG_STATE_BUDGET_SPENT =
  'The shop is not accepting more cart snapshots today. Please try again tomorrow.'

const DAY_MS = 86_400_000

const SendStateBodySchema = z.object({
  id: z.union(
    [
      z
        .string()
        .trim()
        .min(1, 'id is required')
        .max(MAX_STATE_ID_LENGTH, `id is at most ${MAX_STATE_ID_LENGTH} characters`),
      z.number().int().safe(),
    ],
    { error: 'id is required (a string or an integer)' },
  ),
  state: z.looseObject({}, { error: 'state must be an object' }),
  reminder: z
    .object({
      email: EmailSchema,
      consent: z.boolean({ error: 'reminder.consent must be true or false' }),
    })
    .optional(),
})

/** How deeply objects and arrays nest in a parsed JSON value (iterative: no stack to exhaust). */
function jsonDepth(value: unknown): number {
  let deepest = 0
  const stack: [unknown, number][] = [[value, 1]]
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (v === null || typeof v !== 'object') continue
    if (depth > deepest) deepest = depth
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1])
  }
  return deepest
}

/** Adds `bytes` to today's shop-wide snapshot budget; over STATE_BYTES_PER_DAY → 429. */
async function spendDailyBudget(db: D1Database, bytes: number, now: number): Promise<void> {
  const row = await db
    .prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ('state:bytes:day', ?1, ?2)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN rate_limits.window_start <= ?1 - ?3 THEN ?2 ELSE rate_limits.count + ?2 END,
         window_start = CASE WHEN rate_limits.window_start <= ?1 - ?3 THEN ?1 ELSE rate_limits.window_start END
       RETURNING count`,
    )
    .bind(now, bytes, DAY_MS)
    .first<{ count: number }>()
  if ((row?.count ?? bytes) > STATE_BYTES_PER_DAY) fail(429, MSG_STATE_BUDGET_SPENT)
}

/** Deletes at most STATE_PRUNE_BATCH snapshots older than STATE_RETENTION_DAYS; returns how many. */
export async function pruneCartStates(db: D1Database, now = Date.now()): Promise<number> {
  const cutoff = magentoDate(now - STATE_RETENTION_DAYS * DAY_MS)
  const res = await db
    .prepare(
      `DELETE FROM cart_states WHERE rowid IN
         (SELECT rowid FROM cart_states WHERE updated_at < ?1 ORDER BY updated_at LIMIT ?2)`,
    )
    .bind(cutoff, STATE_PRUNE_BATCH)
    .run()
  return res.meta.changes ?? 0
}

export const stateRoutes = new Hono<AppEnv>()
stateRoutes.use('*', noStore)

stateRoutes.post(
  '/send-state',
  jsonBody(SendStateBodySchema, { maxBytes: MAX_SEND_STATE_BODY_BYTES }),
  async (c) => {
    const { id, state, reminder } = c.req.valid('json')
    if (jsonDepth(state) > MAX_STATE_DEPTH)
      fail(400, `state nests too deeply (at most ${MAX_STATE_DEPTH} levels)`)
    const json = JSON.stringify(state)
    const bytes = new TextEncoder().encode(json).byteLength
    if (bytes > MAX_STATE_BYTES) fail(400, `state is too large (at most ${MAX_STATE_BYTES} bytes)`)
    const now = Date.now()
    await reserveOrReject(
      c.env.DB,
      [{ key: `state:ip:${clientAddress(c)}`, limit: STATE_LIMIT_PER_IP }],
      now,
      MSG_TOO_MANY_STATES,
    )
    if (reminder)
      await reserveOrReject(
        c.env.DB,
        [{ key: `reminder:ip:${clientAddress(c)}`, limit: GUEST_CONSENTS_PER_HOUR, windowMs: 3600_000 }],
        now,
        'Too many cart reminder choices from this address. Please try again in an hour.',
      )
    const { cart } = await callersCart(c, String(id).trim(), 'id')
    if (reminder && cart.customer_id !== null)
      fail(400, 'Signed-in shoppers switch cart reminders on or off in their account.')
    await spendDailyBudget(c.env.DB, bytes, now)
    await c.env.DB.prepare(
      `INSERT INTO cart_states (id, state, updated_at) VALUES (?1, ?2, ?3)
       ON CONFLICT(id) DO UPDATE SET state = ?2, updated_at = ?3`,
    )
      .bind(String(cart.id), json, magentoDate(now))
      .run()
    if (reminder) await recordGuestConsent(c.env.DB, cart.id, reminder.email, reminder.consent, now)
    if (Math.random() < STATE_PRUNE_PROBABILITY) await pruneCartStates(c.env.DB, now)
    return ok(c, true)
  },
)
