/**
 * Limits on placing orders and on what orders nobody has paid or confirmed may hold, so that no one
 * can take the shop's stock (or a coupon's uses) off sale without buying it:
 *
 * - Placement rate, in two steps:
 *   1. The burst (`limitPlacementBurst`), before the body is read: ORDER_LIMITER, the Workers Rate
 *      Limiting binding, allows ORDER_BURST_PER_MINUTE placement requests a minute per network
 *      address. A refused request costs one binding call: no body read, no parse, no caller, no D1.
 *      Every POST counts, a replay of an order already placed too (its order id is in the body,
 *      which is not read yet). That is safe for an honest retry: the refusal is a 429 with
 *      Retry-After, the order stays placed, and the shop's client keeps a refused order queued and
 *      sends it again later (a replay then answers the original order).
 *   2. Before any other work, in the replay check's own batch (`replayOrLimitPlacement`: a replay
 *      of an order already placed is never counted here), the exact D1 counters:
 *      ORDERS_PER_ADDRESS_PER_HOUR per network address (an IPv6 /64 is one address) and
 *      ORDERS_PER_ACCOUNT_PER_HOUR per signed-in account.
 *   Over any: 429 naming the limit.
 * - Holds: an order in a holding status (HOLDING_STATUSES: awaiting payment, payment failed, cash on
 *   delivery not yet confirmed) keeps its stock and its coupon use until it is paid, confirmed,
 *   canceled or expires. For each of the order's shopper keys — the signed-in account, the order
 *   e-mail, the network address, each counted on its own — the stock units such orders hold, this
 *   order's included, are at most MAX_HELD_UNITS (MAX_HELD_UNITS_PER_ADDRESS for an address, which
 *   several shoppers may share), and at most MAX_HELD_COUPON_ORDERS of them carry a coupon. Checked
 *   inside the order's own batch (holdLimitStatement), so parallel orders of one shopper cannot
 *   pass a limit together and an order within the limits costs no read for it; when the batch is
 *   refused, the shopper's holds are read (`refuseOverHold`) for a 409 naming the limit.
 * - Deadlines: an online order not paid expires UNPAID_ORDER_TTL_MINUTES after placement, a
 *   cash-on-delivery order the shop has not confirmed COD_CONFIRM_HOURS after placement
 *   (`placementDeadline`; the scheduled job in ./expire.ts expires them).
 */
import { HOLDING_STATUSES } from '@shared/config/order-status'
import type { Context, MiddlewareHandler } from 'hono'
import type { AppConfig, AppEnv } from '../../platform/env'
import { clientAddress, fail } from '../../platform/http'
import { hitStatement, type Limit, limitBurst } from '../auth/rate-limit'
import type { CustomerRow } from '../user/repo'
import { type OrderRow, orderByClientIdStatement } from './repo'

/** ORDER_LIMITER's setting in wrangler.toml (`simple = { limit, period = 60 }`), for messages and tests. */
export const ORDER_BURST_PER_MINUTE = 5
export const ORDERS_PER_ADDRESS_PER_HOUR = 10
export const ORDERS_PER_ACCOUNT_PER_HOUR = 10
/** Stock units orders in a holding status may hold per account and per order e-mail. */
export const MAX_HELD_UNITS = 15
/** The same per network address (an office or a mobile network may put several shoppers behind one). */
export const MAX_HELD_UNITS_PER_ADDRESS = 30
/** Orders in a holding status that carry a coupon, per account, per order e-mail and per address. */
export const MAX_HELD_COUPON_ORDERS = 2

const HOUR_MS = 3600_000

export const MSG_ORDER_BURST = `Too many orders from your network address: at most ${ORDER_BURST_PER_MINUTE} a minute. Please wait a minute and try again.`
export const MSG_TOO_MANY_ORDERS = `Too many orders: at most ${ORDERS_PER_ADDRESS_PER_HOUR} an hour from one network address and ${ORDERS_PER_ACCOUNT_PER_HOUR} an hour from one account. Please try again later.`

/** The holding statuses as SQL literals (constants; the partial indexes of migration 0220 use the same list). */
const HOLDING_SQL = HOLDING_STATUSES.map((s) => `'${s}'`).join(', ')

/**
 * Stock units an order holds (`h` names the order): the order_items rows that stand for stock —
 * every row of a line stocked itself and every piece a bundle or grouped line consumed, never the
 * parent line of those pieces. The same count `needed` gives a new order.
 */
const UNITS_OF = (h: string) => `(SELECT COALESCE(SUM(i.qty), 0) FROM order_items i
  WHERE i.client_order_id = ${h}.client_order_id AND (i.parent_sku IS NOT NULL OR NOT EXISTS (
    SELECT 1 FROM order_items p WHERE p.client_order_id = i.client_order_id AND p.parent_sku = i.sku)))`

/** Whether an order (`h`) carries a coupon. */
const HAS_COUPON = (h: string) => `json_extract(${h}.doc, '$.coupon_code') IS NOT NULL`

/**
 * The placement burst limit, ahead of the body read: 429 with Retry-After when the network address
 * is over ORDER_LIMITER's limit, before anything of the request is read.
 */
export const limitPlacementBurst: MiddlewareHandler<AppEnv> = async (c, next) => {
  await limitBurst(
    c,
    c.env.ORDER_LIMITER,
    `order:${clientAddress(c)}`,
    ORDER_BURST_PER_MINUTE,
    MSG_ORDER_BURST,
  )
  await next()
}

/**
 * The replay check and the placement rate of a new order, in one batch: the order already stored
 * under `orderId` (a replay: returned, nothing counted), else the exact per-address and
 * per-account counters, each counted only while no order has that id (429 over either).
 */
export async function replayOrLimitPlacement(
  c: Context<AppEnv>,
  customer: CustomerRow | null,
  orderId: string,
): Promise<OrderRow | null> {
  const db = c.env.DB
  const limits = [
    { key: `order:addr:${clientAddress(c)}`, limit: ORDERS_PER_ADDRESS_PER_HOUR },
    ...(customer ? [{ key: `order:acct:${customer.id}`, limit: ORDERS_PER_ACCOUNT_PER_HOUR }] : []),
  ]
  const now = Date.now()
  const placed = { sql: 'EXISTS (SELECT 1 FROM orders WHERE client_order_id = ?4)', value: orderId }
  const [existing, ...counts] = (await db.batch([
    orderByClientIdStatement(db, orderId),
    ...limits.map((l) => hitStatement(db, l.key, now, HOUR_MS, placed)),
  ])) as [D1Result<OrderRow>, ...D1Result<{ count: number }>[]]
  const found = existing.results[0]
  if (found) return found
  if (counts.some((r, i) => (r.results[0]?.count ?? 0) > (limits[i] as Limit).limit)) {
    fail(429, MSG_TOO_MANY_ORDERS)
  }
  return null
}

/** Who an order counts against: the account (if signed in), the order e-mail, the network address. */
export interface Shopper {
  customerId: number | null
  email: string
  address: string
}

/** What a new order would hold: its stock units and whether it carries a coupon. */
interface NewHold {
  units: number
  coupon: boolean
}

/** What an order taking `needed` (units per stocked sku) with `couponCode` would hold. */
export function newHold(needed: ReadonlyMap<string, number>, couponCode: string | null | undefined): NewHold {
  let units = 0
  for (const qty of needed.values()) units += qty
  return { units, coupon: Boolean(couponCode) }
}

interface Held {
  account_units: number
  email_units: number
  address_units: number
  account_coupons: number
  email_coupons: number
  address_coupons: number
}

/** What the shopper's orders in a holding status hold now, per shopper key. */
async function heldBy(db: D1Database, s: Shopper): Promise<Held> {
  const row = await db
    .prepare(
      `WITH ids AS (
         SELECT client_order_id FROM orders WHERE status IN (${HOLDING_SQL}) AND customer_id = ?1
         UNION SELECT client_order_id FROM orders
           WHERE status IN (${HOLDING_SQL}) AND customer_email = ?2 COLLATE NOCASE
         UNION SELECT client_order_id FROM orders WHERE status IN (${HOLDING_SQL}) AND placed_from = ?3),
       held AS (
         SELECT h.customer_id, h.customer_email, h.placed_from, ${UNITS_OF('h')} AS units,
           ${HAS_COUPON('h')} AS coupon
         FROM orders h JOIN ids ON ids.client_order_id = h.client_order_id)
       SELECT
         COALESCE(SUM(CASE WHEN customer_id = ?1 THEN units END), 0) AS account_units,
         COALESCE(SUM(CASE WHEN customer_email = ?2 COLLATE NOCASE THEN units END), 0) AS email_units,
         COALESCE(SUM(CASE WHEN placed_from = ?3 THEN units END), 0) AS address_units,
         COUNT(CASE WHEN customer_id = ?1 AND coupon THEN 1 END) AS account_coupons,
         COUNT(CASE WHEN customer_email = ?2 COLLATE NOCASE AND coupon THEN 1 END) AS email_coupons,
         COUNT(CASE WHEN placed_from = ?3 AND coupon THEN 1 END) AS address_coupons
       FROM held`,
    )
    .bind(s.customerId, s.email, s.address)
    .first<Held>()
  return (
    row ?? {
      account_units: 0,
      email_units: 0,
      address_units: 0,
      account_coupons: 0,
      email_coupons: 0,
      address_coupons: 0,
    }
  )
}

/** Why the shopper may not place an order holding `order` now (a sentence naming the limit), or null. */
async function holdProblem(
  db: D1Database,
  shopper: Shopper,
  order: NewHold,
  config: AppConfig,
): Promise<string | null> {
  const held = await heldBy(db, shopper)
  const shopperUnits = Math.max(shopper.customerId === null ? 0 : held.account_units, held.email_units)
  const after = (units: number) => units + order.units
  const unitsProblem = (units: number, max: number, who: string) =>
    `Orders that are not paid or confirmed yet may hold at most ${max} pieces ${who}; with this order they would hold ${after(units)}. Please pay for an earlier order or let it expire, or order fewer pieces. For a larger order, write to ${config.SUPPORT_EMAIL}.`
  if (after(shopperUnits) > MAX_HELD_UNITS)
    return unitsProblem(shopperUnits, MAX_HELD_UNITS, 'for one shopper')
  if (after(held.address_units) > MAX_HELD_UNITS_PER_ADDRESS)
    return unitsProblem(held.address_units, MAX_HELD_UNITS_PER_ADDRESS, 'from one network address')
  const coupons = Math.max(
    shopper.customerId === null ? 0 : held.account_coupons,
    held.email_coupons,
    held.address_coupons,
  )
  if (order.coupon && coupons + 1 > MAX_HELD_COUPON_ORDERS)
    return `At most ${MAX_HELD_COUPON_ORDERS} orders with a coupon may wait for payment or confirmation at once. Please pay for an earlier one or let it expire, then use the coupon again.`
  return null
}

/** The 409 for an order over a hold limit (nothing is written). */
export async function refuseOverHold(
  db: D1Database,
  shopper: Shopper,
  order: NewHold,
  config: AppConfig,
): Promise<void> {
  const problem = await holdProblem(db, shopper, order, config)
  if (problem) fail(409, problem)
}

/**
 * The statement of the order's batch that refuses it (hold_limit_guard's CHECK) when the order
 * just written holds stock and took one of its shopper keys past a hold limit. Orders written at the
 * same instant are counted one after the other, so parallel orders cannot pass a limit together.
 */
export function holdLimitStatement(db: D1Database, orderId: string): D1PreparedStatement {
  const units = (match: string) =>
    `(SELECT COALESCE(SUM(${UNITS_OF('h')}), 0) FROM orders h WHERE h.status IN (${HOLDING_SQL}) AND ${match})`
  const coupons = (match: string) =>
    `(SELECT COUNT(*) FROM orders h WHERE h.status IN (${HOLDING_SQL}) AND ${HAS_COUPON('h')} AND ${match})`
  const byAccount = 'h.customer_id = o.customer_id'
  const byEmail = 'h.customer_email = o.customer_email COLLATE NOCASE'
  const byAddress = 'h.placed_from = o.placed_from'
  return db
    .prepare(
      `INSERT INTO hold_limit_guard (shopper)
       SELECT o.customer_email FROM orders o
       WHERE o.client_order_id = ?1 AND o.status IN (${HOLDING_SQL}) AND (
         ${units(byAccount)} > ?2 OR ${units(byEmail)} > ?2 OR ${units(byAddress)} > ?3
         OR (${HAS_COUPON('o')} AND (${coupons(byAccount)} > ?4 OR ${coupons(byEmail)} > ?4
           OR ${coupons(byAddress)} > ?4)))`,
    )
    .bind(orderId, MAX_HELD_UNITS, MAX_HELD_UNITS_PER_ADDRESS, MAX_HELD_COUPON_ORDERS)
}

/**
 * When an order placed with `status` at `now` expires if nobody pays or confirms it: an online
 * order awaiting payment after UNPAID_ORDER_TTL_MINUTES, a cash-on-delivery order awaiting the
 * shop's confirmation after COD_CONFIRM_HOURS; null for an order that holds nothing unpaid.
 */
export function placementDeadline(config: AppConfig, status: string, now: number): number | null {
  if (status === 'pending_payment') return now + config.UNPAID_ORDER_TTL_MINUTES * 60_000
  if (status === 'pending') return now + config.COD_CONFIRM_HOURS * HOUR_MS
  return null
}
