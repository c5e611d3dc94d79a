/**
 * Cart storage and ownership. A guest cart is addressed by its 32-hex token (a bearer secret);
 * a customer cart by its numeric quote id, and only with its owner's access token (others → 403,
 * no token → 401). Inactive (ordered) carts are gone (404) so the client creates a new one.
 */

import { usableImage } from '@shared/components/catalog/tile-data'
import { productPath } from '@shared/config/links'
import { baseCurrency } from '@shared/config/store'
import { madeToOrderNote } from '@shared/domain/made-to-order'
import { priceView } from '@shared/domain/price'
import type { ConfigurableChild, Product, TaxRule } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { getTaxRules } from '../../catalog/content'
import { listedMadeToOrder, pieceShipsBy } from '../../catalog/made-to-order'
import { getProductsBySku } from '../../catalog/products'
import type { AppEnv } from '../../platform/env'
import { fail } from '../../platform/http'
import { FORBIDDEN, NOT_AUTHORIZED, optionalCustomer } from '../auth/guard'
import { shipsNothing } from '../order/check'
import type { CustomerRow } from '../user/repo'
import { findCoupon } from './coupons'
import { configureLine, type LineConfig, LineProblem, parseStoredOption } from './line-options'
import { computeTotals, linePieces, type PricedLine, TotalsError } from './totals'

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
  /** The payment method chosen at checkout (cash on delivery adds its fee to the totals). */
  payment_method?: string | null
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

interface ResolvedCart {
  cart: CartRow
  /** The id as the client knows it (guest token or numeric id), echoed as quote_id. */
  cartKey: string
  customer: CustomerRow | null
}

/** Loads the cart named by ?cartId and checks the caller may use it. */
/** The cart of each request, resolved once however many steps ask (keyed by the request context). */
const resolved = new WeakMap<Context<AppEnv>, Promise<ResolvedCart>>()

/** The cart named by ?cartId= that the caller may use (400/401/403/404 otherwise), once per request. */
export function resolveCart(c: Context<AppEnv>): Promise<ResolvedCart> {
  let cart = resolved.get(c)
  if (!cart) {
    cart = findCallersCart(c)
    resolved.set(c, cart)
  }
  return cart
}

function findCallersCart(c: Context<AppEnv>): Promise<ResolvedCart> {
  return callersCart(c, (c.req.query('cartId') ?? '').trim())
}

/**
 * The active cart `cartKey` names, if the caller may use it: a guest cart by its token, a customer
 * cart by its id with its owner's token (400/401/403/404 otherwise, naming `field`).
 */
export async function callersCart(
  c: Context<AppEnv>,
  cartKey: string,
  field = 'cartId',
): Promise<ResolvedCart> {
  const customer = await optionalCustomer(c)
  if (!cartKey) fail(400, `${field} is required`)
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
    return fail(400, `${field} is not a valid cart id`)
  }
  if (!cart?.is_active) fail(404, `No such entity with ${field} = ${cartKey}`)
  return { cart, cartKey, customer }
}

export async function listItems(db: D1Database, cartId: number): Promise<CartItemRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM cart_items WHERE cart_id = ? ORDER BY item_id')
    .bind(cartId)
    .all<CartItemRow>()
  return results
}

/** What the shopper chose of a configurable: [{attribute label, value label}]. */
function childOptions(product: Product, child: ConfigurableChild | undefined) {
  if (!child) return []
  return product.configurable_options.flatMap((attr) => {
    const id = Number((child as Record<string, unknown>)[attr.attribute_code])
    const value = attr.values.find((v) => v.value_index === id)
    return value ? [{ label: attr.label, value: value.label }] : []
  })
}

/**
 * Everything the shopper configured on a line, as the catalogue names it: configurable choices,
 * custom options with their chosen values (or text), bundle selections with their quantities and
 * the pieces of a grouped product. Shown on the cart line, review, confirmation, order page, e-mail.
 */
function lineOptions(product: Product, config: LineConfig): { label: string; value: string }[] {
  const out = childOptions(product, config.child)
  const custom = config.customOptions ?? {}
  for (const option of product.custom_options ?? []) {
    const chosen = custom[option.option_id]
    if (chosen == null || chosen === '' || (Array.isArray(chosen) && chosen.length === 0)) continue
    if (option.type === 'field') {
      out.push({ label: option.title, value: String(chosen) })
      continue
    }
    const ids = (Array.isArray(chosen) ? chosen : [chosen]).map(Number)
    const titles = (option.values ?? []).filter((v) => ids.includes(v.option_type_id)).map((v) => v.title)
    if (titles.length) out.push({ label: option.title, value: titles.join(', ') })
  }
  if (product.type_id === 'bundle') {
    const chosen = config.bundleSelection ?? {}
    for (const option of product.bundle_options ?? []) {
      const pick = chosen[option.option_id]
      const link = pick?.linkId != null ? option.product_links.find((l) => l.id === pick.linkId) : undefined
      if (!pick || !link || !(pick.qty > 0)) continue
      out.push({ label: option.title, value: `${pick.qty} × ${link.product?.name ?? link.sku}` })
    }
  }
  if (product.type_id === 'grouped') {
    for (const link of product.product_links ?? []) {
      if (link.link_type !== 'associated' || !link.product) continue
      out.push({ label: 'Includes', value: `1 × ${link.product.name}` })
    }
  }
  return out
}

interface PricingContext {
  now: number
  /** The shopper's country (shipping address, else the browsing country). */
  country: string | null
  /** The currency the lines are charged in. */
  currency: string
}

/**
 * Prices one configured line with the shared price view from the catalogue document: the
 * product's (or chosen child's) price, the catalogue prices of the chosen custom option values and
 * bundle links, the product's GST rate, and the tax of `ctx.country`. Nothing a client sent about
 * money is an input.
 */
export function priceLine(
  product: Product,
  config: LineConfig,
  item: { item_id: number; qty: number },
  taxRules: TaxRule[],
  ctx: PricingContext,
): PricedLine {
  const child = config.child
  const view = priceView(product, {
    now: ctx.now,
    currency: ctx.currency,
    taxRules,
    country: ctx.country,
    variantSku: child?.sku ?? null,
    customOptions: config.customOptions,
    bundleSelection: config.bundleSelection,
  })
  return {
    item_id: item.item_id,
    sku: config.sku,
    name: child?.name ?? product.name,
    qty: item.qty,
    product_type: product.type_id,
    product_option: config.option ?? undefined,
    unitMinor: view.unitMinor,
    pieces: linePieces(view),
    options: lineOptions(product, config),
  }
}

/**
 * The grouped set a piece was chosen on, when `set` is one: a listed grouped product of which the
 * piece is an associated product (null otherwise, so a line never links to a set it is not in).
 */
export function setOfPiece(set: Product | undefined, pieceSku: string): Product | null {
  if (set?.type_id !== 'grouped' || set.visibility === 1 || set.status === 2) return null
  const links = set.product_links ?? []
  return links.some(
    (l) => (!l.link_type || l.link_type === 'associated') && l.linked_product_sku === pieceSku,
  )
    ? set
    : null
}

/**
 * A line's picture and page as the product page adds them: the variant's picture, else the
 * product's, and the product's page with the variant named; a piece chosen on its grouped set's
 * page links to the set's page. So a line rebuilt from the server (a bag opened on another device,
 * a merge at sign-in) looks like one added on this device. A product not shown on its own
 * (visibility 1) and chosen on no set has no page to link to.
 */
function lineLook(product: Product, child: ConfigurableChild | undefined, set: Product | null) {
  const page = set
    ? productPath(set.sku, set.slug)
    : product.visibility === 1
      ? null
      : productPath(product.sku, product.slug, child?.sku)
  return {
    image: usableImage(child?.image) ?? usableImage(product.image) ?? usableImage(product.thumbnail),
    ...(page ? { url_path: page } : {}),
  }
}

/**
 * Prices every cart line from the live catalogue: the stored item options are checked again
 * against the product (configureLine) and priced by priceLine. A line whose product is gone, or
 * whose options no longer fit it, is returned in `missing` and not priced.
 */
export async function priceItems(db: D1Database, items: CartItemRow[], ctx: PricingContext) {
  const [bySku, taxRules] = await Promise.all([
    // A piece's grouped set (its stored parent) is read in the same round trip, for its page.
    getProductsBySku(db, [...items.map((i) => i.sku), ...items.flatMap((i) => i.parent_sku ?? [])]),
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
    let config: LineConfig
    try {
      config = configureLine(found.product, found.child, parseStoredOption(item.product_option))
    } catch (err) {
      if (!(err instanceof LineProblem)) throw err
      missing.push(item)
      continue
    }
    const set =
      item.parent_sku && !config.child ? setOfPiece(bySku.get(item.parent_sku)?.product, item.sku) : null
    lines.push({
      ...priceLine(found.product, config, item, taxRules, ctx),
      ...lineLook(found.product, config.child, set),
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
    // The charged unit price (tax of the shopper's country included), in the cart's currency.
    price: line ? line.unitMinor / 100 : 0,
    ...(line
      ? { extension_attributes: { options: line.options, image: line.image, url_path: line.url_path } }
      : {}),
    product_type: line?.product_type ?? 'simple',
    quote_id: cartKey,
    ...(line?.product_option
      ? { product_option: line.product_option }
      : item.product_option
        ? { product_option: parseStoredOption(item.product_option) }
        : {}),
  }
}

/** The shipping address saved on a cart, if any. */
function cartAddress(cart: CartRow): { country_id?: string; postcode?: string } | null {
  return cart.shipping_address ? (JSON.parse(cart.shipping_address) as { country_id?: string }) : null
}

/** The tax country of a cart: its shipping address, else the store's country. */
export function cartCountry(cart: CartRow, fallback: string | null | undefined): string | null {
  return cartAddress(cart)?.country_id || fallback || null
}

/** The currency a cart is shown, priced and charged in: the shopper's display currency. */
export function cartCurrency(c: Context<AppEnv>): string {
  return c.var.store?.currency ?? c.var.config.DEFAULT_CURRENCY ?? baseCurrency()
}

/**
 * Totals of a cart in the shopper's display currency (400 saying the tax country is missing when
 * none is known). Every payment method offered charges in that currency, so these totals are what
 * the review states ("You will be charged X") and what the order and the provider are asked for.
 */
export async function cartTotals(c: Context<AppEnv>, cart: CartRow, now = Date.now()) {
  const country = cartCountry(cart, c.var.store?.country ?? c.var.config.DEFAULT_COUNTRY)
  const currency = cartCurrency(c)
  const items = await listItems(c.env.DB, cart.id)
  const coupon = await findCoupon(c.env.DB, cart.coupon_code)
  const { lines, bySku } = await priceItems(c.env.DB, items, { now, country, currency })
  const found = [...bySku.values()]
  const listed = await listedMadeToOrder(
    c.env.DB,
    found.flatMap((f) => [f.product.sku, f.child?.sku ?? f.product.sku]),
  )
  try {
    const totals = computeTotals({
      lines,
      coupon,
      shipping: {
        ships: !shipsNothing(lines.map((l) => l.product_type)),
        postcode: cartAddress(cart)?.postcode ?? null,
      },
      paymentMethod: cart.payment_method ?? null,
      currency,
      country,
      now,
    })
    // A piece made to order says when it ships, counted from today: 'Made to order — ships by …'.
    for (const item of totals.items) {
      const piece = bySku.get(item.sku)
      const date = piece ? pieceShipsBy(piece.product, piece.child, listed, now) : null
      if (date) Object.assign(item.extension_attributes, { made_to_order: madeToOrderNote(date) })
    }
    return totals
  } catch (err) {
    if (err instanceof TotalsError) fail(400, err.message)
    throw err
  }
}
