/**
 * Writing an order: the order row, one order_items row per line (plus one per linked product a
 * bundle or grouped line consumed), the stock decrements, the store-credit spend and the closing
 * of the cart — all in ONE batch, so a failed constraint (stock CHECK qty >= 0, a concurrent
 * duplicate order id, a balance spent meanwhile) writes nothing. The same batch ends with two reads
 * — the order row as written and the skus its stock move made unsellable — so a placement's write
 * and what it needs afterwards are one round trip to the database.
 */

import { baseCurrency } from '@shared/config/store'
import { toBaseCurrency } from '@shared/domain/currency'
import { bumpIndexVersionStatement } from '../../search'
import type { ResolvedLine } from '../cart/lines'
import { spendCreditStatements } from './credit'
import { holdLimitStatement } from './holds'
import { orderedImage } from './line-images'
import { type OrderRow, orderByClientIdStatement, shopperOrderIds } from './repo'
import { type FlippedSku, stockFlipsStatement } from './stock-pages'

/** One item of the order document, as far as its order_items row needs it. */
interface ItemRow {
  qty_ordered: number
  price_incl_tax: number
}

/**
 * The order_items rows of an order: one per line at its charged unit price, plus, for a bundle or
 * grouped line, one row per linked product it consumed (price 0, parent_sku = the line's sku). A
 * line's row keeps the picture it was ordered with (its variant's image, else its product's). A
 * row that stands for stock reads its product_id from inventory, so a stocked sku without an
 * inventory row fails the whole batch (NOT NULL) instead of being sold unchecked.
 */
function orderItemStatements(
  db: D1Database,
  orderId: string,
  lines: readonly ResolvedLine[],
  items: readonly ItemRow[],
): D1PreparedStatement[] {
  const insert = (
    sku: string,
    productId: number | null,
    qty: number,
    price: number,
    parent: string | null,
    image: string | null = null,
  ) =>
    db
      .prepare(
        `INSERT INTO order_items (client_order_id, sku, product_id, qty, price_incl_tax, parent_sku, image)
         VALUES (?1, ?2, COALESCE(?3, (SELECT product_id FROM inventory WHERE sku = ?2)), ?4, ?5, ?6, ?7)`,
      )
      .bind(orderId, sku, productId, qty, price, parent, image)
  return lines.flatMap((line, i) => {
    const item = items[i] as ItemRow
    const image = orderedImage(line)
    const stocked = line.components.length === 1 && line.components[0]?.sku === line.sku
    if (stocked) return [insert(line.sku, null, item.qty_ordered, item.price_incl_tax, null, image)]
    return [
      insert(line.sku, line.productId, item.qty_ordered, item.price_incl_tax, null, image),
      ...line.components.map((part) => insert(part.sku, null, line.qty * part.units, 0, line.sku)),
    ]
  })
}

/** What the batch stores for one order. */
export interface OrderWrite {
  orderId: string
  customerId: number | null
  email: string
  accessKeyHash: string
  status: string
  paymentMethod: string
  grandTotal: number
  /** The charge currency and the total in its minor units. */
  currency: string
  grandTotalMinor: number
  paymentState: string
  /** ms epoch when an unpaid or unconfirmed order expires, or null. */
  expiresAt: number | null
  /** The placer's network address as the hold limits count it. */
  placedFrom: string
  doc: unknown
  result: unknown
  stamp: string
  bodyHash: string
  /** The guest cart token hash, kept only when the order closed that cart. */
  cartKeyHash: string | null
  lines: readonly ResolvedLine[]
  items: readonly ItemRow[]
  /** Units taken per stocked sku. */
  needed: ReadonlyMap<string, number>
  creditMinor: number
  /** The cart the order closes, if any. */
  cartId: number | null
  /** Tax documents placement issues (the invoice of an order paid in full with store credit). */
  documents?: readonly D1PreparedStatement[]
}

/** The statements of one order's batch; the order number is the next entity id, zero-padded. */
function orderStatements(db: D1Database, w: OrderWrite): D1PreparedStatement[] {
  const nextId = '(SELECT COALESCE(MAX(entity_id), 0) + 1 FROM orders)'
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO orders (entity_id, client_order_id, increment_id, customer_id, customer_email, access_key_hash,
           status, payment_method, grand_total, doc, result, created_at, body_hash, cart_key_hash,
           currency, grand_total_minor, payment_state, expires_at, updated_at, base_currency, base_grand_total_minor,
           placed_from)
         VALUES (${nextId}, ?, printf('%09d', ${nextId}), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        w.orderId,
        w.customerId,
        w.email,
        w.accessKeyHash,
        w.status,
        w.paymentMethod,
        w.grandTotal,
        JSON.stringify(w.doc),
        JSON.stringify(w.result),
        w.stamp,
        w.bodyHash,
        w.cartKeyHash,
        w.currency,
        w.grandTotalMinor,
        w.paymentState,
        w.expiresAt,
        w.stamp,
        baseCurrency(),
        // The charged total in the base currency's minor units, converted back at the configured rate.
        Math.round(toBaseCurrency(w.grandTotalMinor, w.currency)),
        w.placedFrom,
      ),
    db
      .prepare(
        `INSERT INTO order_events (client_order_id, kind, from_status, to_status, actor, detail, created_at)
           VALUES (?, 'status', NULL, ?, 'shopper', '{}', ?)`,
      )
      .bind(w.orderId, w.status, w.stamp),
    ...orderItemStatements(db, w.orderId, w.lines, w.items),
    // Counted stock is taken; the CHECK on inventory refuses going below zero unless backorders
    // are allowed. Stock that is not managed is not counted. is_in_stock stays a switch.
    ...[...w.needed].map(([sku, qty]) =>
      db.prepare('UPDATE inventory SET qty = qty - ?1 WHERE sku = ?2 AND manage_stock = 1').bind(qty, sku),
    ),
    // A sku that is no longer sellable leaves in-stock listings: the no-op update changes one row
    // only then, and the catalogue version moves on after it (cached result sets are dropped).
    ...[...w.needed].flatMap(([sku]) => [
      db
        .prepare(
          'UPDATE inventory SET qty = qty WHERE sku = ?1 AND manage_stock = 1 AND backorders <= 0 AND qty <= 0',
        )
        .bind(sku),
      bumpIndexVersionStatement(db, { afterChange: true }),
    ]),
  ]
  statements.push(couponLimitStatement(db, w.orderId), holdLimitStatement(db, w.orderId))
  if (w.customerId !== null && w.creditMinor > 0) {
    statements.push(...spendCreditStatements(db, w.customerId, w.creditMinor, w.orderId, w.stamp))
  }
  if (w.cartId !== null) {
    statements.push(
      db.prepare('UPDATE carts SET is_active = 0, updated_at = ? WHERE id = ?').bind(w.stamp, w.cartId),
    )
  }
  if (w.documents) statements.push(...w.documents)
  // The reads last, so they see everything the batch wrote.
  statements.push(orderByClientIdStatement(db, w.orderId), stockFlipsStatement(db, w.orderId, 'taken'))
  return statements
}

/**
 * Refuses the batch (coupon_limit_guard's CHECK) when the order just written took its coupon past
 * the coupon's total limit or the shopper's limit (account or e-mail). Orders are counted the way
 * the cart counts them (canceled and expired ones do not count), but here inside the write, so
 * orders placed at the same instant are counted one after the other.
 */
function couponLimitStatement(db: D1Database, orderId: string): D1PreparedStatement {
  const live = "u.status NOT IN ('canceled', 'expired')"
  // Compared with the order's own code (no column affinity), so the coupon-code index is used:
  // the total reads the coupon's uses, never every order.
  const uses = `SELECT COUNT(*) FROM orders u WHERE ${live}
    AND json_extract(u.doc, '$.coupon_code') = json_extract(o.doc, '$.coupon_code') COLLATE NOCASE`
  // The shopper's uses start from the shopper's orders (shopperOrderIds): the unary +
  // keeps the coupon-code index out, which would read every use of a popular coupon.
  const mine = `SELECT COUNT(*) FROM orders u
    WHERE u.entity_id IN (${shopperOrderIds('o.customer_id', 'o.customer_email')}) AND ${live}
    AND +json_extract(u.doc, '$.coupon_code') = json_extract(o.doc, '$.coupon_code') COLLATE NOCASE`
  return db
    .prepare(
      `INSERT INTO coupon_limit_guard (code)
       SELECT c.code FROM orders o JOIN coupons c ON c.code = json_extract(o.doc, '$.coupon_code') COLLATE NOCASE
       WHERE o.client_order_id = ?1 AND (
         (c.total_limit IS NOT NULL AND (${uses}) > c.total_limit)
         OR (c.per_customer_limit IS NOT NULL AND (${mine}) > c.per_customer_limit))`,
    )
    .bind(orderId)
}

/** Why a batch was refused, from the constraint its error names. */
type WriteConflict = 'duplicate-order-id' | 'credit-spent' | 'out-of-stock' | 'coupon-limit' | 'hold-limit'

/** What writing an order came to: the row written and the skus it made unsellable, or the conflict. */
type WriteOutcome =
  | { conflict: null; row: OrderRow; flipped: FlippedSku[] }
  | { conflict: WriteConflict; row?: undefined; flipped?: undefined }

/** Step 4: runs the batch; a refused constraint is returned as a conflict, anything else thrown. */
export async function writeOrder(db: D1Database, w: OrderWrite): Promise<WriteOutcome> {
  let results: D1Result[]
  try {
    results = await db.batch(orderStatements(db, w))
  } catch (err) {
    const conflict = conflictOf(err)
    if (conflict) return { conflict }
    throw err
  }
  const [written, flips] = results.slice(-2) as [D1Result<OrderRow>, D1Result<FlippedSku>]
  const row = written.results[0]
  if (!row) throw new Error(`Order ${w.orderId} was written but could not be read back`)
  return { conflict: null, row, flipped: flips.results }
}

/** The conflict a failed order batch stands for, null for any other failure. */
function conflictOf(err: unknown): WriteConflict | null {
  const text = String((err as Error)?.message ?? err)
  if (text.includes('orders.client_order_id')) return 'duplicate-order-id'
  if (text.includes('balance_minor')) return 'credit-spent'
  if (text.includes('coupon_limit_reached')) return 'coupon-limit'
  if (text.includes('hold_limit_reached')) return 'hold-limit'
  if (text.includes('CHECK constraint failed') || text.includes('NOT NULL constraint failed'))
    return 'out-of-stock'
  return null
}
