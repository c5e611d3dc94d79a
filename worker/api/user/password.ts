/**
 * Passwords: the reset request (same answer and work whether or not the account exists; the
 * token is stored and mailed after the answer), setting a new password with a reset token
 * (single use, checked before the new password is hashed), and changing it while signed in
 * (the current password behind the per-customer slow-down).
 */

import type {
  ChangePasswordBodySchema,
  CreatePasswordBodySchema,
  ResetPasswordBodySchema,
} from '@shared/schemas/user'
import type { Context } from 'hono'
import type { z } from 'zod'
import { renderAccountMail } from '../../mail/account-mail'
import { mailTemplate } from '../../mail/templates'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail, ok } from '../../platform/http'
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../auth/crypto'
import { requireCustomer } from '../auth/guard'
import {
  claimAttempt,
  limitClientAddress,
  RESET_LIMIT_PER_ACCOUNT,
  RESET_LIMIT_PER_IP,
  recordFailure,
  recordSuccess,
  reserveOrReject,
  reservePerIp,
} from '../auth/rate-limit'
import { deliverMail, runAfterAnswer } from '../mail/deliver'
import { type CustomerRow, magentoDate, revokeAllRefreshTokens } from './repo'

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000
const CREATE_PASSWORD_LIMIT_PER_IP = 20
const passwordSlowedDown = (seconds: number) =>
  `Too many wrong passwords. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`
const RESET_RATE_LIMITED = `Too many password reset requests (at most ${RESET_LIMIT_PER_ACCOUNT} per address and ${RESET_LIMIT_PER_IP} per network address in 15 minutes). Please wait 15 minutes and try again.`
const CREATE_PASSWORD_RATE_LIMITED = `Too many attempts to set a new password (at most ${CREATE_PASSWORD_LIMIT_PER_IP} per network address in 15 minutes). Please wait 15 minutes and try again.`
const RESET_INVALID = 'The password reset link is invalid or has expired.'
export const PASSWORD_MISMATCH = "The password doesn't match this account. Verify the password and try again."

/** A refused password change answers {code: 400, result: {errorMessage}}: the client reads result.errorMessage. */
export function refusePasswordChange(c: Context<AppEnv>, errorMessage: string) {
  return ok(c, { errorMessage }, undefined, 400)
}

/** Stores a fresh reset token for the address's account, if there is one, and mails the link. */
async function storeResetTokenAndMail(c: Context<AppEnv>, email: string, now: number): Promise<void> {
  const resetToken = randomToken()
  const customer = await c.env.DB.prepare(
    'UPDATE customers SET reset_token_hash = ?, reset_expires_at = ? WHERE email = ? RETURNING email, firstname',
  )
    .bind(await sha256Hex(resetToken), now + RESET_TOKEN_TTL_MS, email)
    .first<{ email: string; firstname: string }>()
  if (!customer) return
  const config = c.var.config
  const link = `${config.PUBLIC_ORIGIN}/?resetPassword=1&email=${encodeURIComponent(customer.email)}&resetToken=${resetToken}`
  const mail = renderAccountMail(
    'password_reset',
    { name: customer.firstname, link, code: resetToken },
    { name: config.STORE_NAME, supportEmail: config.SUPPORT_EMAIL },
    await mailTemplate(c.env.DB, 'password_reset'),
  )
  await deliverMail(
    c.env,
    { kind: 'password-reset', from: config.SUPPORT_EMAIL, to: customer.email, ...mail },
    now,
  )
}

export async function requestPasswordReset(
  c: Context<AppEnv>,
  { email }: z.output<typeof ResetPasswordBodySchema>,
) {
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  await reserveOrReject(
    db,
    [
      { key: `reset:acct:${email.toLowerCase()}`, limit: RESET_LIMIT_PER_ACCOUNT },
      { key: `reset:ip:${clientAddress(c)}`, limit: RESET_LIMIT_PER_IP },
    ],
    now,
    RESET_RATE_LIMITED,
  )
  // Same answer and the same work before it whether or not the account exists: the reset token
  // is stored and mailed after the answer has gone out.
  runAfterAnswer(c, () => storeResetTokenAndMail(c, email, now), 'password reset mail')
  return ok(c, true)
}

export async function createPassword(
  c: Context<AppEnv>,
  { email, newPassword, resetToken }: z.output<typeof CreatePasswordBodySchema>,
) {
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  // Per address only: a reset token cannot be guessed, and a per-account limit would let anyone
  // block the owner's reset by spending it.
  await reservePerIp(c, 'createpw', CREATE_PASSWORD_LIMIT_PER_IP, now, CREATE_PASSWORD_RATE_LIMITED)
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
}

/**
 * Checks the signed-in customer's current password behind the per-customer slow-down; a wrong
 * one counts as a failure there. Returns whether it matched.
 */
export async function checkCurrentPassword(
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

export async function changePassword(
  c: Context<AppEnv>,
  { currentPassword, newPassword }: z.output<typeof ChangePasswordBodySchema>,
) {
  const customer = await requireCustomer(c)
  await limitClientAddress(c)
  if (!(await checkCurrentPassword(c, customer, currentPassword)))
    return refusePasswordChange(c, PASSWORD_MISMATCH)
  const now = Date.now()
  const passwordHash = await hashPassword(newPassword)
  await c.env.DB.batch([
    c.env.DB.prepare(
      'UPDATE customers SET password_hash = ?, token_version = token_version + 1, updated_at = ? WHERE id = ?',
    ).bind(passwordHash, magentoDate(now), customer.id),
    revokeAllRefreshTokens(c.env.DB, customer.id, now),
  ])
  return ok(c, true)
}
