/**
 * Signing in and staying signed in: password login (behind the per-address limit and the
 * per-account slow-down, a device token letting the owner through an attack on the account),
 * the answer every sign-in shares, and refresh-token rotation (reuse of a rotated token ends the
 * whole sign-in family).
 */

import type { RefreshBodySchema } from '@shared/schemas/user'
import type { Context } from 'hono'
import type { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail, ok } from '../../platform/http'
import { sha256Hex, verifyPassword } from '../auth/crypto'
import {
  claimAttempt,
  LOGIN_LIMIT_PER_IP,
  limitClientAddress,
  pruneThrottle,
  recordFailure,
  recordSuccess,
  release,
  reserveOrReject,
} from '../auth/rate-limit'
import { issueAccessToken, issueDeviceToken, tokenSecret, verifyDeviceToken } from '../auth/tokens'
import { type CustomerRow, findCustomerByEmail, findCustomerById, issueRefreshToken } from './repo'
import type { LoginRequestSchema } from './schemas'

const LOGIN_FAILED = 'You did not sign in correctly or your account is temporarily disabled.'
const LOGIN_IP_LIMITED = `Too many failed sign-in attempts from your network address (at most ${LOGIN_LIMIT_PER_IP} in 15 minutes). Please wait 15 minutes and try again.`
const slowedDown = (seconds: number) =>
  `Too many failed sign-in attempts for this account. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`
const REFRESH_INVALID = 'Refresh token is invalid or expired. Please sign in again.'

/** Signs in a customer: a fresh access token plus a refresh token in a new family. */
export async function signIn(
  c: Context<AppEnv>,
  customer: CustomerRow,
  extraMeta: Record<string, unknown> = {},
) {
  const now = Date.now()
  const secret = tokenSecret(c.env, c.var.config)
  const refresh = await issueRefreshToken(c.env.DB, customer.id, now)
  const token = await issueAccessToken(secret, customer.id, customer.token_version, refresh.familyId, now)
  await refresh.statement.run()
  return ok(c, token, { refreshToken: refresh.token, ...extraMeta })
}

/** The slow-down key of a login: the browser's own when it shows a device token of the account. */
async function loginThrottleKey(
  c: { env: Env; var: AppEnv['Variables'] },
  username: string,
  customer: CustomerRow | null,
  deviceToken: string | undefined,
  now: number,
): Promise<{ key: string; deviceToken: string | null }> {
  if (customer && deviceToken) {
    const device = await verifyDeviceToken(tokenSecret(c.env, c.var.config), deviceToken, customer.id, now)
    if (device) return { key: `login:device:${device}`, deviceToken }
  }
  return { key: `login:acct:${username.toLowerCase()}`, deviceToken: null }
}

export async function login(
  c: Context<AppEnv>,
  { username, password, deviceToken }: z.output<typeof LoginRequestSchema>,
) {
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  const ipKey = `login:ip:${clientAddress(c)}`
  await reserveOrReject(db, [{ key: ipKey, limit: LOGIN_LIMIT_PER_IP }], now, LOGIN_IP_LIMITED)
  const customer = await findCustomerByEmail(db, username)
  const throttle = await loginThrottleKey(c, username, customer, deviceToken, now)
  try {
    await claimAttempt(c, throttle.key, now, slowedDown)
  } catch (err) {
    // Refused before any password check: not a failure of this address.
    await release(db, ipKey)
    throw err
  }
  // verifyPassword does the full PBKDF2 work even without an account (no timing oracle).
  const valid = await verifyPassword(password, customer?.password_hash ?? null)
  if (!customer || !valid) {
    await recordFailure(db, throttle.key, Date.now())
    c.executionCtx.waitUntil(pruneThrottle(db, now))
    fail(401, LOGIN_FAILED)
  }
  await Promise.all([recordSuccess(db, throttle.key), release(db, ipKey)])
  const device =
    throttle.deviceToken ?? (await issueDeviceToken(tokenSecret(c.env, c.var.config), customer.id, now))
  return signIn(c, customer, { deviceToken: device })
}

export async function refresh(c: Context<AppEnv>, { refreshToken }: z.output<typeof RefreshBodySchema>) {
  const now = Date.now()
  const db = c.env.DB
  const hash = await sha256Hex(refreshToken)
  const row = await db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?').bind(hash).first<{
    customer_id: number
    family_id: string
    expires_at: number
    rotated_at: number | null
    revoked_at: number | null
  }>()
  if (!row || row.revoked_at !== null || row.expires_at <= now) fail(401, REFRESH_INVALID)
  const revokeFamily = () =>
    db
      .prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL')
      .bind(now, row.family_id)
      .run()
  if (row.rotated_at !== null) {
    // Reuse of a rotated token: someone else holds a copy. End every session of this sign-in.
    await revokeFamily()
    fail(401, REFRESH_INVALID)
  }
  const rotated = await db
    .prepare(
      'UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL',
    )
    .bind(now, hash)
    .run()
  if (rotated.meta.changes !== 1) {
    // Lost a race with another use of the same token: treat it as reuse.
    await revokeFamily()
    fail(401, REFRESH_INVALID)
  }
  const customer = await findCustomerById(db, row.customer_id)
  if (!customer) fail(401, REFRESH_INVALID)
  const next = await issueRefreshToken(db, customer.id, now, row.family_id)
  await next.statement.run()
  const token = await issueAccessToken(
    tokenSecret(c.env, c.var.config),
    customer.id,
    customer.token_version,
    row.family_id,
    now,
  )
  return ok(c, token, { refreshToken: next.token })
}
