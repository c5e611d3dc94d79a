/**
 * Cash on delivery confirmed (or canceled) by the shopper: a COD order waits in 'pending' ("to
 * confirm") until the shopper presses Confirm in WhatsApp, follows the signed link in the order
 * mail, or the shop confirms by phone from the back office; unconfirmed, it expires at its
 * deadline (worker/api/order/expire.ts). Each way moves it through transitionOrder from 'pending'
 * only, so of a button, a link and an expiry racing, exactly one applies.
 *
 * The mail's link carries a signed token for that one order, valid until the order's deadline;
 * opening it shows a page with a button (a GET never confirms: mail scanners open links).
 */

import { signJws, tokenSecret, verifyJws } from '../api/auth/tokens'
import { notifyOrder } from '../api/mail/notify'
import { transitionOrder } from '../api/order/lifecycle'
import { findOrderByClientId } from '../api/order/repo'
import { purgeStockFlips } from '../api/order/stock-pages'
import type { AppConfig } from '../platform/env'

/** The longest a confirmation link can live (the longest COD deadline the settings allow). */
const LINK_MAX_LIFETIME_S = 720 * 3600

export type CodAnswer = 'confirmed' | 'canceled' | 'unchanged'

/** Moves a 'pending' COD order to 'processing' (confirmed by the shopper through `via`). */
export async function shopperConfirms(
  env: Env,
  orderId: string,
  via: string,
  now: number,
): Promise<CodAnswer> {
  const moved = await transitionOrder(
    env.DB,
    { orderId, to: 'processing', from: ['pending'], actor: 'shopper', detail: { confirmed: via } },
    now,
  )
  return moved.changed ? 'confirmed' : 'unchanged'
}

/** Cancels a 'pending' COD order at the shopper's word: its stock and credit go back, once. */
export async function shopperCancels(
  env: Env,
  config: AppConfig,
  orderId: string,
  via: string,
  now: number,
): Promise<CodAnswer> {
  const moved = await transitionOrder(
    env.DB,
    {
      orderId,
      to: 'canceled',
      from: ['pending'],
      actor: 'shopper',
      releaseStock: true,
      returnCredit: true,
      detail: { reason: `canceled by the shopper (${via})` },
    },
    now,
  )
  if (!moved.changed) return 'unchanged'
  await purgeStockFlips(env, orderId, 'returned')
  await notifyOrder(env, config, 'canceled', orderId, now)
  return 'canceled'
}

/** The signed confirmation link for a COD order awaiting confirmation (null for any other order). */
export async function codConfirmLink(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  order: { client_order_id: string; increment_id: string; status: string; expires_at: number | null },
): Promise<string | null> {
  if (order.status !== 'pending' || !order.expires_at) return null
  const token = await signJws(tokenSecret(env, config), {
    typ: 'cod-confirm',
    sub: order.increment_id,
    oid: order.client_order_id,
    exp: Math.floor(order.expires_at / 1000),
  })
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
  const claims = await verifyJws(tokenSecret(env, config), token, {
    lifetimeSeconds: LINK_MAX_LIFETIME_S,
    now,
  })
  if (claims?.typ !== 'cod-confirm' || claims.sub !== number || typeof claims.oid !== 'string') return null
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now) return null
  const order = await findOrderByClientId(env.DB, claims.oid)
  return order ? order.client_order_id : null
}
