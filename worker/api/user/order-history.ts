/**
 * The signed-in customer's orders, newest first, a page at a time: each line with its picture, each
 * order with its shipments (courier and tracking number) and its tax invoice's number once issued.
 * Only the customer's own orders are read; the extras are one query each for the whole page.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { ok } from '../../platform/http'
import { requireCustomer } from '../auth/guard'
import { ordersWithLineImages } from '../order/line-images'
import { orderDoc } from '../order/repo'
import { shipmentsByOrder } from '../payment/order-view'

export const OrderHistoryQuery = z.object({
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  currentPage: z.coerce.number().int().min(1).max(10_000).default(1),
})

/** The tax invoice's number of each of the given orders that has one, by order id. */
async function invoiceNumbers(db: D1Database, orderIds: readonly string[]) {
  if (!orderIds.length) return new Map<string, string>()
  const { results } = await db
    .prepare(
      "SELECT client_order_id, number FROM tax_documents WHERE kind = 'invoice' AND client_order_id IN (SELECT value FROM json_each(?))",
    )
    .bind(JSON.stringify(orderIds))
    .all<{ client_order_id: string; number: string }>()
  return new Map(results.map((r) => [r.client_order_id, r.number]))
}

export async function orderHistory(
  c: Context<AppEnv>,
  { pageSize, currentPage }: z.output<typeof OrderHistoryQuery>,
) {
  const customer = await requireCustomer(c)
  const db = c.env.DB
  const [{ results }, count] = await Promise.all([
    db
      .prepare(
        'SELECT entity_id, increment_id, client_order_id, doc, status, payment_state FROM orders WHERE customer_id = ? ORDER BY entity_id DESC LIMIT ? OFFSET ?',
      )
      .bind(customer.id, pageSize, (currentPage - 1) * pageSize)
      .all<{
        entity_id: number
        increment_id: string
        client_order_id: string
        doc: string
        status: string
        payment_state: string
      }>(),
    db
      .prepare('SELECT COUNT(*) AS n FROM orders WHERE customer_id = ?')
      .bind(customer.id)
      .first<{ n: number }>(),
  ])
  // Each line carries its picture, as on the order page.
  const docs = results.map((r) => orderDoc(r))
  const orderIds = results.map((r) => r.client_order_id)
  const [items, shipments, invoices] = await Promise.all([
    ordersWithLineImages(
      db,
      results.map((r, i) => ({
        clientOrderId: r.client_order_id,
        items: docs[i]?.items ?? [],
      })),
    ),
    shipmentsByOrder(db, orderIds),
    invoiceNumbers(db, orderIds),
  ])
  return ok(c, {
    items: docs.map((doc, i) => ({
      ...doc,
      items: items[i],
      shipments: (shipments.get(orderIds[i] ?? '') ?? []).map(({ carrier, trackingNumber }) => ({
        carrier,
        trackingNumber,
      })),
      invoice_number: invoices.get(orderIds[i] ?? '') ?? null,
    })),
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
