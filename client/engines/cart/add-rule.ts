/**
 * The add-to-cart rule: a positive quantity; a known price (above 0, or at least 0 when the shop
 * allows zero-price products); no product errors (each shown, except the suppressed "not
 * available" kind); not out of stock. An added product accumulates by sku; the stock answer is
 * applied after its delay; the line is then synced (or the cart connected).
 */
import { toQty } from '@shared/domain/cart-diff'
import { lineUnitPrice } from '@shared/domain/cart-line'
import { isSuppressedErrorMessage, MSG } from '@shared/i18n/messages'
import type { CartLine } from '@shared/schemas/cart'
import { cartItems, cartServerToken } from '../../state/cart'
import type { ClientSettings } from '../runtime/config'
import { syncOrConnect } from './connect'
import { type CartContext, type StockStatus, serial } from './context'
import { findLine, patchLine, setLines } from './lines'
import { scheduleSkuSync } from './push'
import { applyStockResult } from './stock'

/** A product (or chosen variant) being added: a cart line without its quantity, with the product's errors. */
export interface AddableProduct extends Omit<Partial<CartLine>, 'errors'> {
  sku: string
  name: string
  /** The product page's messages that forbid adding (e.g. a required option not chosen), by cause. */
  errors?: Record<string, string | null | undefined>
}

export type AddResult =
  | { ok: true; stock: StockStatus }
  | { ok: false; reason: 'price' | 'errors' | 'out_of_stock' | 'qty' }

/** Why a product cannot be added before its stock is known (null: it may be), and the messages to show. */
export function addRefusal(
  product: AddableProduct,
  qty: number,
  settings: Pick<ClientSettings, 'allowZeroPrice'>,
): { reason: 'qty' | 'price' | 'errors'; messages: string[] } | null {
  if (qty <= 0) return { reason: 'qty', messages: [] }
  const price = lineUnitPrice(product)
  if (settings.allowZeroPrice ? price < 0 : price <= 0)
    return { reason: 'price', messages: [MSG.priceUnknown] }
  const errors = Object.values(product.errors ?? {}).filter((e): e is string => typeof e === 'string' && !!e)
  if (errors.length) return { reason: 'errors', messages: errors.filter((e) => !isSuppressedErrorMessage(e)) }
  return null
}

/** The cart with `qty` more of the product: an existing line grows, a new line is appended. */
function putInCart(ctx: CartContext, product: AddableProduct, qty: number): void {
  const existing = findLine(product.sku)
  if (existing) {
    patchLine(ctx, product.sku, { qty: existing.qty + qty, prev_qty: existing.qty })
    return
  }
  const { errors: _e, ...line } = product
  setLines(ctx, [...cartItems.value, { ...line, qty, prev_qty: 0, server_item_id: null }])
}

/** Adds a product after the add rule allowed it; the stored cart must have been read. */
export async function addProduct(
  ctx: CartContext,
  product: AddableProduct,
  qtyInput: unknown,
): Promise<AddResult> {
  const qty = toQty(qtyInput)
  const refusal = addRefusal(product, qty, ctx.settings())
  if (refusal) {
    for (const message of refusal.messages) ctx.notify({ type: 'error', message, action1: { label: MSG.ok } })
    return { ok: false, reason: refusal.reason }
  }
  const stock = await ctx.checkStock(product.sku)
  if (stock.status === 'out_of_stock') {
    ctx.notify({ type: 'error', message: MSG.outOfStockCannotAdd, action1: { label: MSG.ok } })
    return { ok: false, reason: 'out_of_stock' }
  }
  putInCart(ctx, product, qty)
  if (stock.status === 'volatile') ctx.notify({ type: 'warning', message: MSG.stockVolatile })
  ctx.notify({
    type: 'success',
    message: MSG.productAddedToCart,
    action1: { label: MSG.ok },
    action2: { label: MSG.proceedToCheckout, href: '/checkout' },
  })
  void applyStockResult(ctx, product.sku, stock)
  if (cartServerToken.value) void scheduleSkuSync(ctx, product.sku)
  else if (ctx.isOnline()) void serial(ctx, () => syncOrConnect(ctx))
  return { ok: true, stock: stock.status }
}
