/**
 * The dashboard's figures: today's orders and revenue per currency, pending payments, low stock.
 * "Today" is the shop's calendar day (SHOP_TIME_ZONE), not UTC's. Revenue is money kept: what
 * today's orders were paid minus what was refunded of it (an unpaid cash-on-delivery order adds
 * nothing until it is collected). Low stock is counted stock only (unmanaged stock and stock that
 * takes backorders never run out), named by its product with a link to it.
 */
import { shopTimeZone } from '@shared/config/store'
import { zonedDate, zonedDayRange } from '@shared/domain/shop-clock'
import { magentoDate } from '../api/user/repo'
import { reminderCounts } from '../messages/reminders'

/** Stock at or below this many units counts as low. */
const LOW_STOCK_UNITS = 3

export interface Dashboard {
  ordersToday: number
  revenueToday: { currency: string; minor: number }[]
  pendingPayments: number
  lowStock: LowStock[]
  /** Cash-on-delivery orders waiting for the shopper's confirmation. */
  codToConfirm: number
  /** Cart reminders of the last 30 days (worker/messages/reminders.ts). */
  reminders: { carts: number; reminders: number; clicked: number; ordered: number }
}

interface LowStock {
  sku: string
  qty: number
  /** The product the operator edits (the parent of a variant). */
  product_sku: string
  name: string
}

export async function dashboard(db: D1Database, now: number): Promise<Dashboard> {
  const tz = shopTimeZone()
  const dayStart = magentoDate(zonedDayRange(zonedDate(now, tz), tz).start)
  const [count, revenue, pending, low, toConfirm] = await db.batch([
    db.prepare('SELECT COUNT(*) AS n FROM orders WHERE created_at >= ?').bind(dayStart),
    db
      .prepare(
        `SELECT currency, SUM(paid_minor - refunded_minor) AS minor FROM orders
         WHERE created_at >= ? AND paid_minor > 0 GROUP BY currency ORDER BY currency`,
      )
      .bind(dayStart),
    db.prepare("SELECT COUNT(*) AS n FROM orders WHERE status IN ('pending_payment', 'payment_failed')"),
    db
      .prepare(
        `SELECT i.sku, i.qty, COALESCE(p.sku, i.sku) AS product_sku, COALESCE(p.name, i.sku) AS name
         FROM inventory i LEFT JOIN products p ON p.sku = COALESCE(i.parent_sku, i.sku)
         WHERE i.qty <= ? AND i.manage_stock = 1 AND i.backorders = 0 ORDER BY i.qty, i.sku LIMIT 50`,
      )
      .bind(LOW_STOCK_UNITS),
    db.prepare("SELECT COUNT(*) AS n FROM orders WHERE status = 'pending'"),
  ])
  const reminders = await reminderCounts(db, now - 30 * 86_400_000)
  const n = (r: D1Result | undefined) => Number((r?.results?.[0] as { n?: number } | undefined)?.n ?? 0)
  return {
    ordersToday: n(count),
    revenueToday: (revenue?.results ?? []) as Dashboard['revenueToday'],
    pendingPayments: n(pending),
    lowStock: (low?.results ?? []) as Dashboard['lowStock'],
    codToConfirm: n(toConfirm),
    reminders: {
      carts: reminders?.carts ?? 0,
      reminders: reminders?.reminders ?? 0,
      clicked: reminders?.clicked ?? 0,
      ordered: reminders?.ordered ?? 0,
    },
  }
}
