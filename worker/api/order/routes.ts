/**
 * /api/order (vue-storefront-api order endpoint):
 *   POST /         order body → {magentoOrderId, orderNumber, backendOrderId, transferedAt, status,
 *                  paymentPending, message, accessKey}
 *   POST /get      {orderId, accessKey?} → the order (customer: own orders via token; guest: the
 *                  access key, which travels only in this body, never in a URL)
 *   GET  /get?orderId=   → the order for its customer (token); an access key in a URL never counts
 * Placement is exactly-once per client order_id: UNIQUE(client_order_id) makes a replayed or
 * concurrent duplicate return the first result — but only to the caller that placed it (the same
 * customer, the same guest cart token, or the identical body); anyone else gets a 409 without any
 * order data. Lines, options and prices come from the catalogue (never the client's numbers);
 * stock of every stocked sku (summed over lines, bundle and grouped lines through their linked
 * products) is decremented in ONE batch with the order rows, and the inventory CHECK (qty >= 0)
 * rolls the whole batch back when any sku lacks stock (code 500, result 'Error: Error while adding
 * products' — the client's out-of-stock signal; detail in meta). Order numbers are assigned here.
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import {
  availablePaymentMethods,
  DEFAULT_SHIPPING_METHOD,
  PAYMENT_METHODS,
} from '../../../shared/config/checkout'
import { canonicalOrderText } from '../../../shared/domain/order-hash'
import {
  ORDER_ID_USED,
  OrderAddressSchema,
  type OrderBody,
  OrderBodySchema,
} from '../../../shared/schemas/order'
import { getTaxRules } from '../../catalog/content'
import type { AppEnv } from '../../platform/env'
import { describeIssues, fail, limitBody, noStore, ok, readBody, readQuery } from '../../platform/http'
import { constantTimeEqual, randomToken, sha256Hex } from '../auth/crypto'
import { FORBIDDEN, NOT_AUTHORIZED, optionalCustomer } from '../auth/guard'
import { LineFailureError, type ResolvedLine, resolveLines, shortOfStock } from '../cart/lines'
import { type CartRow, findCoupon, GUEST_CART_RE, priceLine } from '../cart/repo'
import { computeTotals } from '../cart/totals'
import { paymentProviderFor } from '../payment/provider'
import type { CustomerRow } from '../user/repo'
import { magentoDate } from '../user/repo'
import { findOrderByAnyId, findOrderByClientId, type OrderRow, orderDoc, orderResult } from './repo'

/** VSF's order queue compares result === 'Error: Error while adding products' (code 500). */
export const ADD_PRODUCTS_ERROR = 'Error: Error while adding products'

export const orderRoutes = new Hono<AppEnv>()
orderRoutes.use('*', noStore)

/**
 * The largest order body read: VSF clients send whole cart lines (tens of KB for a few lines), and
 * an order holds at most 100 lines.
 */
export const MAX_ORDER_BODY_BYTES = 1024 * 1024
/** The largest POST /get body read (an order id and an access key). */
export const MAX_ORDER_GET_BODY_BYTES = 4 * 1024

/** The caller's cart named by the order (for its coupon and to close it), if they may use it. */
async function orderCart(db: D1Database, cartId: OrderBody['cart_id'], customer: CustomerRow | null) {
  const key = cartId == null ? '' : String(cartId)
  if (GUEST_CART_RE.test(key)) {
    return db
      .prepare('SELECT * FROM carts WHERE guest_token = ? AND is_active = 1')
      .bind(key)
      .first<CartRow>()
  }
  if (customer && /^\d{1,15}$/.test(key)) {
    return db
      .prepare('SELECT * FROM carts WHERE id = ? AND customer_id = ? AND is_active = 1')
      .bind(Number(key), customer.id)
      .first<CartRow>()
  }
  return null
}

const sameHash = (a: string | null, b: string | null) => {
  if (a === null || b === null) return false
  const enc = new TextEncoder()
  return constantTimeEqual(enc.encode(a), enc.encode(b))
}

/**
 * An existing order's result for a replayed order_id, only for the caller that placed it: the
 * same customer, the same guest cart (token hash), or an identical body (hash). Anyone else gets
 * a 409 that carries no order data.
 */
function replay(row: OrderRow, customer: CustomerRow | null, bodyHash: string, cartKeyHash: string | null) {
  const sameCaller =
    (row.customer_id !== null && customer !== null && row.customer_id === customer.id) ||
    sameHash(row.body_hash, bodyHash) ||
    sameHash(row.cart_key_hash, cartKeyHash)
  if (!sameCaller) fail(409, ORDER_ID_USED)
  return orderResult(row)
}

/** The out-of-stock answer: code 500 with VSF's exact add-products result; the detail in meta. */
function outOfStock(c: Context<AppEnv>, detail: string) {
  return c.json({ code: 500, result: ADD_PRODUCTS_ERROR, meta: { detail, requestId: c.var.requestId } }, 500)
}

/**
 * The order_items rows of an order: one per line at its charged unit price, plus, for a bundle or
 * grouped line, one row per linked product it consumed (price 0, parent_sku = the line's sku). A
 * row that stands for stock reads its product_id from inventory, so a stocked sku without an
 * inventory row fails the whole batch (NOT NULL) instead of being sold unchecked.
 */
function orderItemStatements(
  db: D1Database,
  orderId: string,
  lines: readonly ResolvedLine[],
  items: readonly { sku: string; qty_ordered: number; price_incl_tax: number }[],
): D1PreparedStatement[] {
  const insert = (sku: string, productId: number | null, qty: number, price: number, parent: string | null) =>
    db
      .prepare(
        `INSERT INTO order_items (client_order_id, sku, product_id, qty, price_incl_tax, parent_sku)
         VALUES (?1, ?2, COALESCE(?3, (SELECT product_id FROM inventory WHERE sku = ?2)), ?4, ?5, ?6)`,
      )
      .bind(orderId, sku, productId, qty, price, parent)
  return lines.flatMap((line, i) => {
    const item = items[i] as (typeof items)[number]
    const stocked = line.components.length === 1 && line.components[0]?.sku === line.sku
    if (stocked) return [insert(line.sku, null, item.qty_ordered, item.price_incl_tax, null)]
    return [
      insert(line.sku, line.productId, item.qty_ordered, item.price_incl_tax, null),
      ...line.components.map((part) => insert(part.sku, null, line.qty * part.units, 0, line.sku)),
    ]
  })
}

const constraint = (err: unknown, what: string) => String((err as Error)?.message ?? err).includes(what)

orderRoutes.post('/', limitBody(MAX_ORDER_BODY_BYTES), async (c) => {
  const body = await readBody(c, OrderBodySchema, 'order')
  const customer = await optionalCustomer(c)
  const userId = body.user_id == null ? '' : String(body.user_id)
  if (customer && userId !== '' && userId !== String(customer.id)) fail(403, FORBIDDEN)
  const db = c.env.DB
  const bodyHash = await sha256Hex(canonicalOrderText(body))
  const cartKey = body.cart_id == null ? '' : String(body.cart_id)
  const cartKeyHash = GUEST_CART_RE.test(cartKey) ? await sha256Hex(cartKey) : null
  // A replay is answered before anything else is checked: a retry after the last unit sold still
  // gets its own order, not "out of stock".
  const existing = await findOrderByClientId(db, body.order_id)
  if (existing) return ok(c, replay(existing, customer, bodyHash, cartKeyHash))

  const info = body.addressInformation
  const billing = info.billingAddress
  const shippingParsed = OrderAddressSchema.safeParse(info.shippingAddress)
  const shipping = shippingParsed.success ? shippingParsed.data : null
  const email = customer?.email ?? (billing.email || shipping?.email || '')
  if (!email)
    fail(400, 'Invalid order: addressInformation.billingAddress.email: an e-mail address is required')

  // Resolve every line against the live catalogue (options rebuilt from it; composites expanded).
  let resolved: Awaited<ReturnType<typeof resolveLines>>
  try {
    resolved = await resolveLines(db, body.products)
  } catch (err) {
    if (!(err instanceof LineFailureError)) throw err
    const f = err.failure
    const at = `Invalid order: products.${f.index}`
    if (f.kind === 'unknown-sku') fail(400, `${at}.sku: unknown product ${f.sku}`)
    if (f.kind === 'needs-variant') fail(400, `${at}.sku: ${f.message}`)
    if (f.kind === 'options') fail(400, `${at}.product_option: ${f.message}`)
    return outOfStock(c, `${f.sku} is not available`)
  }
  const { lines, needed } = resolved
  const types = lines.map((l) => l.product.type_id)
  const allVirtual = types.every((t) => t === 'virtual' || t === 'downloadable')
  // A virtual-only order ships nothing: an empty or partial shipping form is ignored.
  if (!allVirtual && !shippingParsed.success) {
    const issues =
      info.shippingAddress == null
        ? 'a shipping address is required'
        : describeIssues(shippingParsed.error).replace(/(^|; )/g, '$1addressInformation.shippingAddress.')
    fail(
      400,
      `Invalid order: ${info.shippingAddress == null ? 'addressInformation.shippingAddress: ' : ''}${issues}`,
    )
  }
  const offered = availablePaymentMethods(types).map((m) => m.code)
  if (!offered.includes(info.payment_method_code)) {
    fail(
      400,
      `Invalid order: addressInformation.payment_method_code: ${info.payment_method_code} is not available (offered: ${offered.join(', ')})`,
    )
  }
  // Stock pre-check for a clear message; the batch's CHECK constraint is the real guard.
  const short = shortOfStock(needed, resolved.stock)
  if (short) return outOfStock(c, `${short} is out of stock`)

  const now = Date.now()
  const country = (shipping ?? billing).country_id.toUpperCase()
  const cart = await orderCart(db, body.cart_id, customer)
  const taxRules = await getTaxRules(db)
  const priced = lines.map((l) =>
    priceLine(l.product, l, { item_id: l.index + 1, qty: l.qty }, taxRules, {
      now,
      country,
      currency: 'INR',
    }),
  )
  const totals = computeTotals({
    lines: priced,
    coupon: await findCoupon(db, cart?.coupon_code ?? null),
    shippingAmount: allVirtual ? 0 : DEFAULT_SHIPPING_METHOD.amount,
    currency: 'INR',
    country,
    now,
  })
  // Store credit (checkout's "apply my store credit"): up to the balance, spent in the same batch.
  let creditMinor = 0
  if (body.store_credit_applied) {
    if (!customer)
      fail(400, 'Invalid order: store_credit_applied: store credit can only be applied when signed in')
    const balance = await db
      .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
      .bind(customer.id)
      .first<{ balance_minor: number }>()
    creditMinor = Math.min(balance?.balance_minor ?? 0, Math.round(totals.grand_total * 100))
  }
  const credit = creditMinor / 100
  const grandTotal = Math.round(totals.grand_total * 100 - creditMinor) / 100
  const method = PAYMENT_METHODS.find((m) => m.code === info.payment_method_code)
  const payment = await paymentProviderFor(info.payment_method_code, c.env).place({
    grandTotal,
    currency: 'INR',
  })
  const stamp = magentoDate(now)
  const accessKey = randomToken()
  const items = totals.items.map((t, i) => ({
    item_id: i + 1,
    sku: t.sku,
    name: t.name,
    product_id: (lines[i] as ResolvedLine).productId,
    parent_sku: (lines[i] as ResolvedLine).parentSku,
    product_type: t.product_type,
    qty_ordered: t.qty,
    price: t.price,
    price_incl_tax: t.price_incl_tax,
    row_total: t.row_total,
    row_total_incl_tax: t.row_total_incl_tax,
    tax_amount: t.tax_amount,
    tax_percent: t.tax_percent,
    discount_amount: t.discount_amount,
    ...(t.product_option ? { product_option: t.product_option } : {}),
  }))
  const shippingAddress = shipping ? { ...shipping, address_type: 'shipping', email } : null
  const doc = {
    created_at: stamp,
    updated_at: stamp,
    status: payment.status,
    state: payment.state,
    customer_id: customer?.id ?? null,
    customer_email: email,
    customer_firstname: customer?.firstname ?? billing.firstname,
    customer_lastname: customer?.lastname ?? billing.lastname,
    customer_is_guest: customer ? 0 : 1,
    store_id: c.var.config.STORE_ID,
    grand_total: grandTotal,
    base_grand_total: grandTotal,
    ...(credit > 0 ? { customer_balance_amount: credit, base_customer_balance_amount: credit } : {}),
    subtotal: totals.subtotal,
    subtotal_incl_tax: totals.subtotal_incl_tax,
    shipping_amount: totals.shipping_amount,
    shipping_incl_tax: totals.shipping_incl_tax,
    discount_amount: totals.discount_amount,
    tax_amount: totals.tax_amount,
    ...(totals.coupon_code ? { coupon_code: totals.coupon_code } : {}),
    order_currency_code: 'INR',
    base_currency_code: 'INR',
    total_qty_ordered: totals.items_qty,
    total_item_count: items.length,
    items,
    billing_address: { ...billing, address_type: 'billing', email },
    payment: {
      method: info.payment_method_code,
      additional_information: [method?.title ?? info.payment_method_code, payment.message],
    },
    extension_attributes: {
      shipping_assignments: [
        {
          shipping: {
            address: shippingAddress,
            method: allVirtual
              ? null
              : `${DEFAULT_SHIPPING_METHOD.carrier_code}_${DEFAULT_SHIPPING_METHOD.method_code}`,
          },
          items,
        },
      ],
    },
  }
  const stored = {
    storeCreditApplied: credit,
    transferedAt: new Date(now).toISOString(),
    status: payment.status,
    paymentPending: payment.paymentPending,
    message: payment.message,
    accessKey,
  }
  const nextId = '(SELECT COALESCE(MAX(entity_id), 0) + 1 FROM orders)'
  const statements: D1PreparedStatement[] = [
    db
      .prepare(
        `INSERT INTO orders (entity_id, client_order_id, increment_id, customer_id, customer_email, access_key_hash,
           status, payment_method, grand_total, doc, result, created_at, body_hash, cart_key_hash)
         VALUES (${nextId}, ?, printf('%09d', ${nextId}), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        body.order_id,
        customer?.id ?? null,
        email,
        await sha256Hex(accessKey),
        payment.status,
        info.payment_method_code,
        grandTotal,
        JSON.stringify(doc),
        JSON.stringify(stored),
        stamp,
        bodyHash,
        cart && cartKeyHash ? cartKeyHash : null,
      ),
    ...orderItemStatements(db, body.order_id, lines, items),
    ...[...needed].map(([sku, qty]) =>
      db
        .prepare('UPDATE inventory SET qty = qty - ?1, is_in_stock = (qty - ?1 > 0) WHERE sku = ?2')
        .bind(qty, sku),
    ),
  ]
  if (customer && creditMinor > 0) {
    // The balance CHECK (>= 0) fails the whole batch if a concurrent spend got there first.
    statements.push(
      db
        .prepare(
          'UPDATE store_credit SET balance_minor = balance_minor - ?, updated_at = ? WHERE customer_id = ?',
        )
        .bind(creditMinor, stamp, customer.id),
      db
        .prepare(
          `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, order_id, comment, created_at)
           SELECT customer_id, ?, balance_minor, ?, ?, ? FROM store_credit WHERE customer_id = ?`,
        )
        .bind(-creditMinor, body.order_id, `Spent on order ${body.order_id}`, stamp, customer.id),
    )
  }
  if (cart)
    statements.push(
      db.prepare('UPDATE carts SET is_active = 0, updated_at = ? WHERE id = ?').bind(stamp, cart.id),
    )
  try {
    await db.batch(statements)
  } catch (err) {
    if (constraint(err, 'orders.client_order_id')) {
      // A concurrent duplicate won the race: answer with its result.
      const first = await findOrderByClientId(db, body.order_id)
      if (first) return ok(c, replay(first, customer, bodyHash, cartKeyHash))
    }
    if (constraint(err, 'balance_minor')) {
      fail(
        409,
        'Your store credit balance changed while the order was placed. Please review your order and try again.',
      )
    }
    if (constraint(err, 'CHECK constraint failed') || constraint(err, 'NOT NULL constraint failed')) {
      return outOfStock(c, 'some products went out of stock while the order was placed')
    }
    throw err
  }
  const row = (await findOrderByClientId(db, body.order_id)) as OrderRow
  return ok(c, orderResult(row))
})

const OrderIdSchema = z
  .string({ error: 'orderId is required' })
  .trim()
  .min(1, 'orderId is required')
  .max(100, 'orderId must be at most 100 characters')

const GetOrderQuerySchema = z.object({ orderId: OrderIdSchema })
const GetOrderBodySchema = z.object({
  orderId: OrderIdSchema,
  accessKey: z.string().max(200, 'accessKey must be at most 200 characters').optional(),
})

const KEY_NOT_IN_URL =
  'An access key is only accepted in the JSON body of POST /api/order/get, never in a URL.'

/**
 * The order for its customer (token) or for whoever holds its guest access key. The key is a
 * bearer secret and is read only from a POST body: a URL ends up in logs, history and Referer
 * headers, so a key in the query string never unlocks anything.
 */
async function getOrder(c: Context<AppEnv>, orderId: string, accessKey: string | undefined) {
  const customer = await optionalCustomer(c)
  const row = await findOrderByAnyId(c.env.DB, orderId)
  if (!row) fail(404, `Order ${orderId} not found.`)
  const ownCustomerOrder = customer !== null && row.customer_id === customer.id
  const keyMatches = accessKey ? sameHash(await sha256Hex(accessKey), row.access_key_hash) : false
  if (!ownCustomerOrder && !keyMatches) {
    if (!customer && row.customer_id !== null) fail(401, NOT_AUTHORIZED)
    const keyInUrl = c.req.query('accessKey') !== undefined
    fail(403, `You are not allowed to see this order.${keyInUrl ? ` ${KEY_NOT_IN_URL}` : ''}`)
  }
  return ok(c, orderDoc(row))
}

orderRoutes.get('/get', async (c) => {
  const { orderId } = readQuery(c, GetOrderQuerySchema)
  return getOrder(c, orderId, undefined)
})

orderRoutes.post('/get', limitBody(MAX_ORDER_GET_BODY_BYTES), async (c) => {
  const { orderId, accessKey } = await readBody(c, GetOrderBodySchema)
  return getOrder(c, orderId, accessKey)
})
