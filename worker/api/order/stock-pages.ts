/**
 * Product pages never show stale stock. A cached product page (and its AMP copy) says "In stock" or
 * "Out of stock"; an order that takes the last sellable unit of a sku, and an expiry or cancel that
 * gives units back to a sold-out sku, purge the pages of the products that sku belongs to (the
 * variant's configurable, the line's bundle or grouped product, the sku's own page), right after
 * the stock moved, so the next request renders the stock as it is. Only a sku whose sellability
 * flipped is purged: an order that leaves units on the shelf costs one read (placement reads it
 * inside its own write batch) and no purge.
 */
import { purgeCacheTags, purgedCount } from '../../platform/cache/purge'
import { STOCK_ROWS } from './lifecycle'

/** A counted sku whose sellability a stock move flipped, with the products it belongs to. */
export interface FlippedSku {
  sku: string
  parent_sku: string | null
  line_parent: string | null
}

/**
 * The read of the order's counted skus whose sellability its stock move just flipped: `taken`
 * (the order was written) or `returned` (its stock went back). Run after the move, in its batch or
 * alone.
 */
export function stockFlipsStatement(
  db: D1Database,
  orderId: string,
  moved: 'taken' | 'returned',
): D1PreparedStatement {
  // The stock before the move was qty + units (taken) or qty - units (returned).
  return db
    .prepare(
      `SELECT i.sku, i.parent_sku, o.line_parent FROM inventory i
       JOIN (SELECT oi.sku, SUM(oi.qty) AS units, MAX(oi.parent_sku) AS line_parent FROM order_items oi
             WHERE ${STOCK_ROWS} GROUP BY oi.sku) o ON o.sku = i.sku
       WHERE i.manage_stock = 1 AND i.backorders <= 0 AND i.is_in_stock = 1
         AND (i.qty > 0) <> (i.qty + ?2 * o.units > 0)`,
    )
    .bind(orderId, moved === 'taken' ? 1 : -1)
}

/** Purges the product pages of the flipped skus; returns how many cached pages were dropped. */
export async function purgeFlipped(env: Env, flipped: readonly FlippedSku[]): Promise<number> {
  if (flipped.length === 0) return 0
  const tags = new Set<string>()
  for (const row of flipped) {
    tags.add(`P${row.parent_sku ?? row.sku}`)
    if (row.line_parent) tags.add(`P${row.line_parent}`)
  }
  return purgedCount(await purgeCacheTags(env, [...tags]))
}

/**
 * Purges the product pages of the order's counted skus whose sellability the order's stock move
 * just flipped. Returns how many cached pages were dropped here.
 */
export async function purgeStockFlips(
  env: Env,
  orderId: string,
  moved: 'taken' | 'returned',
): Promise<number> {
  const { results } = await stockFlipsStatement(env.DB, orderId, moved).all<FlippedSku>()
  return purgeFlipped(env, results)
}
