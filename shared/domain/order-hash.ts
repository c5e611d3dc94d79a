/**
 * Order identity (transactions spec §4 "Order placement"; ARCHITECTURE "Exactly-once orders").
 * - `orderHash` is the session double-submit guard: the same cart, addresses and methods give the
 *   same hash whatever the order id or timestamps (VSF #2405/#2663 sent one order per click).
 * - `newOrderId` is the client-generated id the server is idempotent on; it is created once per
 *   order and reused on every retry.
 */
import { hashValue } from './cart-hash'

/** Fields that change between attempts of the same order and must not affect its hash. */
const VOLATILE_ORDER_FIELDS = new Set(['order_id', 'created_at', 'updated_at', 'transmited', 'transmited_at'])

/** Hash of what is being bought, shipped and paid (not the attempt's id or time). */
export function orderHash(order: Record<string, unknown>): string {
  return hashValue(Object.fromEntries(Object.entries(order).filter(([k]) => !VOLATILE_ORDER_FIELDS.has(k))))
}

/** A new order id `<ms>-<random hex>` (the contract's `<ts>-<guid>` shape). */
export function newOrderId(now: number, randomHex: string): string {
  return `${now}-${randomHex}`
}

/** "Code 500 with an add-products error means out-of-stock" (VSF: 'Error while adding products'). */
export function isAddProductsError(code: number, result: unknown): boolean {
  return code === 500 && typeof result === 'string' && /adding products|out of stock/i.test(result)
}
