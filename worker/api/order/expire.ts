/**
 * Orders nobody paid or confirmed in time expire: an order in a holding status (awaiting payment,
 * payment failed, cash on delivery not yet confirmed by the shop) past its `expires_at` moves to
 * 'expired', gives its stock and store credit back (exactly once: the move is a compare-and-set,
 * so a payment, a confirmation or a cancel that wins the race leaves it alone) and the shopper is
 * told.
 *
 * Each run drains everything due, in batches of EXPIRY_BATCH orders (oldest deadline first),
 * EXPIRY_CONCURRENCY at a time, until nothing is due or the run has spent EXPIRY_RUN_BUDGET_MS; what
 * is left then waits for the next run, so a run is bounded however much is due. An order whose
 * move fails is logged and not tried again in the same run.
 */
import { HOLDING_STATUSES } from '@shared/config/order-status'
import { readConfig } from '../../platform/env'
import { notifyOrder } from '../mail/notify'
import { transitionOrder } from './lifecycle'
import { purgeStockFlips } from './stock-pages'

/** Orders read per batch. */
const EXPIRY_BATCH = 50
/** Orders moved at once within a batch. */
const EXPIRY_CONCURRENCY = 5
/** Wall-clock time one run may spend (the Cron Trigger fires every 5 minutes). */
const EXPIRY_RUN_BUDGET_MS = 60_000

interface DueOrder {
  client_order_id: string
  status: string
}

interface ExpiryRun {
  /** Client order ids expired by this run. */
  expired: string[]
  /** Due orders left for the next run (the budget was spent first). */
  left: number
}

/** Expires the one order `orderId` if it is still holding; true when this call moved it. */
async function expireOne(env: Env, order: DueOrder, now: number): Promise<boolean> {
  const orderId = order.client_order_id
  const moved = await transitionOrder(
    env.DB,
    {
      orderId,
      to: 'expired',
      from: HOLDING_STATUSES,
      actor: 'system',
      releaseStock: true,
      returnCredit: true,
      paymentState: 'none',
      detail: { reason: order.status === 'pending' ? 'not confirmed in time' : 'not paid in time' },
    },
    now,
  )
  if (!moved.changed) return false
  await purgeStockFlips(env, orderId, 'returned')
  await notifyOrder(env, readConfig(env), 'expired', orderId, now)
  return true
}

/**
 * Expires the orders due at `now` (see above); `opts` narrows a run for tests and tools (batch
 * size, time budget, the clock the budget is read from).
 */
export async function expireHoldingOrders(
  env: Env,
  now: number,
  opts: { batch?: number; budgetMs?: number; clock?: () => number } = {},
): Promise<ExpiryRun> {
  const batch = opts.batch ?? EXPIRY_BATCH
  const clock = opts.clock ?? Date.now
  const stopAt = clock() + (opts.budgetMs ?? EXPIRY_RUN_BUDGET_MS)
  const expired: string[] = []
  const failed: string[] = []
  const due = (limit: number) =>
    env.DB.prepare(
      `SELECT client_order_id, status FROM orders
       WHERE expires_at IS NOT NULL AND expires_at <= ?1
         AND status IN (${HOLDING_STATUSES.map((_, i) => `?${i + 4}`).join(', ')})
         AND client_order_id NOT IN (SELECT value FROM json_each(?2))
       ORDER BY expires_at LIMIT ?3`,
    )
      .bind(now, JSON.stringify(failed), limit, ...HOLDING_STATUSES)
      .all<DueOrder>()
  while (clock() < stopAt) {
    const { results } = await due(batch)
    if (results.length === 0) return { expired, left: 0 }
    for (let i = 0; i < results.length && clock() < stopAt; i += EXPIRY_CONCURRENCY) {
      await Promise.all(
        results.slice(i, i + EXPIRY_CONCURRENCY).map(async (order) => {
          const orderId = order.client_order_id
          try {
            if (await expireOne(env, order, now)) expired.push(orderId)
          } catch (err) {
            failed.push(orderId)
            console.error(JSON.stringify({ msg: 'order expiry failed', orderId, err: String(err) }))
          }
        }),
      )
    }
  }
  const { results: rest } = await env.DB.prepare(
    `SELECT COUNT(*) AS n FROM orders WHERE expires_at IS NOT NULL AND expires_at <= ?1
       AND status IN (${HOLDING_STATUSES.map((_, i) => `?${i + 2}`).join(', ')})`,
  )
    .bind(now, ...HOLDING_STATUSES)
    .all<{ n: number }>()
  return { expired, left: rest[0]?.n ?? 0 }
}
