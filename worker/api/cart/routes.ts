/**
 * /api/cart/*, Magento-shaped results:
 *   POST /create?token                        → cart id (guest: 32 hex; customer: numeric, one active per customer)
 *   GET|POST /pull?token&cartId               → items [{item_id, sku, qty, name, price, product_type, quote_id, product_option?,
 *                                               extension_attributes: {options, image, url_path}}]
 *   POST /update?token&cartId {cartItem}      → the saved item (qty is absolute: replays never double it)
 *   POST /delete?token&cartId {cartItem}      → true
 *   GET  /totals?token&cartId                 → totals with items and total_segments
 *   GET  /payment-methods?token&cartId        → [{code,title}] (cash on delivery hidden for virtual-only carts)
 *   GET|POST /shipping-methods?token&cartId   → [{carrier_code, method_code, amount, ...}] (POST body {address})
 *   POST /shipping-information?token&cartId   {addressInformation} → {payment_methods, totals}
 *   POST /collect-totals?token&cartId         → totals
 *   POST /apply-coupon?token&cartId&coupon    → true (or 400 with why the coupon does not apply)
 *   POST /delete-coupon?token&cartId          → true
 *   GET  /coupon?token&cartId                 → the applied code or null
 *   GET  /look?sku=A,B                        → {items} "complete the look" for the bag's products (look.ts)
 */

import { availablePaymentMethods, PAYMENT_METHODS, SHIPPING_METHODS } from '@shared/config/checkout'
import { FIELD_MAX_CHARS } from '@shared/config/fields'
import { NO_SHIPPING_TITLE } from '@shared/config/shipping'
import { baseCurrency } from '@shared/config/store'
import { toBaseCurrency } from '@shared/domain/currency'
import {
  CartDeleteBodySchema,
  CartUpdateBodySchema,
  ShippingInformationBodySchema,
  ShippingMethodsBodySchema,
} from '@shared/schemas/cart'
import type { Context, MiddlewareHandler } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import { getProductsBySku } from '../../catalog/products'
import type { AppEnv } from '../../platform/env'
import { fail, jsonBody, limitBody, noStore, ok, query } from '../../platform/http'
import { randomHex } from '../auth/crypto'
import { optionalCustomer } from '../auth/guard'
import { codServiceable } from '../checkout/cod'
import { cartCodRefusal } from '../checkout/cod-cart'
import { magentoDate } from '../user/repo'
import { couponUsageProblem, findCoupon } from './coupons'
import { parseStoredOption } from './line-options'
import { LineFailureError, type ResolvedLine, resolveLines, shortOfStock } from './lines'
import { bagSkus, cartLook } from './look'
import type { CartRow } from './repo'
import {
  type CartItemRow,
  cartCountry,
  cartCurrency,
  cartTotals,
  listItems,
  MAX_CART_LINES,
  priceItems,
  resolveCart,
  setOfPiece,
  toCartItem,
} from './repo'
import { couponProblem } from './totals'

export const cartRoutes = new Hono<AppEnv>()
cartRoutes.use('*', noStore)
cartRoutes.get('/look', (c) => cartLook(c, bagSkus(c.req.query('sku'))))

/** The largest request body a cart call reads (a cart item with its options is well under 8 KiB). */
const MAX_CART_BODY_BYTES = 64 * 1024
cartRoutes.use('*', limitBody(MAX_CART_BODY_BYTES))

const QTY_NOT_AVAILABLE = 'The requested qty is not available'
const PRODUCT_NOT_AVAILABLE = 'Product that you are trying to add is not available.'

/** The cart is checked (400/401/403/404) before the body is read. */
const cartFirst: MiddlewareHandler<AppEnv> = async (c, next) => {
  await resolveCart(c)
  await next()
}

cartRoutes.post('/create', async (c) => {
  const customer = await optionalCustomer(c)
  const db = c.env.DB
  const stamp = magentoDate(Date.now())
  if (!customer) {
    const token = randomHex(16)
    await db
      .prepare('INSERT INTO carts (guest_token, created_at, updated_at, base_currency) VALUES (?, ?, ?, ?)')
      .bind(token, stamp, stamp, baseCurrency())
      .run()
    return ok(c, token)
  }
  // One active cart per customer (partial unique index): concurrent creates converge on it.
  await db
    .prepare(
      'INSERT OR IGNORE INTO carts (customer_id, created_at, updated_at, base_currency) VALUES (?, ?, ?, ?)',
    )
    .bind(customer.id, stamp, stamp, baseCurrency())
    .run()
  const row = await db
    .prepare('SELECT id FROM carts WHERE customer_id = ? AND is_active = 1')
    .bind(customer.id)
    .first<{ id: number }>()
  return ok(c, String(row?.id))
})

const pull = async (c: Context<AppEnv>) => {
  const { cart, cartKey } = await resolveCart(c)
  const items = await listItems(c.env.DB, cart.id)
  const country = cartCountry(cart, c.var.store?.country ?? c.var.config.DEFAULT_COUNTRY)
  const { lines } = await priceItems(c.env.DB, items, { now: Date.now(), country, currency: cartCurrency(c) })
  const byId = new Map(lines.map((l) => [l.item_id, l]))
  return ok(
    c,
    items.map((i) => toCartItem(i, cartKey, byId.get(i.item_id))),
  )
}
cartRoutes.get('/pull', pull)
cartRoutes.post('/pull', pull)

/** The 400 a cart add answers for a line the catalogue refuses. */
function cartLineFailure(err: unknown): never {
  if (!(err instanceof LineFailureError)) throw err
  const f = err.failure
  if (f.kind === 'unknown-sku') fail(400, `The product that was requested doesn't exist (sku ${f.sku}).`)
  if (f.kind === 'needs-variant') fail(400, 'You need to choose options for your item.')
  if (f.kind === 'options') fail(400, `Invalid cart item: product_option: ${f.message}`)
  fail(400, PRODUCT_NOT_AVAILABLE)
}

cartRoutes.post('/update', cartFirst, jsonBody(CartUpdateBodySchema), async (c) => {
  const { cart, cartKey } = await resolveCart(c)
  const { cartItem } = c.req.valid('json')
  const db = c.env.DB
  // A quantity change without options keeps (and is checked with) the line's stored options.
  let requestedOption: unknown = cartItem.product_option ?? undefined
  if (requestedOption === undefined) {
    const existing = await db
      .prepare(
        cartItem.item_id !== undefined
          ? 'SELECT product_option FROM cart_items WHERE cart_id = ?1 AND item_id = ?2'
          : 'SELECT product_option FROM cart_items WHERE cart_id = ?1 AND sku = ?2',
      )
      .bind(cart.id, cartItem.item_id ?? cartItem.sku)
      .first<{ product_option: string | null }>()
    requestedOption = parseStoredOption(existing?.product_option ?? null)
  }
  let resolved: Awaited<ReturnType<typeof resolveLines>>
  try {
    resolved = await resolveLines(db, [
      { sku: cartItem.sku, qty: cartItem.qty, product_option: requestedOption },
    ])
  } catch (err) {
    cartLineFailure(err)
  }
  const line = resolved.lines[0] as ResolvedLine
  if (shortOfStock(resolved.needed, resolved.stock)) fail(400, QTY_NOT_AVAILABLE)
  // A piece chosen on its grouped set's page keeps the set, whose page the line links to.
  const named =
    !line.parentSku && cartItem.parentSku && cartItem.parentSku !== line.sku ? cartItem.parentSku : null
  const set = named ? setOfPiece((await getProductsBySku(db, [named])).get(named)?.product, line.sku) : null
  const parentSku = line.parentSku ?? set?.sku ?? null
  const stamp = magentoDate(Date.now())
  const option = line.option ? JSON.stringify(line.option) : null
  let saved: CartItemRow | null
  if (cartItem.item_id !== undefined) {
    // The item id must name this product's line: a quantity checked against one product never
    // lands on another product's line.
    saved = await db
      .prepare(
        'UPDATE cart_items SET qty = ?, product_option = COALESCE(?, product_option) WHERE item_id = ? AND cart_id = ? AND sku = ? RETURNING *',
      )
      .bind(cartItem.qty, option, cartItem.item_id, cart.id, line.sku)
      .first<CartItemRow>()
    if (!saved) fail(404, `Cart ${cartKey} doesn't contain item ${cartItem.item_id}`)
  } else {
    // One statement adds the line only while the cart has fewer than MAX_CART_LINES lines (or
    // already has this sku), so concurrent adds can never push a cart past the cap. The same sku
    // again sets the quantity (absolute, idempotent): a replayed or racing add never creates a
    // second line or doubles the quantity.
    saved = await db
      .prepare(
        `INSERT INTO cart_items (cart_id, sku, parent_sku, product_id, qty, product_option, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
         WHERE (SELECT COUNT(*) FROM cart_items WHERE cart_id = ?1) < ?8
            OR EXISTS (SELECT 1 FROM cart_items WHERE cart_id = ?1 AND sku = ?2)
         ON CONFLICT(cart_id, sku) DO UPDATE SET qty = excluded.qty, product_option = COALESCE(excluded.product_option, product_option),
           parent_sku = COALESCE(excluded.parent_sku, parent_sku)
         RETURNING *`,
      )
      .bind(cart.id, line.sku, parentSku, line.productId, cartItem.qty, option, stamp, MAX_CART_LINES)
      .first<CartItemRow>()
    if (!saved) fail(400, `A cart holds at most ${MAX_CART_LINES} different products.`)
  }
  await db.prepare('UPDATE carts SET updated_at = ? WHERE id = ?').bind(stamp, cart.id).run()
  const item = saved as CartItemRow
  const { lines } = await priceItems(db, [item], {
    now: Date.now(),
    country: cartCountry(cart, c.var.store?.country ?? c.var.config.DEFAULT_COUNTRY),
    currency: cartCurrency(c),
  })
  return ok(c, toCartItem(item, cartKey, lines[0]))
})

cartRoutes.post('/delete', cartFirst, jsonBody(CartDeleteBodySchema), async (c) => {
  const { cart } = await resolveCart(c)
  const { cartItem } = c.req.valid('json')
  // Idempotent: removing an item that is already gone is not an error (queued/offline replays).
  if (cartItem.item_id !== undefined) {
    await c.env.DB.prepare('DELETE FROM cart_items WHERE item_id = ? AND cart_id = ?')
      .bind(cartItem.item_id, cart.id)
      .run()
  } else {
    await c.env.DB.prepare('DELETE FROM cart_items WHERE sku = ? AND cart_id = ?')
      .bind(cartItem.sku, cart.id)
      .run()
  }
  return ok(c, true)
})

cartRoutes.get('/totals', async (c) => {
  const { cart } = await resolveCart(c)
  return ok(c, await cartTotals(c, cart))
})

cartRoutes.post('/collect-totals', async (c) => {
  const { cart } = await resolveCart(c)
  return ok(c, await cartTotals(c, cart))
})

async function paymentMethodsOf(c: Context<AppEnv>, cart: CartRow) {
  const db = c.env.DB
  const items = await listItems(db, cart.id)
  const bySku = await getProductsBySku(
    db,
    items.map((i) => i.sku),
  )
  const types = items.map((i) => bySku.get(i.sku)?.product.type_id ?? 'simple')
  // The methods that charge the cart's currency; once the cart has a shipping address, cash on
  // delivery follows its country and PIN code, and the operator's rules for the cart.
  const address = cart.shipping_address
    ? (JSON.parse(cart.shipping_address) as { country_id?: string; postcode?: string })
    : null
  return availablePaymentMethods({
    currency: cartCurrency(c),
    typeIds: types,
    currencies: c.var.config.PAYMENT_CURRENCIES,
    country: address?.country_id ?? null,
    postcode: address?.postcode ?? null,
    codServiceable: address?.country_id
      ? await codServiceable(db, address.country_id, address.postcode)
      : null,
    codRefusal: address?.country_id ? await cartCodRefusal(c, cart) : null,
  }).map((m) => ({ code: m.code, title: m.title }))
}

cartRoutes.get('/payment-methods', async (c) => {
  const { cart } = await resolveCart(c)
  return ok(c, await paymentMethodsOf(c, cart))
})

/**
 * The shipping method for the cart and an address (the saved one unless another is given): one
 * courier whose amount is the shipping rules' rate for that destination and the cart's subtotal,
 * exactly the shipping line of the cart's totals. A cart that ships nothing has none.
 */
async function shippingMethodsOf(c: Context<AppEnv>, cart: CartRow, address?: unknown) {
  const priced = address === undefined ? cart : { ...cart, shipping_address: JSON.stringify(address) }
  const totals = await cartTotals(c, priced)
  const ext = totals.extension_attributes
  if (totals.items.length > 0 && ext.shipping_title === NO_SHIPPING_TITLE) return []
  const amount = ext.shipping_minor / 100
  return SHIPPING_METHODS.map((m) => ({
    carrier_code: m.carrier_code,
    method_code: m.method_code,
    carrier_title: m.carrier_title,
    method_title: ext.shipping_title,
    amount,
    base_amount: Math.round(toBaseCurrency(ext.shipping_minor, ext.currency)) / 100,
    available: true,
    error_message: '',
    price_excl_tax: amount,
    price_incl_tax: amount,
  }))
}

cartRoutes.get('/shipping-methods', async (c) => {
  const { cart } = await resolveCart(c)
  return ok(c, await shippingMethodsOf(c, cart))
})

cartRoutes.post('/shipping-methods', cartFirst, jsonBody(ShippingMethodsBodySchema), async (c) => {
  const { cart } = await resolveCart(c)
  return ok(c, await shippingMethodsOf(c, cart, c.req.valid('json').address))
})

cartRoutes.post('/shipping-information', cartFirst, jsonBody(ShippingInformationBodySchema), async (c) => {
  const resolved = await resolveCart(c)
  const { addressInformation: info } = c.req.valid('json')
  const method =
    info.shipping_carrier_code || info.shipping_method_code
      ? SHIPPING_METHODS.find(
          (m) =>
            m.carrier_code === (info.shipping_carrier_code ?? m.carrier_code) &&
            m.method_code === (info.shipping_method_code ?? m.method_code),
        )
      : SHIPPING_METHODS[0]
  if (!method) fail(400, 'The shipping method is not available.')
  const shipping = JSON.stringify(info.shipping_address)
  const billing = JSON.stringify(info.billing_address ?? info.shipping_address)
  // Only a method the shop has is kept (its fee, if any, is then in the totals).
  const payment = PAYMENT_METHODS.some((m) => m.code === info.payment_method_code)
    ? (info.payment_method_code as string)
    : null
  await c.env.DB.prepare(
    'UPDATE carts SET shipping_address = ?, billing_address = ?, shipping_method = ?, payment_method = ?, updated_at = ? WHERE id = ?',
  )
    .bind(
      shipping,
      billing,
      `${method.carrier_code}_${method.method_code}`,
      payment,
      magentoDate(Date.now()),
      resolved.cart.id,
    )
    .run()
  const cart = {
    ...resolved.cart,
    shipping_address: shipping,
    billing_address: billing,
    payment_method: payment,
  }
  return ok(c, {
    payment_methods: await paymentMethodsOf(c, cart),
    totals: await cartTotals(c, cart),
  })
})

const CouponQuery = z.object({
  coupon: z
    .string({ error: 'coupon is required' })
    .trim()
    .min(1, 'coupon is required')
    .max(FIELD_MAX_CHARS.coupon, `coupon is at most ${FIELD_MAX_CHARS.coupon} characters`),
})

/** The e-mail of a cart's shopper: the customer's, else the saved shipping address's; null when unknown. */
async function cartShopperEmail(db: D1Database, cart: CartRow): Promise<string | null> {
  if (cart.customer_id !== null) {
    const row = await db
      .prepare('SELECT email FROM customers WHERE id = ?')
      .bind(cart.customer_id)
      .first<{ email: string }>()
    if (row?.email) return row.email
  }
  const saved = cart.shipping_address ? (JSON.parse(cart.shipping_address) as { email?: unknown }) : null
  return typeof saved?.email === 'string' && saved.email.includes('@') ? saved.email : null
}

cartRoutes.post('/apply-coupon', cartFirst, query(CouponQuery), async (c) => {
  const { cart } = await resolveCart(c)
  const code = c.req.valid('query').coupon
  const items = await listItems(c.env.DB, cart.id)
  if (items.length === 0)
    fail(400, `The cart doesn't contain products, so the coupon "${code}" cannot be applied.`)
  const country = cartCountry(cart, c.var.store?.country ?? c.var.config.DEFAULT_COUNTRY)
  const currency = cartCurrency(c)
  const { lines } = await priceItems(c.env.DB, items, { now: Date.now(), country, currency })
  const subtotalMinor = lines.reduce((s, l) => s + l.unitMinor * l.qty, 0)
  const rule = await findCoupon(c.env.DB, code)
  const problem = couponProblem(rule, code, subtotalMinor, Date.now(), currency)
  if (problem || !rule) fail(400, problem ?? `The coupon code "${code}" is not valid.`)
  // The usage rules (first order, per shopper, in all) for the shopper as far as the cart knows
  // them: the account and its e-mail, else the e-mail of the address the checkout saved.
  const usage = await couponUsageProblem(c.env.DB, rule, {
    customerId: cart.customer_id,
    email: await cartShopperEmail(c.env.DB, cart),
  })
  if (usage) fail(400, usage)
  await c.env.DB.prepare('UPDATE carts SET coupon_code = ?, updated_at = ? WHERE id = ?')
    .bind(rule.code, magentoDate(Date.now()), cart.id)
    .run()
  return ok(c, true)
})

cartRoutes.post('/delete-coupon', async (c) => {
  const { cart } = await resolveCart(c)
  await c.env.DB.prepare('UPDATE carts SET coupon_code = NULL, updated_at = ? WHERE id = ?')
    .bind(magentoDate(Date.now()), cart.id)
    .run()
  return ok(c, true)
})

cartRoutes.get('/coupon', async (c) => {
  const { cart } = await resolveCart(c)
  return ok(c, cart.coupon_code)
})
