/**
 * A coupon's rule (read wherever a cart's totals or an order need it) and whether its usage rules
 * let a shopper use it: checked when a coupon is applied to a cart and again when an order carrying
 * it is placed (the order's own batch then counts the uses once more, so that orders placed at the
 * same instant cannot pass a limit together).
 */
import { shopperOrderIds } from '../order/repo'
import type { CouponRule } from './totals'

/** The coupon with this code (codes compare without case), or null. */
export async function findCoupon(db: D1Database, code: string | null): Promise<CouponRule | null> {
  if (!code) return null
  return db.prepare('SELECT * FROM coupons WHERE code = ?').bind(code).first<CouponRule>()
}

/**
 * Why a coupon's usage rules refuse this shopper (signed-in account and/or order e-mail), or null:
 * a first-order coupon for a shopper with an order, a shopper at the per-shopper limit, a coupon at
 * its total limit. Canceled and expired orders do not count as use.
 */
export async function couponUsageProblem(
  db: D1Database,
  rule: CouponRule,
  who: { customerId: number | null; email: string | null },
): Promise<string | null> {
  if (!rule.first_order_only && rule.per_customer_limit == null && rule.total_limit == null) return null
  // Only the counts the rules ask for. The shopper's start from the shopper's orders
  // (shopperOrderIds; the unary + keeps the coupon-code index out, which would read every use of a
  // popular coupon); the total from the coupon's uses (its index).
  const shopper = shopperOrderIds('?1', '?2')
  const live = "status NOT IN ('canceled', 'expired')"
  const counts = [
    rule.first_order_only
      ? `(SELECT COUNT(*) FROM orders WHERE entity_id IN (${shopper})) AS orders`
      : '0 AS orders',
    rule.per_customer_limit != null
      ? `(SELECT COUNT(*) FROM orders WHERE entity_id IN (${shopper}) AND ${live}
           AND +json_extract(doc, '$.coupon_code') = ?3 COLLATE NOCASE) AS mine`
      : '0 AS mine',
    rule.total_limit != null
      ? `(SELECT COUNT(*) FROM orders WHERE ${live} AND json_extract(doc, '$.coupon_code') = ?3 COLLATE NOCASE) AS total`
      : '0 AS total',
  ]
  const row = await db
    // `?3 AS code`: D1 wants every bound value used, whichever counts are asked for.
    .prepare(`SELECT ${counts.join(', ')}, ?3 AS code`)
    .bind(who.customerId, who.email, rule.code)
    .first<{ orders: number; mine: number; total: number }>()
  const known = who.customerId !== null || who.email !== null
  if (rule.first_order_only && known && (row?.orders ?? 0) > 0) {
    return `The coupon code "${rule.code}" is for a first order only.`
  }
  if (rule.per_customer_limit != null && known && (row?.mine ?? 0) >= rule.per_customer_limit) {
    return `The coupon code "${rule.code}" has already been used the most times allowed for you.`
  }
  if (rule.total_limit != null && (row?.total ?? 0) >= rule.total_limit) {
    return `The coupon code "${rule.code}" has been used up.`
  }
  return null
}
