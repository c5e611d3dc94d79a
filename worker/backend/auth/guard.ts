/**
 * Who is calling: the customer is derived from the access token ONLY (`?token=` or
 * `Authorization: Bearer`, contract §1.0), never from a body or query user id.
 * A missing token means a guest; a present but invalid, expired or revoked one is a 401.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../env'
import { type CustomerRow, findCustomerById } from '../user/repo'
import { fail } from './http'
import { tokenSecret, verifyAccessToken } from './tokens'

/** The message Magento uses; the client hides it and refreshes the token (spec §8). */
export const NOT_AUTHORIZED = "The consumer isn't authorized to access self."
export const FORBIDDEN = 'This resource belongs to another customer.'

/** The raw token from the query or the Authorization header ('' when absent). */
export function readToken(c: Context<AppEnv>): string {
  const query = c.req.query('token')
  if (query) return query
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer\s+(.+)$/i.exec(header)
  return match?.[1]?.trim() ?? ''
}

/** The calling customer, null for a guest (no token); invalid tokens → 401. */
export async function optionalCustomer(c: Context<AppEnv>): Promise<CustomerRow | null> {
  const token = readToken(c)
  if (!token) return null
  const verified = await verifyAccessToken(tokenSecret(c.env, c.var.config), token, Date.now())
  if (!verified) fail(401, NOT_AUTHORIZED)
  const customer = await findCustomerById(c.env.DB, verified.customerId)
  if (!customer || customer.token_version !== verified.version) fail(401, NOT_AUTHORIZED)
  return customer
}

/** The calling customer; guests and invalid tokens → 401. */
export async function requireCustomer(c: Context<AppEnv>): Promise<CustomerRow> {
  const customer = await optionalCustomer(c)
  if (!customer) fail(401, NOT_AUTHORIZED)
  return customer
}
