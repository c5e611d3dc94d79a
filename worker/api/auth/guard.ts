/**
 * Who is calling: the customer is derived from the access token ONLY, never from a body or query
 * user id. Every endpoint takes it as `Authorization: Bearer <token>` (what our client sends, so
 * it stays out of URLs, logs and Referer) or as `?token=` (vue-storefront clients); an empty
 * `?token=` is a guest. Both present with different values is a 400: which one was meant is unknown.
 * A missing token means a guest; a present but invalid, expired or revoked one is a 401.
 *
 * Revoked means: the customer's token version moved on (password change or reset), the account
 * was disabled, or the token's sign-in family was revoked (a refresh token of it was used twice,
 * so somebody else holds a copy; a password change or an operator revokes every family). The
 * family is read in the same statement as the customer, so an access token stops working on the
 * request after the revocation, not when its 15 minutes run out.
 */
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../platform/env'
import { fail } from '../../platform/http'
import { type CustomerRow, findTokenCustomer } from '../user/repo'
import { tokenSecret, verifyAccessToken } from './tokens'

/** Magento's wording; the client hides a message containing it and refreshes the token instead. */
export const NOT_AUTHORIZED = "The consumer isn't authorized to access self."
export const FORBIDDEN = 'This resource belongs to another customer.'

const MSG_TWO_TOKENS =
  'Send the access token once: the Authorization header and ?token= carry different tokens.'

/** The raw token from the Authorization header or the query ('' when absent). */
function readToken(c: Context<AppEnv>): string {
  const query = c.req.query('token') ?? ''
  const header = c.req.header('authorization') ?? ''
  const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? ''
  if (query && bearer && query !== bearer) fail(400, MSG_TWO_TOKENS)
  return bearer || query
}

/** The caller of each request, looked up once however many steps ask (keyed by the request context). */
const callers = new WeakMap<Context<AppEnv>, Promise<CustomerRow | null>>()

/** The calling customer, null for a guest (no token); invalid tokens → 401. */
export function optionalCustomer(c: Context<AppEnv>): Promise<CustomerRow | null> {
  let caller = callers.get(c)
  if (!caller) {
    caller = lookUpCaller(c)
    callers.set(c, caller)
  }
  return caller
}

async function lookUpCaller(c: Context<AppEnv>): Promise<CustomerRow | null> {
  const token = readToken(c)
  if (!token) return null
  const verified = await verifyAccessToken(tokenSecret(c.env, c.var.config), token, Date.now())
  if (!verified) fail(401, NOT_AUTHORIZED)
  const found = await findTokenCustomer(c.env.DB, verified.customerId, verified.familyId)
  if (!found || found.familyRevoked || found.customer.token_version !== verified.version)
    fail(401, NOT_AUTHORIZED)
  return found.customer
}

/** The calling customer; guests and invalid tokens → 401. */
export async function requireCustomer(c: Context<AppEnv>): Promise<CustomerRow> {
  const customer = await optionalCustomer(c)
  if (!customer) fail(401, NOT_AUTHORIZED)
  return customer
}

/** Refuses guests and bad tokens (401) before anything else of the request is read. */
export const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  await requireCustomer(c)
  await next()
}
