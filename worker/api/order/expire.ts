/**
 * Unpaid online orders expire: an order still awaiting payment (or whose payment failed) past its
 * `expires_at` moves to 'expired', gives its stock and store credit back (exactly once: the move is
 * a compare-and-set, so a payment or a cancel that wins the race leaves it alone) and the shopper
 * is told. Run by the scheduled job; each run handles at most EXPIRY_BATCH orders, oldest first.
 */
import { PAYABLE_STATUSES } from '@shared/config/order-status'
import { readConfig } from '../../platform/env'
import { notifyOrder } from '../mail/notify'
import { transitionOrder } from './lifecycle'
import { purgeStockFlips } from './stock-pages'

/** Orders expired per scheduled run (the next run takes the rest). */
const EXPIRY_BATCH = 100

/** Expires the unpaid orders due at `now`; returns the client order ids it expired. */
export async function expireUnpaidOrders(env: Env, now: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT client_order_id FROM orders
     WHERE expires_at IS NOT NULL AND expires_at <= ? AND status IN (${PAYABLE_STATUSES.map(() => '?').join(', ')})
     ORDER BY expires_at LIMIT ?`,
  )
    .bind(now, ...PAYABLE_STATUSES, EXPIRY_BATCH)
    .all<{ client_order_id: string }>()
  const expired: string[] = []
  for (const { client_order_id: orderId } of results) {
    const moved = await transitionOrder(
      env.DB,
      {
        orderId,
        to: 'expired',
        from: PAYABLE_STATUSES,
        actor: 'system',
        releaseStock: true,
        returnCredit: true,
        paymentState: 'none',
        detail: { reason: 'not paid in time' },
      },
      now,
    )
    if (!moved.changed) continue
    expired.push(orderId)
    await purgeStockFlips(env, orderId, 'returned')
    await notifyOrder(env, readConfig(env), 'expired', orderId, now)
  }
  return expired
}
