/**
 * /api/state/* (transactions spec §7, abandoned cart):
 *   POST /send-state {state, id} → true   (the latest snapshot per id is kept in D1 `cart_states`;
 *   at most STATE_LIMIT_PER_IP per address per 15 minutes, then 429)
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../env'
import { clientIp, fail, noStore, ok, readBody } from '../auth/http'
import { reserveOrReject } from '../auth/rate-limit'
import { magentoDate } from '../user/repo'

export const MAX_STATE_BYTES = 64 * 1024
/** Snapshots one address may send per rate window (anyone may call this; it writes to D1). */
export const STATE_LIMIT_PER_IP = 300
export const MSG_TOO_MANY_STATES = 'Too many cart snapshots from this address. Please try again later.'

const SendStateBodySchema = z.object({
  id: z.union([z.string().trim().min(1, 'id is required').max(100), z.number().int()], {
    error: 'id is required',
  }),
  state: z.looseObject({}, { error: 'state must be an object' }),
})

export const stateRoutes = new Hono<AppEnv>()
stateRoutes.use('*', noStore)

stateRoutes.post('/send-state', async (c) => {
  const { id, state } = await readBody(c, SendStateBodySchema)
  const json = JSON.stringify(state)
  if (json.length > MAX_STATE_BYTES) fail(413, `state is too large (at most ${MAX_STATE_BYTES} bytes)`)
  await reserveOrReject(
    c.env.DB,
    [{ key: `state:ip:${clientIp(c)}`, limit: STATE_LIMIT_PER_IP }],
    Date.now(),
    MSG_TOO_MANY_STATES,
  )
  await c.env.DB.prepare(
    `INSERT INTO cart_states (id, state, updated_at) VALUES (?1, ?2, ?3)
     ON CONFLICT(id) DO UPDATE SET state = ?2, updated_at = ?3`,
  )
    .bind(String(id), json, magentoDate(Date.now()))
    .run()
  return ok(c, true)
})
