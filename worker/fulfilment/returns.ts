/**
 * Returns and size exchanges, asked for from the shopper's order page and settled in the back
 * office (docs/fulfilment.md).
 *
 * Rules:
 * - only a delivered order, within SHIPPING_RULES.returnWindowDays of its delivery;
 * - per product (return_rules): 'none' (made to order, altered) cannot come back; 'exchange_only'
 *   only for another size; 'store_credit_only' only for store credit; pieces bought below their
 *   list price follow the shop's rule for sale pieces (SHIPPING_RULES.saleReturns);
 * - never more pieces of a line than were bought, over all the order's returns;
 * - an exchange is another size of the same product (a sibling sku), its stock held at once (the
 *   whole request fails when that size is gone); the replacement ships with no new payment; a
 *   dearer size is collected as cash on delivery of the replacement, a cheaper one refunded;
 * - store credit needs a customer account (a guest order can only be refunded or exchanged);
 * - inspection, per piece: accepted pieces go back into stock and are refunded (never more than
 *   was paid and not yet refunded: refundOrder reserves it), rejected ones are not.
 */
import { SHIPPING_RULES } from '@shared/config/shipping'
import { runAfterAnswer } from '../api/mail/deliver'
import { notifyOrder } from '../api/mail/notify'
import { orderEventStatement } from '../api/order/lifecycle'
import type { OrderRow } from '../api/order/repo'
import { magentoDate } from '../api/user/repo'
import type { AppConfig } from '../platform/env'
import { fail } from '../platform/http'
import { bookNow, enqueueShipment } from './book'
import { releaseExchangeHolds } from './return-parcels'

type Ctx = { env: Env; config: AppConfig; executionCtx: Pick<ExecutionContext, 'waitUntil'> }

type ReturnRule = 'none' | 'exchange_only' | 'store_credit_only' | 'any'
type Resolution = 'refund' | 'store_credit' | 'exchange'

/** Most pieces lines one request names (an order holds at most 100 lines). */
export const MAX_RETURN_LINES = 100

interface ReturnableLine {
  order_item_id: number
  sku: string
  name: string
  qty: number
  /** Pieces of the line not yet in a return. */
  returnable: number
  unit_minor: number
  rule: ReturnRule
  /** Other sizes of the same product in stock: sku and label. */
  sizes: { sku: string; label: string }[]
}

/** When the order was delivered (ms), from its history; null when it has not been. */
async function deliveredAt(db: D1Database, orderId: string): Promise<number | null> {
  const row = await db
    .prepare(
      `SELECT created_at FROM order_events WHERE client_order_id = ? AND to_status = 'delivered' ORDER BY id DESC LIMIT 1`,
    )
    .bind(orderId)
    .first<{ created_at: string }>()
  return row ? Date.parse(`${row.created_at.replace(' ', 'T')}Z`) : null
}

/** The last moment a return may be asked for, or null when the order is not delivered. */
export async function returnDeadline(db: D1Database, order: OrderRow): Promise<number | null> {
  if (order.status !== 'delivered') return null
  const at = await deliveredAt(db, order.client_order_id)
  return at === null ? null : at + SHIPPING_RULES.returnWindowDays * 86_400_000
}

/** The lines of an order that may come back, with what they may come back as. */
export async function returnableLines(db: D1Database, order: OrderRow): Promise<ReturnableLine[]> {
  const { results } = await db
    .prepare(
      `SELECT oi.id AS order_item_id, oi.sku, oi.qty, oi.price_incl_tax, COALESCE(cp.name, p.name, oi.sku) AS name,
         inv.parent_sku, COALESCE(rr.rule, rp.rule) AS rule,
         p.price AS list_price, p.final_price,
         oi.qty - COALESCE((SELECT SUM(ri.qty) FROM return_items ri JOIN returns r ON r.id = ri.return_id
           WHERE ri.order_item_id = oi.id AND r.status NOT IN ('canceled', 'qc_failed')), 0) AS returnable
       FROM order_items oi
       LEFT JOIN inventory inv ON inv.sku = oi.sku
       LEFT JOIN products cp ON cp.sku = oi.sku
       LEFT JOIN products p ON p.sku = COALESCE(inv.parent_sku, oi.sku)
       LEFT JOIN return_rules rr ON rr.sku = oi.sku
       LEFT JOIN return_rules rp ON rp.sku = inv.parent_sku
       WHERE oi.client_order_id = ?1 AND oi.price_incl_tax > 0 AND oi.parent_sku IS NULL
       ORDER BY oi.id`,
    )
    .bind(order.client_order_id)
    .all<{
      order_item_id: number
      sku: string
      qty: number
      price_incl_tax: number
      name: string
      parent_sku: string | null
      rule: ReturnRule | null
      list_price: number | null
      final_price: number | null
      returnable: number
    }>()
  const lines: ReturnableLine[] = []
  for (const r of results) {
    const onSale = r.final_price !== null && r.list_price !== null && r.final_price < r.list_price
    const rule: ReturnRule = r.rule ?? (onSale ? SHIPPING_RULES.saleReturns : 'any')
    lines.push({
      order_item_id: r.order_item_id,
      sku: r.sku,
      name: r.name,
      qty: r.qty,
      returnable: Math.max(0, r.returnable),
      unit_minor: Math.round(r.price_incl_tax * 100),
      rule,
      sizes: r.parent_sku ? await siblingSizes(db, r.parent_sku, r.sku) : [],
    })
  }
  return lines
}

/** The in-stock sizes of a configurable product other than `sku`, labelled from its document. */
async function siblingSizes(db: D1Database, parentSku: string, sku: string) {
  const [stock, parent] = await db.batch([
    db
      .prepare(
        `SELECT sku FROM inventory WHERE parent_sku = ? AND sku != ? AND is_in_stock = 1 AND qty > 0 ORDER BY sku LIMIT 20`,
      )
      .bind(parentSku, sku),
    db.prepare('SELECT doc FROM products WHERE sku = ?').bind(parentSku),
  ])
  const doc = JSON.parse(((parent?.results?.[0] as { doc?: string } | undefined)?.doc as string) ?? '{}') as {
    configurable_children?: { sku: string; size?: number }[]
    configurable_options?: { attribute_code: string; values: { value_index: number; label: string }[] }[]
  }
  const sizeValues = doc.configurable_options?.find((o) => o.attribute_code === 'size')?.values ?? []
  const label = (s: string) => {
    const child = doc.configurable_children?.find((c) => c.sku === s)
    return sizeValues.find((v) => v.value_index === child?.size)?.label ?? s
  }
  return ((stock?.results ?? []) as { sku: string }[]).map((r) => ({ sku: r.sku, label: label(r.sku) }))
}

interface ReturnRequest {
  resolution: Resolution
  reason: string
  items: { order_item_id: number; qty: number; exchange_sku?: string }[]
}

/** The price of `sku` relative to `fromSku` (same product): the shopper's unit price scaled by it. */
async function exchangeUnit(
  db: D1Database,
  parentSku: string,
  fromSku: string,
  toSku: string,
  paidUnit: number,
) {
  const row = await db
    .prepare('SELECT doc FROM products WHERE sku = ?')
    .bind(parentSku)
    .first<{ doc: string }>()
  const doc = JSON.parse(row?.doc ?? '{}') as {
    configurable_children?: { sku: string; price?: number; special_price?: number | null }[]
  }
  const price = (s: string) => {
    const c = doc.configurable_children?.find((x) => x.sku === s)
    return c ? (c.special_price ?? c.price ?? 0) : 0
  }
  const from = price(fromSku)
  const to = price(toSku)
  // Both sizes carry the same tax and discounts: the new size costs what was paid, scaled by the
  // ratio of their prices.
  return from > 0 && to > 0 ? Math.round((paidUnit * to) / from) : paidUnit
}

/** Asks for a return or exchange; books the reverse pickup. */
export async function requestReturn(x: Ctx, order: OrderRow, req: ReturnRequest, now: number) {
  const db = x.env.DB
  const deadline = await returnDeadline(db, order)
  if (deadline === null) fail(409, `Order ${order.increment_id} can be returned once it has been delivered.`)
  if (now > deadline)
    fail(
      409,
      `The return window for order ${order.increment_id} has closed (${SHIPPING_RULES.returnWindowDays} days after delivery).`,
    )
  if (req.resolution === 'store_credit' && order.customer_id === null)
    fail(400, 'Store credit needs an account: sign in, or choose a refund or an exchange.')
  const lines = await returnableLines(db, order)
  const seen = new Set<number>()
  const rows: {
    line: ReturnableLine
    qty: number
    exchangeSku: string | null
    exchangeUnit: number | null
  }[] = []
  for (const item of req.items) {
    const line = lines.find((l) => l.order_item_id === item.order_item_id)
    if (!line || seen.has(item.order_item_id))
      fail(400, 'A piece named in the return is not on this order (or is named twice).')
    seen.add(item.order_item_id)
    if (item.qty > line.returnable)
      fail(409, `Only ${line.returnable} of “${line.name}” can still be returned.`)
    if (line.rule === 'none') fail(409, `“${line.name}” cannot be returned (made to order or altered).`)
    if (line.rule === 'exchange_only' && req.resolution !== 'exchange')
      fail(409, `“${line.name}” can only be exchanged for another size.`)
    if (line.rule === 'store_credit_only' && req.resolution === 'refund')
      fail(409, `“${line.name}” can only be returned for store credit.`)
    let exchangeSku: string | null = null
    let unit: number | null = null
    if (req.resolution === 'exchange') {
      const size = line.sizes.find((s) => s.sku === item.exchange_sku)
      if (!size) fail(409, `The size asked for “${line.name}” is not available.`)
      exchangeSku = size.sku
      const parent = await db
        .prepare('SELECT parent_sku FROM inventory WHERE sku = ?')
        .bind(line.sku)
        .first<{ parent_sku: string }>()
      unit = await exchangeUnit(db, parent?.parent_sku ?? '', line.sku, size.sku, line.unit_minor)
    }
    rows.push({ line, qty: item.qty, exchangeSku, exchangeUnit: unit })
  }
  const stamp = magentoDate(now)
  const numberRow = await db
    .prepare('SELECT COALESCE(MAX(number), 0) + 1 AS n FROM returns WHERE client_order_id = ?')
    .bind(order.client_order_id)
    .first<{ n: number }>()
  const number = numberRow?.n ?? 1
  const difference = rows.reduce(
    (s, r) => s + ((r.exchangeUnit ?? r.line.unit_minor) - r.line.unit_minor) * r.qty,
    0,
  )
  const retId = `(SELECT id FROM returns WHERE client_order_id = ?1 AND number = ?2)`
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO returns (client_order_id, number, resolution, reason, difference_minor, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)`,
      )
      .bind(
        order.client_order_id,
        number,
        req.resolution,
        req.reason,
        req.resolution === 'exchange' ? difference : 0,
        stamp,
      ),
  ]
  for (const r of rows) {
    if (r.exchangeSku)
      // The new size's stock is held now; the inventory CHECK (qty >= 0) fails the whole batch
      // when it is gone, so no half-written request remains.
      statements.push(
        db
          .prepare('UPDATE inventory SET qty = qty - ?2 WHERE sku = ?1 AND manage_stock = 1')
          .bind(r.exchangeSku, r.qty),
      )
    statements.push(
      db
        .prepare(
          `INSERT INTO return_items (return_id, order_item_id, sku, qty, unit_minor, exchange_sku, exchange_unit_minor, exchange_held)
           SELECT ${retId}, ?3, ?4, ?5, ?6, ?7, ?8, ?9
           WHERE ?5 <= (SELECT oi.qty FROM order_items oi WHERE oi.id = ?3) - COALESCE((SELECT SUM(ri.qty)
             FROM return_items ri JOIN returns r ON r.id = ri.return_id
             WHERE ri.order_item_id = ?3 AND r.status NOT IN ('canceled', 'qc_failed')), 0)`,
        )
        .bind(
          order.client_order_id,
          number,
          r.line.order_item_id,
          r.line.sku,
          r.qty,
          r.line.unit_minor,
          r.exchangeSku,
          r.exchangeUnit,
          r.exchangeSku ? 1 : 0,
        ),
    )
  }
  statements.push(
    orderEventStatement(
      db,
      order.client_order_id,
      {
        kind: 'note',
        actor: 'shopper',
        detail: {
          text: `Return R${number} asked for (${req.resolution.replace('_', ' ')}): ${rows.map((r) => `${r.qty} × ${r.line.sku}${r.exchangeSku ? ` → ${r.exchangeSku}` : ''}`).join(', ')}`,
          reason: req.reason,
        },
      },
      now,
    ),
  )
  try {
    await db.batch(statements)
  } catch (err) {
    if (/CHECK constraint|UNIQUE constraint/i.test(String(err)))
      fail(
        409,
        'That size has just sold out, or another return was asked for at the same moment; nothing was booked. Please look again.',
      )
    throw err
  }
  const ret = (await db
    .prepare('SELECT * FROM returns WHERE client_order_id = ? AND number = ?')
    .bind(order.client_order_id, number)
    .first<ReturnRow>()) as ReturnRow
  const written = await db
    .prepare('SELECT COUNT(*) AS n FROM return_items WHERE return_id = ?')
    .bind(ret.id)
    .first<{ n: number }>()
  if ((written?.n ?? 0) !== rows.length) {
    // A concurrent request took some of the pieces: this one is withdrawn whole.
    await db.batch([
      ...releaseExchangeHolds(db, ret.id),
      db.prepare(`UPDATE returns SET status = 'canceled', updated_at = ? WHERE id = ?`).bind(stamp, ret.id),
    ])
    fail(409, 'Some of these pieces are already in another return; nothing was booked. Please look again.')
  }
  const shipment = await enqueueShipment(
    db,
    {
      orderId: order.client_order_id,
      kind: 'return',
      ref: `${order.increment_id}-R${number}`,
      returnId: ret.id,
    },
    now,
  )
  const booked = await bookNow(x.env, shipment.id, now)
  if (booked?.status === 'sent')
    await db
      .prepare(`UPDATE returns SET status = 'pickup_booked' WHERE id = ? AND status = 'requested'`)
      .bind(ret.id)
      .run()
  runAfterAnswer(
    x,
    () => notifyOrder(x.env, x.config, 'return_requested', order.client_order_id, now),
    'return mail',
  )
  return {
    return: { ...ret, status: booked?.status === 'sent' ? 'pickup_booked' : ret.status },
    awb: booked?.shipment.awb ?? null,
  }
}

export interface ReturnRow {
  id: number
  client_order_id: string
  number: number
  status: string
  resolution: Resolution
  reason: string
  refund_minor: number
  credit_minor: number
  difference_minor: number
  created_at: string
  updated_at: string
}
