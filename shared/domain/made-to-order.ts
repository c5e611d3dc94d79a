/**
 * Made to order: which pieces are, and the day they ship by. A piece is made to order when the
 * catalogue team listed its sku (or its parent's) among the products made to order, or when it has
 * a lead time (the product's `delivery_days`, at least one day) and no ready-to-ship units. It
 * ships by the shop's calendar date (Asia/Kolkata unless configured) of the order, or of today on
 * the product page and in the bag, plus its lead time in working days: Monday to Saturday, Sunday
 * is not counted. A piece listed as made to order without a lead time has no date and shows none.
 * Pure: the instant and the time zone are arguments.
 */

import { zonedDate } from './shop-clock'

/** What decides a piece's lead time: the product's lead time and the variant's ready-to-ship units. */
interface LeadTimeFields {
  delivery_days?: number | null
  rts_qty?: number | null
}

/** The lead time in working days of a piece made to order; null when it is not made to order or has no lead time. */
export function madeToOrderLeadDays(piece: LeadTimeFields, listed: boolean): number | null {
  const days = piece.delivery_days
  if (days == null || !Number.isFinite(days) || Math.round(days) < 1) return null
  if (!listed && (piece.rts_qty ?? 0) > 0) return null
  return Math.round(days)
}

/**
 * The date ('YYYY-MM-DD') a piece made to order ships by: the calendar date of `at` in `timeZone`
 * plus `leadDays` working days, each step skipping Sundays.
 */
export function shipsByDate(at: number, leadDays: number, timeZone: string): string {
  const start = Date.parse(`${zonedDate(at, timeZone)}T00:00:00Z`)
  const day = new Date(start)
  for (let left = Math.max(0, Math.round(leadDays)); left > 0; ) {
    day.setUTCDate(day.getUTCDate() + 1)
    if (day.getUTCDay() !== 0) left--
  }
  return day.toISOString().slice(0, 10)
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** What a shopper reads beside a piece made to order: 'Made to order — ships by Tue, 15 Dec'. */
export function madeToOrderNote(shipsBy: string): string {
  const day = new Date(`${shipsBy}T00:00:00Z`)
  return `Made to order — ships by ${WEEKDAYS[day.getUTCDay()]}, ${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`
}
