/**
 * The signed-in customer's profile: reading it (with the group token) and updating it. Addresses
 * are the customer's own only; a new e-mail address needs the current password.
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, ok } from '../../platform/http'
import { FORBIDDEN, requireCustomer } from '../auth/guard'
import { type claimAttempt, limitClientAddress, reserveOrReject } from '../auth/rate-limit'
import { signJws, tokenSecret } from '../auth/tokens'
import { deliverMailLater } from '../mail/deliver'
import { checkCurrentPassword, PASSWORD_MISMATCH } from './password'
import {
  addressDoc,
  type CustomerRow,
  findCustomerById,
  listAddresses,
  magentoDate,
  toCustomer,
} from './repo'
import type { UpdateMeRequestSchema } from './schemas'

const EMAIL_CHANGE_LIMIT_PER_CUSTOMER = 5
const EMAIL_CHANGE_RATE_LIMITED = `Too many e-mail address changes (at most ${EMAIL_CHANGE_LIMIT_PER_CUSTOMER} in 15 minutes). Please wait 15 minutes and try again.`
const EMAIL_TAKEN = 'A customer with the same email address already exists in an associated website.'
export const EMAIL_CHANGE_NEEDS_PASSWORD =
  'Changing your e-mail address needs your current password (currentPassword).'

/** The customer as the API shows it, with a signed token naming their customer group. */
export async function withGroupToken(c: { env: Env; var: AppEnv['Variables'] }, row: CustomerRow) {
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

export async function updateProfile(
  c: Context<AppEnv>,
  { customer, currentPassword }: z.output<typeof UpdateMeRequestSchema>,
) {
  const me = await requireCustomer(c)
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
}
