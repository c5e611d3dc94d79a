/** Reading stored orders: the Magento document and the placement result, ids merged in. */
import type { OrderResult } from '../../../shared/schemas/order'

export interface OrderRow {
  entity_id: number
  client_order_id: string
  increment_id: string
  customer_id: number | null
  customer_email: string
  access_key_hash: string
  status: string
  doc: string
  result: string
  created_at: string
}

/** The sales order as order history and /order/get show it. */
export function orderDoc(row: Pick<OrderRow, 'entity_id' | 'increment_id' | 'doc'>): Record<string, unknown> {
  return { entity_id: row.entity_id, increment_id: row.increment_id, ...JSON.parse(row.doc) }
}

/** The placement result (identical for every replay of the same order_id). */
export function orderResult(row: OrderRow): OrderResult {
  const stored = JSON.parse(row.result) as Omit<
    OrderResult,
    'magentoOrderId' | 'orderNumber' | 'backendOrderId'
  >
  return {
    magentoOrderId: String(row.entity_id),
    orderNumber: row.increment_id,
    backendOrderId: String(row.entity_id),
    ...stored,
  }
}

export function findOrderByClientId(db: D1Database, clientOrderId: string) {
  return db.prepare('SELECT * FROM orders WHERE client_order_id = ?').bind(clientOrderId).first<OrderRow>()
}
