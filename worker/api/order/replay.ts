/**
 * Replays of an order id: placement is exactly-once per client order_id, and a replayed (or
 * concurrently duplicated) id is answered with the first result only to the caller that placed
 * it — the same customer, the same guest cart (token hash) or an identical body (hash). Anyone
 * else gets a 409 that carries no order data.
 */
import type { OrderResult } from '@shared/schemas/order'
import { ORDER_ID_USED } from '@shared/schemas/order'
import { fail } from '../../platform/http'
import { constantTimeEqual } from '../auth/crypto'
import { type OrderRow, orderResult } from './repo'

/** Who is placing an order, as far as a replay needs to know. */
export interface OrderCaller {
  customerId: number | null
  bodyHash: string
  /** The hash of the guest cart token the order names, null when it names none. */
  cartKeyHash: string | null
}

/** Two stored hashes compared in constant time; a missing one never matches. */
export function sameHash(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false
  const enc = new TextEncoder()
  return constantTimeEqual(enc.encode(a), enc.encode(b))
}

/** Whether `caller` is the one who placed the stored order `row`. */
export function placedBy(
  row: Pick<OrderRow, 'customer_id' | 'body_hash' | 'cart_key_hash'>,
  caller: OrderCaller,
) {
  return (
    (row.customer_id !== null && caller.customerId !== null && row.customer_id === caller.customerId) ||
    sameHash(row.body_hash, caller.bodyHash) ||
    sameHash(row.cart_key_hash, caller.cartKeyHash)
  )
}

/** The stored result for its own caller; a 409 without order data for anyone else. */
export function replay(row: OrderRow, caller: OrderCaller): OrderResult {
  if (!placedBy(row, caller)) fail(409, ORDER_ID_USED)
  return orderResult(row)
}
