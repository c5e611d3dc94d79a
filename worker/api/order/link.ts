/**
 * The order page link a shopper gets by e-mail and on the confirmation: `/order/<number>` with a
 * signed, expiring token for that one order in the URL FRAGMENT (`#k=…`). A fragment is never sent
 * to a server, so the token stays out of access logs and Referer headers; the page's script reads
 * it and sends it in a request header. A token opens only the order it names (number and client
 * order id are both signed) and stops working after ORDER_LINK_TTL_DAYS.
 */
import type { AppConfig } from '../../platform/env'
import { signJws, tokenSecret, verifyJws } from '../auth/tokens'

/** How long an e-mailed order link keeps working. */
const ORDER_LINK_TTL_DAYS = 60

/** The request header an order page sends its link token in. */
export const ORDER_LINK_HEADER = 'x-order-link'

/**
 * A signed token for one use (`typ`) of one order: its number (`sub`) and client order id (`oid`)
 * are both signed, and it stops working at `exp` (seconds).
 */
export function signOrderToken(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  typ: string,
  order: { increment_id: string; client_order_id: string },
  exp: number,
): Promise<string> {
  return signJws(tokenSecret(env, config), { typ, sub: order.increment_id, oid: order.client_order_id, exp })
}

/**
 * The client order id a token of `use.typ` names, when it is for the order number `use.number`,
 * not expired, and issued for at most `use.lifetime` seconds; null otherwise.
 */
export async function readOrderToken(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  token: string,
  use: { typ: string; number: string; lifetime: number },
  now: number,
): Promise<string | null> {
  const claims = await verifyJws(tokenSecret(env, config), token, { lifetimeSeconds: use.lifetime, now })
  if (claims?.typ !== use.typ || claims.sub !== use.number || typeof claims.oid !== 'string') return null
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null
  return claims.oid
}

/** A signed token that opens one order's page (and its pay-now button) until it expires. */
export function issueOrderLinkToken(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  order: { increment_id: string; client_order_id: string },
  now: number,
): Promise<string> {
  return signOrderToken(
    env,
    config,
    'order-link',
    order,
    Math.floor(now / 1000) + ORDER_LINK_TTL_DAYS * 86_400,
  )
}

/** The client order id a link token opens, when it is valid for the order number `number`. */
export async function verifyOrderLinkToken(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  token: string,
  number: string,
  now: number,
): Promise<string | null> {
  return readOrderToken(
    env,
    config,
    token,
    { typ: 'order-link', number, lifetime: ORDER_LINK_TTL_DAYS * 86_400 },
    now,
  )
}

/** The absolute order page URL with its token in the fragment. */
export async function orderPageLink(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  order: { increment_id: string; client_order_id: string },
  now: number,
): Promise<string> {
  const token = await issueOrderLinkToken(env, config, order, now)
  return `${config.PUBLIC_ORIGIN}/order/${encodeURIComponent(order.increment_id)}#k=${token}`
}
