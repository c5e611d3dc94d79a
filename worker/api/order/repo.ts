/** Reading stored orders: the Magento document and the placement result, ids merged in. */
import type { OrderResult } from '@shared/schemas/order'
import { type OrderDocument, parseOrderDocument } from './document'

export interface OrderRow {
  entity_id: number
  client_order_id: string
  increment_id: string
  customer_id: number | null
  customer_email: string
  access_key_hash: string
  status: string
  payment_method: string
  doc: string
  result: string
  created_at: string
  body_hash: string | null
  cart_key_hash: string | null
  /** The currency the order is charged in, and its total in that currency's minor units. */
  currency: string
  grand_total_minor: number | null
  payment_state: string
  paid_minor: number
  refunded_minor: number
  /** ms epoch after which an unpaid or unconfirmed order expires; null when nothing is awaited. */
  expires_at: number | null
  /** The placer's network address as the placement limits count it (null for older orders). */
  placed_from: string | null
  stock_released_at: string | null
  updated_at: string | null
}

/**
 * The sales order as order history and /order/get show it. The stored document is the order as
 * placed; its status and payment state are the order's current ones.
 */
export function orderDoc(
  row: Pick<OrderRow, 'entity_id' | 'increment_id' | 'doc' | 'status' | 'payment_state'>,
): OrderDocument & { entity_id: number; increment_id: string; payment_state: string } {
  return {
    entity_id: row.entity_id,
    increment_id: row.increment_id,
    ...parseOrderDocument(row.doc),
    status: row.status,
    payment_state: row.payment_state,
  }
}

/** The placement result (identical for every answered replay of the same order_id). */
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

/**
 * SQL for the ids (`entity_id`) of a shopper's orders: those of the account `customerId` and those
 * placed with the e-mail `email` (compared without case), both SQL expressions (a parameter or an
 * outer column). Written as a UNION of the two index searches: D1's SQLite answers
 * `customer_id = ? OR customer_email = ?` by scanning every order the shop ever took.
 */
export function shopperOrderIds(customerId: string, email: string): string {
  return `SELECT entity_id FROM orders WHERE customer_id = ${customerId}
    UNION SELECT entity_id FROM orders WHERE customer_email = ${email} COLLATE NOCASE`
}

/** The statement reading one order by the client's order id (alone, or inside a batch). */
export function orderByClientIdStatement(db: D1Database, clientOrderId: string): D1PreparedStatement {
  return db.prepare('SELECT * FROM orders WHERE client_order_id = ?').bind(clientOrderId)
}

export function findOrderByClientId(db: D1Database, clientOrderId: string) {
  return orderByClientIdStatement(db, clientOrderId).first<OrderRow>()
}

/**
 * One order by the id a shopper or page holds: all digits = the shop's order number (increment_id,
 * or the entity id); anything else = the client's order id. The two never mix, so a client id can
 * never stand in for an order number (client ids may not be all digits).
 */
export function findOrderByAnyId(db: D1Database, id: string) {
  if (/^[0-9]{1,18}$/.test(id)) {
    return db
      .prepare('SELECT * FROM orders WHERE increment_id = ?1 OR entity_id = ?2 ORDER BY entity_id LIMIT 1')
      .bind(id, Number(id))
      .first<OrderRow>()
  }
  return findOrderByClientId(db, id)
}
