/**
 * Order identity.
 * - `orderHash` is the session double-submit guard: the same cart, addresses and methods give the
 *   same hash whatever the order id or timestamps (VSF #2405/#2663 sent one order per click).
 * - `newOrderId` is the client-generated id the server is idempotent on; it is created once per
 *   order and reused on every retry.
 * - `canonicalOrderText` is the text the server hashes (SHA-256) to recognise a replay of an order
 *   id by the client that placed it: the offline queue resends the very same body, so it matches;
 *   anyone else holding only the order id cannot produce it.
 */
import { hashValue, stableStringify } from './cart-hash'

/** Fields that change between attempts of the same order and must not affect its hash. */
const VOLATILE_ORDER_FIELDS = new Set(['order_id', 'created_at', 'updated_at', 'transmited', 'transmited_at'])

function withoutVolatile(order: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(order).filter(([k]) => !VOLATILE_ORDER_FIELDS.has(k)))
}

/** Hash of what is being bought, shipped and paid (not the attempt's id or time). */
export function orderHash(order: Record<string, unknown>): string {
  return hashValue(withoutVolatile(order))
}

/** The order body as canonical JSON (sorted keys, attempt id and times left out). */
export function canonicalOrderText(order: Record<string, unknown>): string {
  return stableStringify(withoutVolatile(order))
}

/** A new order id `<ms>-<random hex>` (the `<ts>-<guid>` shape VSF clients send). */
export function newOrderId(now: number, randomHex: string): string {
  return `${now}-${randomHex}`
}

/**
 * POST /api/order's 409 for an order_id another caller already used (the order's data is never
 * shown to a caller that did not place it). Retrying the same body can never succeed.
 */
export const ORDER_ID_USED =
  'This order_id is already used by another order. Place the order again with a new order_id.'

/** "Code 500 with an add-products error means out-of-stock" (VSF: 'Error while adding products'). */
export function isAddProductsError(code: number, result: unknown): boolean {
  return code === 500 && typeof result === 'string' && /adding products|out of stock/i.test(result)
}
