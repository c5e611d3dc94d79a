/**
 * D1 access for customers, their addresses and refresh tokens. Rows never leave the backend as
 * is: `toCustomer` builds the public shape (no password hash, no reset token).
 */
import type { Address, Customer } from '@shared/schemas/user'
import { randomToken, sha256Hex } from '../auth/crypto'

export interface CustomerRow {
  id: number
  email: string
  firstname: string
  lastname: string
  password_hash: string | null
  group_id: number
  token_version: number
  store_id: number
  website_id: number
  created_in: string
  created_at: string
  updated_at: string
}

const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600 * 1000

/** Magento's 'YYYY-MM-DD HH:MM:SS' (UTC). */
export function magentoDate(now: number): string {
  return new Date(now).toISOString().slice(0, 19).replace('T', ' ')
}

/** An account by id; a disabled account is not found (it cannot sign in or use its tokens). */
export function findCustomerById(db: D1Database, id: number) {
  return db
    .prepare('SELECT * FROM customers WHERE id = ? AND disabled_at IS NULL')
    .bind(id)
    .first<CustomerRow>()
}

/**
 * The account an access token names (as findCustomerById) and whether the token's sign-in family
 * was revoked, in one statement (one index probe of `refresh_tokens_family`).
 */
export async function findTokenCustomer(
  db: D1Database,
  id: number,
  familyId: string,
): Promise<{ customer: CustomerRow; familyRevoked: boolean } | null> {
  const row = await db
    .prepare(
      `SELECT c.*, EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = ?2 AND r.revoked_at IS NOT NULL)
         AS family_revoked
       FROM customers c WHERE c.id = ?1 AND c.disabled_at IS NULL`,
    )
    .bind(id, familyId)
    .first<CustomerRow & { family_revoked: number }>()
  if (!row) return null
  const { family_revoked, ...customer } = row
  return { customer, familyRevoked: family_revoked === 1 }
}

/** An account by e-mail; a disabled account is not found. */
export function findCustomerByEmail(db: D1Database, email: string) {
  return db
    .prepare('SELECT * FROM customers WHERE email = ? AND disabled_at IS NULL')
    .bind(email.trim())
    .first<CustomerRow>()
}

interface AddressRow {
  id: number
  customer_id: number
  doc: string
}

export async function listAddresses(db: D1Database, customerId: number) {
  const { results } = await db
    .prepare('SELECT id, customer_id, doc FROM customer_addresses WHERE customer_id = ? ORDER BY id')
    .bind(customerId)
    .all<AddressRow>()
  return results
}

/** Address document as stored (ids are columns, not part of the doc). */
export function addressDoc(address: Address): string {
  const { id: _id, customer_id: _cid, ...rest } = address
  return JSON.stringify(rest)
}

/** The public customer: profile, address book, defaults from the address flags. */
export async function toCustomer(db: D1Database, row: CustomerRow): Promise<Customer> {
  const addresses = (await listAddresses(db, row.id)).map((a) => ({
    ...(JSON.parse(a.doc) as Address),
    id: a.id,
    customer_id: a.customer_id,
  }))
  const customer: Customer = {
    id: row.id,
    group_id: row.group_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_in: row.created_in,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    store_id: row.store_id,
    website_id: row.website_id,
    addresses,
    disable_auto_group_change: 0,
  }
  const billing = addresses.find((a) => a.default_billing)
  const shipping = addresses.find((a) => a.default_shipping)
  if (billing) customer.default_billing = String(billing.id)
  if (shipping) customer.default_shipping = String(shipping.id)
  return customer
}

/** Issues a refresh token (opaque; only its SHA-256 is stored) in a new or existing family. */
export async function issueRefreshToken(
  db: D1Database,
  customerId: number,
  now: number,
  familyId: string = randomToken(),
): Promise<{ token: string; familyId: string; statement: D1PreparedStatement }> {
  const token = randomToken()
  const statement = db
    .prepare(
      'INSERT INTO refresh_tokens (token_hash, customer_id, family_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
    )
    .bind(await sha256Hex(token), customerId, familyId, now, now + REFRESH_TOKEN_TTL_MS)
  return { token, familyId, statement }
}

/** Revokes every refresh token of a customer (password change/reset). */
export function revokeAllRefreshTokens(db: D1Database, customerId: number, now: number) {
  return db
    .prepare('UPDATE refresh_tokens SET revoked_at = ? WHERE customer_id = ? AND revoked_at IS NULL')
    .bind(now, customerId)
}
