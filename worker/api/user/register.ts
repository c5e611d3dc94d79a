/**
 * Registration: the same answer, statements and time whether or not the address already has an
 * account (its owner is mailed instead), rate-limited per address and per e-mail address before
 * the password is hashed.
 */

import type { CreateUserBodySchema, CustomerInputSchema } from '@shared/schemas/user'
import type { Context } from 'hono'
import type { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { clientAddress, ok } from '../../platform/http'
import { hashPassword } from '../auth/crypto'
import { limitClientAddress, reserveOrReject } from '../auth/rate-limit'
import { deliverMailLater } from '../mail/deliver'
import { addressDoc, magentoDate } from './repo'

const REGISTER_LIMIT_PER_IP = 20
export const REGISTER_LIMIT_PER_ACCOUNT = 5
const REGISTER_RATE_LIMITED = `Too many registrations (at most ${REGISTER_LIMIT_PER_ACCOUNT} per e-mail address and ${REGISTER_LIMIT_PER_IP} per network address in 15 minutes). Please wait 15 minutes and try again.`

/** What /create answers: the submitted customer, identical whether or not the address was new. */
function registrationAnswer(customer: z.infer<typeof CustomerInputSchema>) {
  return {
    email: customer.email,
    firstname: customer.firstname,
    lastname: customer.lastname,
    addresses: (customer.addresses ?? []).map(({ id: _id, customer_id: _cid, ...a }) => a),
  }
}

export async function register(
  c: Context<AppEnv>,
  { customer, password }: z.output<typeof CreateUserBodySchema>,
) {
  const db = c.env.DB
  const now = Date.now()
  await limitClientAddress(c)
  await reserveOrReject(
    db,
    [
      { key: `register:ip:${clientAddress(c)}`, limit: REGISTER_LIMIT_PER_IP },
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
}
