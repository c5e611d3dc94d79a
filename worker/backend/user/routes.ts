/**
 * /api/user/* (contract §1.4, transactions spec §7):
 *   POST /create            {customer:{email,firstname,lastname,addresses?}, password} → customer
 *   POST /login             {username,password} → token, meta.refreshToken   (rate-limited)
 *   POST /social-login      {email,fname,lname,token,provider} → same as login (Google id tokens)
 *   POST /refresh           {refreshToken} → new token, meta.refreshToken (rotated; reuse revokes)
 *   POST /reset-password    {email} → true always (no account enumeration; rate-limited)
 *   POST /create-password   {email,newPassword,resetToken} → true
 *   POST /change-password   ?token {currentPassword,newPassword} → true (400: result.errorMessage)
 *   GET  /me                ?token → customer (+ groupToken)
 *   POST /me                ?token {customer} → updated customer (address ownership enforced)
 *   GET  /order-history     ?token&pageSize&currentPage → {items,search_criteria,total_count}
 * The customer always comes from the access token (?token= or Authorization: Bearer).
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import {
  ChangePasswordBodySchema,
  CreatePasswordBodySchema,
  CreateUserBodySchema,
  LoginBodySchema,
  RefreshBodySchema,
  ResetPasswordBodySchema,
  UpdateMeBodySchema,
} from '../../../shared/schemas/user'
import type { AppEnv } from '../../env'
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../auth/crypto'
import { FORBIDDEN, requireCustomer } from '../auth/guard'
import { clientIp, fail, noStore, ok, readBody, readQuery } from '../auth/http'
import {
  clear,
  LOGIN_LIMIT_PER_ACCOUNT,
  LOGIN_LIMIT_PER_IP,
  RESET_LIMIT_PER_ACCOUNT,
  RESET_LIMIT_PER_IP,
  release,
  reserveOrReject,
} from '../auth/rate-limit'
import { issueAccessToken, signJws, tokenSecret } from '../auth/tokens'
import { deliverMail } from '../mail/deliver'
import { orderDoc } from '../order/repo'
import {
  addressDoc,
  type CustomerRow,
  findCustomerByEmail,
  findCustomerById,
  issueRefreshToken,
  listAddresses,
  magentoDate,
  revokeAllRefreshTokens,
  toCustomer,
} from './repo'
import { socialLogin } from './social'

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000
const LOGIN_FAILED = 'You did not sign in correctly or your account is temporarily disabled.'
const LOGIN_RATE_LIMITED = 'Too many failed sign-in attempts. Please wait 15 minutes and try again.'
const RESET_RATE_LIMITED = 'Too many password reset requests. Please wait 15 minutes and try again.'
const REFRESH_INVALID = 'Refresh token is invalid or expired. Please sign in again.'
const EMAIL_TAKEN = 'A customer with the same email address already exists in an associated website.'

export const userRoutes = new Hono<AppEnv>()
userRoutes.use('*', noStore)

/** Signs in a customer: a fresh access token plus a refresh token in a new family. */
export async function signIn(c: { env: Env; var: AppEnv['Variables'] }, customer: CustomerRow) {
  const now = Date.now()
  const secret = tokenSecret(c.env, c.var.config)
  const token = await issueAccessToken(secret, customer.id, customer.token_version, now)
  const refresh = await issueRefreshToken(c.env.DB, customer.id, now)
  await refresh.statement.run()
  return { code: 200, result: token, meta: { refreshToken: refresh.token } }
}

async function withGroupToken(c: { env: Env; var: AppEnv['Variables'] }, row: CustomerRow) {
  const customer = await toCustomer(c.env.DB, row)
  customer.groupToken = await signJws(tokenSecret(c.env, c.var.config), {
    typ: 'group',
    group_id: row.group_id,
    id: row.id,
    user: row.email,
  })
  return customer
}

function isUniqueViolation(err: unknown): boolean {
  return String((err as Error)?.message ?? err).includes('UNIQUE constraint failed')
}

userRoutes.post('/create', async (c) => {
  const body = await readBody(c, CreateUserBodySchema)
  const { customer } = body
  const now = Date.now()
  // Policy first, then the (slow) hash; duplicates are caught by the UNIQUE constraint.
  const passwordHash = await hashPassword(body.password)
  const stamp = magentoDate(now)
  let id: number
  try {
    const row = await c.env.DB.prepare(
      `INSERT INTO customers (email, firstname, lastname, password_hash, store_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
      .bind(
        customer.email,
        customer.firstname,
        customer.lastname,
        passwordHash,
        c.var.config.STORE_ID,
        stamp,
        stamp,
      )
      .first<{ id: number }>()
    id = (row as { id: number }).id
  } catch (err) {
    if (isUniqueViolation(err)) fail(400, EMAIL_TAKEN)
    throw err
  }
  const addresses = customer.addresses ?? []
  if (addresses.length > 0) {
    await c.env.DB.batch(
      addresses.map((a) =>
        c.env.DB.prepare('INSERT INTO customer_addresses (customer_id, doc) VALUES (?, ?)').bind(
          id,
          addressDoc(a),
        ),
      ),
    )
  }
  const row = (await findCustomerById(c.env.DB, id)) as CustomerRow
  return ok(c, await toCustomer(c.env.DB, row))
})

userRoutes.post('/login', async (c) => {
  const { username, password } = await readBody(c, LoginBodySchema)
  const now = Date.now()
  const accountKey = `login:acct:${username.toLowerCase()}`
  const ipKey = `login:ip:${clientIp(c)}`
  await reserveOrReject(
    c.env.DB,
    [
      { key: accountKey, limit: LOGIN_LIMIT_PER_ACCOUNT },
      { key: ipKey, limit: LOGIN_LIMIT_PER_IP },
    ],
    now,
    LOGIN_RATE_LIMITED,
  )
  const customer = await findCustomerByEmail(c.env.DB, username)
  // verifyPassword does the full PBKDF2 work even without an account (no timing oracle).
  const valid = await verifyPassword(password, customer?.password_hash ?? null)
  if (!customer || !valid) fail(401, LOGIN_FAILED)
  await Promise.all([clear(c.env.DB, accountKey), release(c.env.DB, ipKey)])
  const answer = await signIn(c, customer)
  return c.json(answer, 200)
})

userRoutes.post('/social-login', async (c) => {
  const customer = await socialLogin(c)
  return c.json(await signIn(c, customer), 200)
})

userRoutes.post('/refresh', async (c) => {
  const { refreshToken } = await readBody(c, RefreshBodySchema)
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
    now,
  )
  return c.json({ code: 200, result: token, meta: { refreshToken: next.token } }, 200)
})

userRoutes.post('/reset-password', async (c) => {
  const { email } = await readBody(c, ResetPasswordBodySchema)
  const now = Date.now()
  await reserveOrReject(
    c.env.DB,
    [
      { key: `reset:acct:${email.toLowerCase()}`, limit: RESET_LIMIT_PER_ACCOUNT },
      { key: `reset:ip:${clientIp(c)}`, limit: RESET_LIMIT_PER_IP },
    ],
    now,
    RESET_RATE_LIMITED,
  )
  const customer = await findCustomerByEmail(c.env.DB, email)
  // The answer is the same whether or not the account exists (no account enumeration).
  if (customer) {
    const resetToken = randomToken()
    await c.env.DB.prepare('UPDATE customers SET reset_token_hash = ?, reset_expires_at = ? WHERE id = ?')
      .bind(await sha256Hex(resetToken), now + RESET_TOKEN_TTL_MS, customer.id)
      .run()
    const origin = new URL(c.req.url).origin
    const link = `${origin}/?resetPassword=1&email=${encodeURIComponent(customer.email)}&resetToken=${resetToken}`
    await deliverMail(
      c.env,
      {
        kind: 'password-reset',
        from: c.var.config.SUPPORT_EMAIL,
        to: customer.email,
        subject: `${c.var.config.STORE_NAME}: reset your password`,
        text: `Hello ${customer.firstname},\n\nTo choose a new password, open this link within one hour:\n${link}\n\nReset code: ${resetToken}\n\nIf you did not ask for this, ignore this mail.`,
      },
      now,
    )
  }
  return ok(c, true)
})

userRoutes.post('/create-password', async (c) => {
  const { email, newPassword, resetToken } = await readBody(c, CreatePasswordBodySchema)
  const now = Date.now()
  const passwordHash = await hashPassword(newPassword)
  // Single use and atomic: the token hash is cleared by the same statement that checks it.
  const updated = await c.env.DB.prepare(
    `UPDATE customers SET password_hash = ?, reset_token_hash = NULL, reset_expires_at = NULL,
       token_version = token_version + 1, updated_at = ?
     WHERE email = ? AND reset_token_hash = ? AND reset_expires_at > ? RETURNING id`,
  )
    .bind(passwordHash, magentoDate(now), email, await sha256Hex(resetToken), now)
    .first<{ id: number }>()
  if (!updated) fail(400, 'The password reset link is invalid or has expired.')
  await revokeAllRefreshTokens(c.env.DB, updated.id, now).run()
  return ok(c, true)
})

userRoutes.post('/change-password', async (c) => {
  const customer = await requireCustomer(c)
  // Failures answer {code:400, result:{errorMessage}}: the client reads result.errorMessage (spec §7).
  const refuse = (errorMessage: string) => c.json({ code: 400, result: { errorMessage } }, 400)
  let body: { currentPassword: string; newPassword: string }
  try {
    body = await readBody(c, ChangePasswordBodySchema)
  } catch (err) {
    if (err instanceof HTTPException) return refuse(err.message)
    throw err
  }
  const { currentPassword, newPassword } = body
  const now = Date.now()
  if (!(await verifyPassword(currentPassword, customer.password_hash))) {
    return refuse("The password doesn't match this account. Verify the password and try again.")
  }
  const passwordHash = await hashPassword(newPassword)
  await c.env.DB.batch([
    c.env.DB.prepare(
      'UPDATE customers SET password_hash = ?, token_version = token_version + 1, updated_at = ? WHERE id = ?',
    ).bind(passwordHash, magentoDate(now), customer.id),
    revokeAllRefreshTokens(c.env.DB, customer.id, now),
  ])
  return ok(c, true)
})

userRoutes.get('/me', async (c) => {
  const customer = await requireCustomer(c)
  return ok(c, await withGroupToken(c, customer))
})

userRoutes.post('/me', async (c) => {
  const me = await requireCustomer(c)
  const { customer } = await readBody(c, UpdateMeBodySchema)
  if (customer.id !== undefined && customer.id !== me.id) fail(403, FORBIDDEN)
  const db = c.env.DB
  const now = Date.now()
  const owned = new Set((await listAddresses(db, me.id)).map((a) => a.id))
  const addresses = customer.addresses
  const statements: D1PreparedStatement[] = [
    db
      .prepare('UPDATE customers SET email = ?, firstname = ?, lastname = ?, updated_at = ? WHERE id = ?')
      .bind(customer.email, customer.firstname, customer.lastname, magentoDate(now), me.id),
  ]
  if (addresses) {
    for (const a of addresses) {
      if (a.customer_id !== undefined && a.customer_id !== me.id) fail(403, FORBIDDEN)
      if (a.id !== undefined && !owned.has(a.id)) fail(403, FORBIDDEN)
    }
    const defaultBilling = customer.default_billing != null ? Number(customer.default_billing) : undefined
    const defaultShipping = customer.default_shipping != null ? Number(customer.default_shipping) : undefined
    const withFlags = addresses.map((a) => ({
      ...a,
      default_billing: a.default_billing ?? (a.id !== undefined && a.id === defaultBilling),
      default_shipping: a.default_shipping ?? (a.id !== undefined && a.id === defaultShipping),
    }))
    const kept = withFlags.filter((a) => a.id !== undefined).map((a) => a.id as number)
    statements.push(
      kept.length
        ? db
            .prepare(
              `DELETE FROM customer_addresses WHERE customer_id = ? AND id NOT IN (${kept.map(() => '?').join(',')})`,
            )
            .bind(me.id, ...kept)
        : db.prepare('DELETE FROM customer_addresses WHERE customer_id = ?').bind(me.id),
    )
    for (const a of withFlags) {
      statements.push(
        a.id !== undefined
          ? db
              .prepare('UPDATE customer_addresses SET doc = ? WHERE id = ? AND customer_id = ?')
              .bind(addressDoc(a), a.id, me.id)
          : db
              .prepare('INSERT INTO customer_addresses (customer_id, doc) VALUES (?, ?)')
              .bind(me.id, addressDoc(a)),
      )
    }
  }
  try {
    await db.batch(statements)
  } catch (err) {
    if (isUniqueViolation(err)) fail(400, EMAIL_TAKEN)
    throw err
  }
  const row = (await findCustomerById(db, me.id)) as CustomerRow
  return ok(c, await withGroupToken(c, row))
})

const OrderHistoryQuerySchema = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  currentPage: z.coerce.number().int().min(1).max(10_000).default(1),
})

userRoutes.get('/order-history', async (c) => {
  const customer = await requireCustomer(c)
  const { pageSize, currentPage } = readQuery(c, OrderHistoryQuerySchema)
  const db = c.env.DB
  const [{ results }, count] = await Promise.all([
    db
      .prepare(
        'SELECT entity_id, increment_id, doc FROM orders WHERE customer_id = ? ORDER BY entity_id DESC LIMIT ? OFFSET ?',
      )
      .bind(customer.id, pageSize, (currentPage - 1) * pageSize)
      .all<{ entity_id: number; increment_id: string; doc: string }>(),
    db
      .prepare('SELECT COUNT(*) AS n FROM orders WHERE customer_id = ?')
      .bind(customer.id)
      .first<{ n: number }>(),
  ])
  return ok(c, {
    items: results.map((r) => orderDoc(r)),
    search_criteria: {
      filter_groups: [
        { filters: [{ field: 'customer_id', value: String(customer.id), condition_type: 'eq' }] },
      ],
      page_size: pageSize,
      current_page: currentPage,
    },
    total_count: count?.n ?? 0,
  })
})
