/**
 * The dashboard's figures: today's orders and revenue per currency, pending payments, low stock.
 * "Today" is the shop's calendar day (SHOP_TIME_ZONE), not UTC's.
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
  lowStock: { sku: string; qty: number }[]
  /** Cash-on-delivery orders waiting for the shopper's confirmation. */
  codToConfirm: number
  /** Cart reminders of the last 30 days (worker/messages/reminders.ts). */
  reminders: { carts: number; reminders: number; clicked: number; ordered: number }
}

export async function dashboard(db: D1Database, now: number): Promise<Dashboard> {
  const tz = shopTimeZone()
  const dayStart = magentoDate(zonedDayRange(zonedDate(now, tz), tz).start)
  const [count, revenue, pending, low, toConfirm] = await db.batch([
    db.prepare('SELECT COUNT(*) AS n FROM orders WHERE created_at >= ?').bind(dayStart),
    db
      .prepare(
        `SELECT currency, SUM(COALESCE(grand_total_minor, 0)) AS minor FROM orders
         WHERE created_at >= ? AND status NOT IN ('canceled', 'expired') GROUP BY currency ORDER BY currency`,
      )
      .bind(dayStart),
    db.prepare("SELECT COUNT(*) AS n FROM orders WHERE status IN ('pending_payment', 'payment_failed')"),
    db
      .prepare('SELECT sku, qty FROM inventory WHERE qty <= ? ORDER BY qty, sku LIMIT 50')
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
