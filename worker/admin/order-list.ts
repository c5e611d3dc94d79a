/**
 * The back office's order list: filters (status, payment state, dates, a search over number,
 * e-mail, phone and SKU), pages of 25 newest first, and the same filter as CSV.
 */
import { isOrderStatus } from '@shared/config/order-status'
import { shopTimeZone } from '@shared/config/store'
import { storedInstant, zonedDateTime, zonedDayRange } from '@shared/domain/shop-clock'
import { z } from 'zod'
import { magentoDate } from '../api/user/repo'
import { containsPattern } from './input'

export const PAGE_SIZE = 25
const MAX_CSV_ROWS = 5000

const dateParam = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .optional()

export const OrderFilterSchema = z.object({
  status: z
    .string()
    .max(40)
    .refine(isOrderStatus, 'is not an order status')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  payment: z
    .enum(['none', 'awaiting', 'paid', 'failed', 'partially_refunded', 'refunded'], {
      error: 'is not a payment state',
    })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  from: dateParam.or(z.literal('').transform(() => undefined)),
  to: dateParam.or(z.literal('').transform(() => undefined)),
  q: z.string().trim().max(200, 'is too long').optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
})
export type OrderFilter = z.infer<typeof OrderFilterSchema>

export interface OrderListRow {
  entity_id: number
  client_order_id: string
  increment_id: string
  customer_email: string
  status: string
  payment_state: string
  payment_method: string
  currency: string
  grand_total_minor: number | null
  paid_minor: number
  refunded_minor: number
  created_at: string
}

/** The WHERE clause of a filter (every value bound, never spliced). */
function whereOf(f: OrderFilter): { sql: string; binds: unknown[] } {
  const parts: string[] = []
  const binds: unknown[] = []
  if (f.status) parts.push('status = ?') && binds.push(f.status)
  if (f.payment) parts.push('payment_state = ?') && binds.push(f.payment)
  // From and to are days of the shop's calendar (its time zone); created_at is stored in UTC.
  if (f.from)
    parts.push('created_at >= ?') && binds.push(magentoDate(zonedDayRange(f.from, shopTimeZone()).start))
  if (f.to) parts.push('created_at < ?') && binds.push(magentoDate(zonedDayRange(f.to, shopTimeZone()).end))
  if (f.q) {
    const q = f.q
    const like = containsPattern(q)
    parts.push(`(increment_id = ? OR customer_email LIKE ? ESCAPE '\\'
      OR json_extract(doc, '$.billing_address.telephone') LIKE ? ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM order_items oi WHERE oi.client_order_id = orders.client_order_id AND oi.sku = ?))`)
    binds.push(q, like, like, q)
  }
  return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', binds }
}

const LIST_COLUMNS = `entity_id, client_order_id, increment_id, customer_email, status, payment_state, payment_method,
  currency, grand_total_minor, paid_minor, refunded_minor, created_at`

/** One page of orders, newest first, with the total count of the filter. */
export async function listOrders(
  db: D1Database,
  f: OrderFilter,
): Promise<{ rows: OrderListRow[]; total: number }> {
  const { sql, binds } = whereOf(f)
  const [rows, count] = await db.batch([
    db
      .prepare(`SELECT ${LIST_COLUMNS} FROM orders ${sql} ORDER BY entity_id DESC LIMIT ? OFFSET ?`)
      .bind(...binds, PAGE_SIZE, (f.page - 1) * PAGE_SIZE),
    db.prepare(`SELECT COUNT(*) AS n FROM orders ${sql}`).bind(...binds),
  ])
  return {
    rows: (rows?.results ?? []) as OrderListRow[],
    total: Number((count?.results?.[0] as { n: number } | undefined)?.n ?? 0),
  }
}

/** A CSV cell: quoted, quotes doubled, and a leading formula character neutralised for spreadsheets. */
export function csvCell(value: unknown): string {
  let s = value == null ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return `"${s.replace(/"/g, '""')}"`
}

/** The filter's orders as CSV (at most MAX_CSV_ROWS, newest first). */
export async function ordersCsv(db: D1Database, f: OrderFilter): Promise<string> {
  const { sql, binds } = whereOf(f)
  const { results } = await db
    .prepare(`SELECT ${LIST_COLUMNS} FROM orders ${sql} ORDER BY entity_id DESC LIMIT ?`)
    .bind(...binds, MAX_CSV_ROWS)
    .all<OrderListRow>()
  const header = [
    'number',
    `created_at (${shopTimeZone()})`,
    'email',
    'status',
    'payment_state',
    'payment_method',
    'currency',
    'total_minor',
    'paid_minor',
    'refunded_minor',
  ]
  const lines = results.map((r) =>
    [
      r.increment_id,
      zonedDateTime(storedInstant(r.created_at) ?? 0, shopTimeZone()),
      r.customer_email,
      r.status,
      r.payment_state,
      r.payment_method,
      r.currency,
      r.grand_total_minor,
      r.paid_minor,
      r.refunded_minor,
    ]
      .map(csvCell)
      .join(','),
  )
  return `${[header.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`
}
