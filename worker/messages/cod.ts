/**
 * Cash on delivery confirmed (or canceled) by the shopper: a COD order waits in 'pending' ("to
 * confirm") until the shopper presses Confirm in WhatsApp, follows the signed link in the order
 * mail, or the shop confirms by phone from the back office; unconfirmed, it expires at its
 * deadline (worker/api/order/expire.ts). Each way moves it through transitionOrder from 'pending'
 * only, so of a button, a link and an expiry racing, exactly one applies.
 */

import { notifyOrder } from '../api/mail/notify'
import { type Transition, transitionOrder } from '../api/order/lifecycle'
import { purgeStockFlips } from '../api/order/stock-pages'
import type { AppConfig } from '../platform/env'

type CodAnswer = 'confirmed' | 'canceled' | 'unchanged'

/** A move of a COD order by the shopper: from 'pending' only, so it races a button, a link and an expiry safely. */
const shopperMoves = (env: Env, move: Omit<Transition, 'from' | 'actor'>, now: number) =>
  transitionOrder(env.DB, { ...move, from: ['pending'], actor: 'shopper' }, now)

/** Moves a 'pending' COD order to 'processing' (confirmed by the shopper through `via`). */
export async function shopperConfirms(
  env: Env,
  orderId: string,
  via: string,
  now: number,
): Promise<CodAnswer> {
  const moved = await shopperMoves(env, { orderId, to: 'processing', detail: { confirmed: via } }, now)
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
  const moved = await shopperMoves(
    env,
    {
      orderId,
      to: 'canceled',
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
