/**
 * The signed link in a COD order's mail: a token for that one order (typ 'cod-confirm', its number
 * and client order id), valid until the order's confirmation deadline. Opening it shows a page
 * with Confirm / Cancel buttons (worker/api/messages/routes.ts); a GET never confirms, because
 * mail scanners open links.
 */

import { readOrderToken, signOrderToken } from '../api/order/link'
import { findOrderByClientId } from '../api/order/repo'
import type { AppConfig } from '../platform/env'

/** The longest a confirmation link can live (the longest COD deadline the settings allow). */
const LINK_MAX_LIFETIME_S = 720 * 3600

/** The signed confirmation link for a COD order awaiting confirmation (null for any other order). */
export async function codConfirmLink(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  order: { client_order_id: string; increment_id: string; status: string; expires_at: number | null },
): Promise<string | null> {
  if (order.status !== 'pending' || !order.expires_at) return null
  const token = await signOrderToken(env, config, 'cod-confirm', order, Math.floor(order.expires_at / 1000))
  return `${config.PUBLIC_ORIGIN}/api/messages/cod/${encodeURIComponent(order.increment_id)}?t=${token}`
}

/** The client order id a confirmation token opens for order `number`, or null. */
export async function readCodToken(
  env: Env,
  config: AppConfig,
  token: string,
  number: string,
  now: number,
): Promise<string | null> {
  const oid = await readOrderToken(
    env,
    config,
    token,
    { typ: 'cod-confirm', number, lifetime: LINK_MAX_LIFETIME_S },
    now,
  )
  if (oid === null) return null
  const order = await findOrderByClientId(env.DB, oid)
  return order ? order.client_order_id : null
}
