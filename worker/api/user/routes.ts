/**
 * /api/user/*:
 *   POST /create            {customer:{email,firstname,lastname,addresses?}, password} → the submitted
 *                           customer (same answer whether or not the e-mail already had an account;
 *                           an existing owner is mailed instead)
 *   POST /login             {username,password,deviceToken?} → token, meta.refreshToken, meta.deviceToken
 *   POST /social-login      {email,fname,lname,token,provider} → same as login (Google id tokens)
 *   POST /refresh           {refreshToken} → new token, meta.refreshToken (rotated; reuse revokes)
 *   POST /reset-password    {email} → true always (same answer and work for unknown addresses)
 *   POST /create-password   {email,newPassword,resetToken} → true
 *   POST /change-password   {currentPassword,newPassword} → true (400: result.errorMessage)
 *   GET  /me                → customer (+ groupToken)
 *   POST /me                {customer, currentPassword?} → updated customer (address ownership
 *                           enforced; a new e-mail address needs the current password)
 *   GET  /order-history     ?pageSize&currentPage → {items,search_criteria,total_count}
 * The customer always comes from the access token (Authorization: Bearer, or ?token=).
 * Every endpoint that hashes or checks a password validates its input and passes the request
 * limits (auth/rate-limit.ts) before any PBKDF2 work.
 */
import { type Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import {
  ChangePasswordBodySchema,
  CreatePasswordBodySchema,
  CreateUserBodySchema,
  type CustomerInputSchema,
  LoginBodySchema,
  RefreshBodySchema,
  ResetPasswordBodySchema,
  UpdateMeBodySchema,
} from '../../../shared/schemas/user'
import type { AppEnv } from '../../platform/env'
import { clientIp, fail, noStore, ok, readBody, readQuery } from '../../platform/http'
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../auth/crypto'
import { FORBIDDEN, requireCustomer } from '../auth/guard'
import {
  claimAttempt,
  LOGIN_LIMIT_PER_IP,
  limitClientAddress,
  pruneThrottle,
  RESET_LIMIT_PER_ACCOUNT,
  RESET_LIMIT_PER_IP,
  recordFailure,
  recordSuccess,
  release,
  reserveOrReject,
} from '../auth/rate-limit'
import {
  issueAccessToken,
  issueDeviceToken,
  MAX_TOKEN_LENGTH,
  signJws,
  tokenSecret,
  verifyDeviceToken,
} from '../auth/tokens'
import { deliverMail, deliverMailLater, runAfterAnswer } from '../mail/deliver'
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
export const REGISTER_LIMIT_PER_IP = 20
export const REGISTER_LIMIT_PER_ACCOUNT = 5
export const CREATE_PASSWORD_LIMIT_PER_IP = 20
export const EMAIL_CHANGE_LIMIT_PER_CUSTOMER = 5

const LOGIN_FAILED = 'You did not sign in correctly or your account is temporarily disabled.'
const LOGIN_IP_LIMITED = `Too many failed sign-in attempts from your network address (at most ${LOGIN_LIMIT_PER_IP} in 15 minutes). Please wait 15 minutes and try again.`
const slowedDown = (seconds: number) =>
  `Too many failed sign-in attempts for this account. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`
const passwordSlowedDown = (seconds: number) =>
  `Too many wrong passwords. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`
const RESET_RATE_LIMITED = `Too many password reset requests (at most ${RESET_LIMIT_PER_ACCOUNT} per address and ${RESET_LIMIT_PER_IP} per network address in 15 minutes). Please wait 15 minutes and try again.`
const REGISTER_RATE_LIMITED = `Too many registrations (at most ${REGISTER_LIMIT_PER_ACCOUNT} per e-mail address and ${REGISTER_LIMIT_PER_IP} per network address in 15 minutes). Please wait 15 minutes and try again.`
const CREATE_PASSWORD_RATE_LIMITED = `Too many attempts to set a new password (at most ${CREATE_PASSWORD_LIMIT_PER_IP} per network address in 15 minutes). Please wait 15 minutes and try again.`
const EMAIL_CHANGE_RATE_LIMITED = `Too many e-mail address changes (at most ${EMAIL_CHANGE_LIMIT_PER_CUSTOMER} in 15 minutes). Please wait 15 minutes and try again.`
const RESET_INVALID = 'The password reset link is invalid or has expired.'
const REFRESH_INVALID = 'Refresh token is invalid or expired. Please sign in again.'
const EMAIL_TAKEN = 'A customer with the same email address already exists in an associated website.'
const PASSWORD_MISMATCH = "The password doesn't match this account. Verify the password and try again."
export const EMAIL_CHANGE_NEEDS_PASSWORD =
  'Changing your e-mail address needs your current password (currentPassword).'

const LoginRequestSchema = LoginBodySchema.extend({
  deviceToken: z.string().max(MAX_TOKEN_LENGTH, 'deviceToken is too long').optional(),
})
const UpdateMeRequestSchema = UpdateMeBodySchema.extend({
  currentPassword: z.string().max(256, 'currentPassword is too long').optional(),
})

export const userRoutes = new Hono<AppEnv>()
userRoutes.use('*', noStore)

/** Signs in a customer: a fresh access token plus a refresh token in a new family. */
export async function signIn(
  c: { env: Env; var: AppEnv['Variables'] },
  customer: CustomerRow,
  extraMeta: Record<string, unknown> = {},
) {
  const now = Date.now()
  const secret = tokenSecret(c.env, c.var.config)
  const token = await issueAccessToken(secret, customer.id, customer.token_version, now)
  const refresh = await issueRefreshToken(c.env.DB, customer.id, now)
  await refresh.statement.run()
  return { code: 200, result: token, meta: { refreshToken: refresh.token, ...extraMeta } }
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

/** What /create answers: the submitted customer, identical whether or not the address was new. */
function registrationAnswer(customer: z.infer<typeof CustomerInputSchema>) {
  return {
    email: customer.email,
    firstname: customer.firstname,
    lastname: customer.lastname,
    addresses: (customer.addresses ?? []).map(({ id: _id, customer_id: _cid, ...a }) => a),
  }
}

userRoutes.post('/create', async (c) => {
  const { customer, password } = await readBody(c, CreateUserBodySchema)
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  await reserveOrReject(
    db,
    [
      { key: `register:ip:${clientIp(c)}`, limit: REGISTER_LIMIT_PER_IP },
      { key: `register:acct:${customer.email.toLowerCase()}`, limit: REGISTER_LIMIT_PER_ACCOUNT },
    ],
    now,
    REGISTER_RATE_LIMITED,
  )
  const passwordHash = await hashPassword(password)
  const stamp = magentoDate(now)
  // The same statements and writes whether or not the address is taken: on a duplicate the
  // upsert rewrites the existing row unchanged (and returns it with its own hash), and the
  // addresses attach only to the row this request created (matched by its unique salted hash),
  // so both answers take the same time.
  const results = await db.batch([
    db
      .prepare(
        `INSERT INTO customers (email, firstname, lastname, password_hash, store_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT(email) DO UPDATE SET updated_at = customers.updated_at
         RETURNING password_hash = ?4 AS created`,
      )
      .bind(
        customer.email,
        customer.firstname,
        customer.lastname,
        passwordHash,
        c.var.config.STORE_ID,
        stamp,
        stamp,
      ),
    ...(customer.addresses ?? []).map((a) =>
      db
        .prepare(
          'INSERT INTO customer_addresses (customer_id, doc) SELECT id, ? FROM customers WHERE email = ? AND password_hash = ?',
        )
        .bind(addressDoc(a), customer.email, passwordHash),
    ),
  ])
  const created = (results[0]?.results as { created: number }[] | undefined)?.[0]?.created === 1
  if (!created) {
    const origin = c.var.config.PUBLIC_ORIGIN
    deliverMailLater(
      c,
      {
        kind: 'account-exists',
        from: c.var.config.SUPPORT_EMAIL,
        to: customer.email,
        subject: `${c.var.config.STORE_NAME}: you already have an account`,
        text: `Hello,\n\nSomeone, perhaps you, tried to create a new ${c.var.config.STORE_NAME} account with this e-mail address. You already have one, and nothing about it has changed.\n\nSign in at ${origin}/ — if you forgot your password, choose "Forgot password?" in the sign-in form.\n\nIf this was not you, you can ignore this mail.`,
      },
      now,
    )
  }
  return ok(c, registrationAnswer(customer))
})

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

userRoutes.post('/login', async (c) => {
  const { username, password, deviceToken } = await readBody(c, LoginRequestSchema)
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  const ipKey = `login:ip:${clientIp(c)}`
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
  return c.json(await signIn(c, customer, { deviceToken: device }), 200)
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

/** Stores a fresh reset token for the address's account, if there is one, and mails the link. */
async function storeResetTokenAndMail(c: Context<AppEnv>, email: string, now: number): Promise<void> {
  const resetToken = randomToken()
  const customer = await c.env.DB.prepare(
    'UPDATE customers SET reset_token_hash = ?, reset_expires_at = ? WHERE email = ? RETURNING email, firstname',
  )
    .bind(await sha256Hex(resetToken), now + RESET_TOKEN_TTL_MS, email)
    .first<{ email: string; firstname: string }>()
  if (!customer) return
  const link = `${c.var.config.PUBLIC_ORIGIN}/?resetPassword=1&email=${encodeURIComponent(customer.email)}&resetToken=${resetToken}`
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

userRoutes.post('/reset-password', async (c) => {
  const { email } = await readBody(c, ResetPasswordBodySchema)
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  await reserveOrReject(
    db,
    [
      { key: `reset:acct:${email.toLowerCase()}`, limit: RESET_LIMIT_PER_ACCOUNT },
      { key: `reset:ip:${clientIp(c)}`, limit: RESET_LIMIT_PER_IP },
    ],
    now,
    RESET_RATE_LIMITED,
  )
  // Same answer and the same work before it whether or not the account exists: the reset token
  // is stored and mailed after the answer has gone out.
  runAfterAnswer(c, () => storeResetTokenAndMail(c, email, now), 'password reset mail')
  return ok(c, true)
})

userRoutes.post('/create-password', async (c) => {
  const { email, newPassword, resetToken } = await readBody(c, CreatePasswordBodySchema)
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  // Per address only: a reset token cannot be guessed, and a per-account limit would let anyone
  // block the owner's reset by spending it.
  await reserveOrReject(
    db,
    [{ key: `createpw:ip:${clientIp(c)}`, limit: CREATE_PASSWORD_LIMIT_PER_IP }],
    now,
    CREATE_PASSWORD_RATE_LIMITED,
  )
  const tokenHash = await sha256Hex(resetToken)
  // The reset token is checked before the (slow) hash of the new password.
  const pending = await db
    .prepare('SELECT id FROM customers WHERE email = ? AND reset_token_hash = ? AND reset_expires_at > ?')
    .bind(email, tokenHash, now)
    .first<{ id: number }>()
  if (!pending) fail(400, RESET_INVALID)
  const passwordHash = await hashPassword(newPassword)
  // Single use and atomic: the token hash is cleared by the same statement that checks it.
  const updated = await db
    .prepare(
      `UPDATE customers SET password_hash = ?, reset_token_hash = NULL, reset_expires_at = NULL,
         token_version = token_version + 1, updated_at = ?
       WHERE id = ? AND reset_token_hash = ? AND reset_expires_at > ? RETURNING id, email`,
    )
    .bind(passwordHash, magentoDate(now), pending.id, tokenHash, now)
    .first<{ id: number; email: string }>()
  if (!updated) fail(400, RESET_INVALID)
  // The mailed link proved the mailbox: sign-in failures of others no longer slow its owner down.
  await Promise.all([
    revokeAllRefreshTokens(db, updated.id, now).run(),
    recordSuccess(db, `login:acct:${updated.email.toLowerCase()}`),
  ])
  return ok(c, true)
})

/**
 * Checks the signed-in customer's current password behind the per-customer slow-down; a wrong
 * one counts as a failure there. Returns whether it matched.
 */
async function checkCurrentPassword(
  c: Parameters<typeof claimAttempt>[0],
  customer: CustomerRow,
  password: string,
): Promise<boolean> {
  const key = `password:${customer.id}`
  await claimAttempt(c, key, Date.now(), passwordSlowedDown)
  if (!(await verifyPassword(password, customer.password_hash))) {
    await recordFailure(c.env.DB, key, Date.now())
    return false
  }
  await recordSuccess(c.env.DB, key)
  return true
}

userRoutes.post('/change-password', async (c) => {
  const customer = await requireCustomer(c)
  // Failures answer {code:400, result:{errorMessage}}: the client reads result.errorMessage.
  const refuse = (errorMessage: string) => c.json({ code: 400, result: { errorMessage } }, 400)
  let body: { currentPassword: string; newPassword: string }
  try {
    body = await readBody(c, ChangePasswordBodySchema)
  } catch (err) {
    if (err instanceof HTTPException) return refuse(err.message)
    throw err
  }
  const { currentPassword, newPassword } = body
  await limitClientAddress(c)
  if (!(await checkCurrentPassword(c, customer, currentPassword))) return refuse(PASSWORD_MISMATCH)
  const now = Date.now()
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

/**
 * A new e-mail address (not just a change of letter case) is the key to the account (password
 * reset mails go to it), so it needs the current password, behind the per-customer slow-down
 * and at most EMAIL_CHANGE_LIMIT_PER_CUSTOMER tries per 15 minutes (the answer to a taken
 * address would otherwise enumerate accounts). The old address is told afterwards.
 */
async function authorizeEmailChange(
  c: Parameters<typeof claimAttempt>[0],
  me: CustomerRow,
  currentPassword: string | undefined,
): Promise<void> {
  if (!currentPassword) fail(400, EMAIL_CHANGE_NEEDS_PASSWORD)
  await limitClientAddress(c)
  await reserveOrReject(
    c.env.DB,
    [{ key: `email-change:${me.id}`, limit: EMAIL_CHANGE_LIMIT_PER_CUSTOMER }],
    Date.now(),
    EMAIL_CHANGE_RATE_LIMITED,
  )
  if (!(await checkCurrentPassword(c, me, currentPassword))) fail(400, PASSWORD_MISMATCH)
}

userRoutes.post('/me', async (c) => {
  const me = await requireCustomer(c)
  const { customer, currentPassword } = await readBody(c, UpdateMeRequestSchema)
  if (customer.id !== undefined && customer.id !== me.id) fail(403, FORBIDDEN)
  const db = c.env.DB
  const owned = new Set((await listAddresses(db, me.id)).map((a) => a.id))
  const addresses = customer.addresses
  for (const a of addresses ?? []) {
    if (a.customer_id !== undefined && a.customer_id !== me.id) fail(403, FORBIDDEN)
    if (a.id !== undefined && !owned.has(a.id)) fail(403, FORBIDDEN)
  }
  const emailChanged = customer.email.toLowerCase() !== me.email.toLowerCase()
  if (emailChanged) await authorizeEmailChange(c, me, currentPassword)
  const now = Date.now()
  const statements: D1PreparedStatement[] = [
    emailChanged
      ? db
          .prepare(
            `UPDATE customers SET email = ?, firstname = ?, lastname = ?, updated_at = ?,
               reset_token_hash = NULL, reset_expires_at = NULL WHERE id = ?`,
          )
          .bind(customer.email, customer.firstname, customer.lastname, magentoDate(now), me.id)
      : db
          .prepare('UPDATE customers SET email = ?, firstname = ?, lastname = ?, updated_at = ? WHERE id = ?')
          .bind(customer.email, customer.firstname, customer.lastname, magentoDate(now), me.id),
  ]
  if (addresses) {
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
  if (emailChanged) {
    deliverMailLater(
      c,
      {
        kind: 'email-changed',
        from: c.var.config.SUPPORT_EMAIL,
        to: me.email,
        subject: `${c.var.config.STORE_NAME}: your e-mail address was changed`,
        text: `Hello ${me.firstname},\n\nThe e-mail address of your ${c.var.config.STORE_NAME} account was changed to ${customer.email}. Mails about your account now go there.\n\nIf you did not do this, contact us at ${c.var.config.SUPPORT_EMAIL}.\n\n${c.var.config.PUBLIC_ORIGIN}/`,
      },
      now,
    )
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
