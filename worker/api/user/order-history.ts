/** The signed-in customer's orders, newest first, a page at a time. */
import type { Context } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { ok } from '../../platform/http'
import { requireCustomer } from '../auth/guard'
import { orderDoc } from '../order/repo'

export const OrderHistoryQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  currentPage: z.coerce.number().int().min(1).max(10_000).default(1),
})

export async function orderHistory(
  c: Context<AppEnv>,
  { pageSize, currentPage }: z.output<typeof OrderHistoryQuery>,
) {
  const customer = await requireCustomer(c)
  const db = c.env.DB
  const [{ results }, count] = await Promise.all([
    db
      .prepare(
        'SELECT entity_id, increment_id, doc, status, payment_state FROM orders WHERE customer_id = ? ORDER BY entity_id DESC LIMIT ? OFFSET ?',
      )
      .bind(customer.id, pageSize, (currentPage - 1) * pageSize)
      .all<{ entity_id: number; increment_id: string; doc: string; status: string; payment_state: string }>(),
    db
      .prepare('SELECT COUNT(*) AS n FROM orders WHERE customer_id = ?')
      .bind(customer.id)
      .first<{ n: number }>(),
  ])
  return ok(c, {
    items: results.map((r) => orderDoc(r)),
    search_criteria: {
      filter_groups: [
        { filters: [{ field: 'customer_id', value: String(customer.id), condition_type: 'eq' }] },
      ],
      page_size: pageSize,
      current_page: currentPage,
    },
    total_count: count?.n ?? 0,
  })
}
