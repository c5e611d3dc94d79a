/**
 * Cart storage and ownership. A guest cart is addressed by its 32-hex token (a bearer secret);
 * a customer cart by its numeric quote id, and only with its owner's access token (others → 403,
 * no token → 401). Inactive (ordered) carts are gone (404) so the client creates a new one.
 */
import type { Context } from 'hono'
import { DEFAULT_SHIPPING_METHOD } from '../../../shared/config/checkout'
import { priceView } from '../../../shared/domain/price'
import type { ConfigurableChild, Product } from '../../../shared/schemas/catalog'
import type { AppEnv } from '../../env'
import { FORBIDDEN, NOT_AUTHORIZED, optionalCustomer } from '../auth/guard'
import { fail } from '../auth/http'
import { getTaxRules } from '../catalog/content'
import { getProductsBySku } from '../catalog/products'
import type { CustomerRow } from '../user/repo'
import { type CouponRule, computeTotals, type PricedLine, TotalsError } from './totals'

export const GUEST_CART_RE = /^[0-9a-f]{32}$/
export const MAX_CART_LINES = 100

export interface CartRow {
  id: number
  guest_token: string | null
  customer_id: number | null
  is_active: number
  coupon_code: string | null
  shipping_address: string | null
  billing_address: string | null
  shipping_method: string | null
}

export interface CartItemRow {
  item_id: number
  cart_id: number
  sku: string
  parent_sku: string | null
  product_id: number
  qty: number
  product_option: string | null
}

export interface ResolvedCart {
  cart: CartRow
  /** The id as the client knows it (guest token or numeric id), echoed as quote_id. */
  cartKey: string
  customer: CustomerRow | null
}

/** Loads the cart named by ?cartId and checks the caller may use it. */
export async function resolveCart(c: Context<AppEnv>): Promise<ResolvedCart> {
  const cartKey = (c.req.query('cartId') ?? '').trim()
  const customer = await optionalCustomer(c)
  if (!cartKey) fail(400, 'cartId is required')
  let cart: CartRow | null
  if (GUEST_CART_RE.test(cartKey)) {
    cart = await c.env.DB.prepare('SELECT * FROM carts WHERE guest_token = ?').bind(cartKey).first<CartRow>()
  } else if (/^\d{1,15}$/.test(cartKey)) {
    if (!customer) fail(401, NOT_AUTHORIZED)
    cart = await c.env.DB.prepare('SELECT * FROM carts WHERE id = ? AND guest_token IS NULL')
      .bind(Number(cartKey))
      .first<CartRow>()
    if (cart !== null && cart.customer_id !== customer.id) fail(403, FORBIDDEN)
  } else {
    return fail(400, 'cartId is not a valid cart id')
  }
  if (!cart?.is_active) fail(404, `No such entity with cartId = ${cartKey}`)
  return { cart, cartKey, customer }
}

export async function listItems(db: D1Database, cartId: number): Promise<CartItemRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM cart_items WHERE cart_id = ? ORDER BY item_id')
    .bind(cartId)
    .all<CartItemRow>()
  return results
}

interface ItemOptions {
  extension_attributes?: {
    configurable_item_options?: { option_id: string | number; option_value: string | number }[]
    custom_options?: { option_id: string | number; option_value: unknown }[]
    bundle_options?: { option_id: string | number; option_qty?: number; option_selections?: number[] }[]
  }
}

/** The configurable child chosen by configurable_item_options (option_id = attribute_id). */
export function childForOptions(product: Product, productOption: unknown): ConfigurableChild | undefined {
  const options = (productOption as ItemOptions | undefined)?.extension_attributes?.configurable_item_options
  if (!options?.length) return undefined
  return product.configurable_children.find((child) =>
    options.every((o) => {
      const attr = product.configurable_options.find((a) => String(a.attribute_id) === String(o.option_id))
      return (
        attr && Number((child as Record<string, unknown>)[attr.attribute_code]) === Number(o.option_value)
      )
    }),
  )
}

/** Display options [{label, value}] of a configurable child. */
function childOptions(product: Product, child: ConfigurableChild | undefined) {
  if (!child) return []
  return product.configurable_options.flatMap((attr) => {
    const id = Number((child as Record<string, unknown>)[attr.attribute_code])
    const value = attr.values.find((v) => v.value_index === id)
    return value ? [{ label: attr.label, value: value.label }] : []
  })
}

export interface PricingContext {
  now: number
  country: string | null
  currency: string
}

/** Prices every cart line with the shared price functions (live catalogue, not client numbers). */
export async function priceItems(db: D1Database, items: CartItemRow[], ctx: PricingContext) {
  const [bySku, taxRules] = await Promise.all([
    getProductsBySku(
      db,
      items.map((i) => i.sku),
    ),
    getTaxRules(db),
  ])
  const lines: PricedLine[] = []
  const missing: CartItemRow[] = []
  for (const item of items) {
    const found = bySku.get(item.sku)
    if (!found) {
      missing.push(item)
      continue
    }
    const { product, child } = found
    const option = item.product_option ? (JSON.parse(item.product_option) as ItemOptions) : undefined
    const ext = option?.extension_attributes
    const customOptions = ext?.custom_options?.length
      ? Object.fromEntries(ext.custom_options.map((o) => [o.option_id, o.option_value]))
      : undefined
    const bundleSelection = ext?.bundle_options?.length
      ? Object.fromEntries(
          ext.bundle_options.map((o) => [
            o.option_id,
            { linkId: o.option_selections?.[0] ?? null, qty: Number(o.option_qty ?? 1) },
          ]),
        )
      : undefined
    const view = priceView(product, {
      now: ctx.now,
      currency: 'INR',
      taxRules,
      country: ctx.country,
      variantSku: child?.sku ?? null,
      customOptions,
      bundleSelection,
    })
    lines.push({
      item_id: item.item_id,
      sku: item.sku,
      name: child?.name ?? product.name,
      qty: item.qty,
      product_type: product.type_id,
      product_option: option,
      unitExcl: view.final,
      unitIncl: view.finalInclTax,
      taxRate: view.taxRate,
      options: childOptions(product, child),
    })
  }
  return { lines, missing, bySku }
}

/** The Magento cart item shape of /pull and /update. */
export function toCartItem(item: CartItemRow, cartKey: string, line?: PricedLine) {
  return {
    item_id: item.item_id,
    sku: item.sku,
    qty: item.qty,
    name: line?.name ?? item.sku,
    price: line ? Math.round(line.unitExcl * 100) / 100 : 0,
    product_type: line?.product_type ?? 'simple',
    quote_id: cartKey,
    ...(item.product_option ? { product_option: JSON.parse(item.product_option) } : {}),
  }
}

export async function findCoupon(db: D1Database, code: string | null): Promise<CouponRule | null> {
  if (!code) return null
  return db.prepare('SELECT * FROM coupons WHERE code = ?').bind(code).first<CouponRule>()
}

/** The tax country of a cart: its shipping address, else the store's country. */
export function cartCountry(cart: CartRow, fallback: string | null | undefined): string | null {
  const address = cart.shipping_address
    ? (JSON.parse(cart.shipping_address) as { country_id?: string })
    : null
  return address?.country_id || fallback || null
}

/** Totals of a cart (400 with the spec's message when no tax country is known). */
export async function cartTotals(c: Context<AppEnv>, cart: CartRow, now = Date.now()) {
  const country = cartCountry(cart, c.var.store?.country ?? c.var.config.DEFAULT_COUNTRY)
  const items = await listItems(c.env.DB, cart.id)
  const { lines } = await priceItems(c.env.DB, items, { now, country, currency: 'INR' })
  const coupon = await findCoupon(c.env.DB, cart.coupon_code)
  try {
    return computeTotals({
      lines,
      coupon,
      shippingAmount: DEFAULT_SHIPPING_METHOD.amount,
      currency: 'INR',
      country,
      now,
    })
  } catch (err) {
    if (err instanceof TotalsError) fail(400, err.message)
    throw err
  }
}
