/**
 * Totals and the checkout calls of a connected cart: totals are read after every server change (a
 * failure is logged only, and the read is tried again a few times), coupons need totals sync and
 * a connected cart, and the shipping address sent at checkout brings the totals for that address
 * back.
 */
import type { CartLine } from '@shared/schemas/cart'
import {
  type CartTotals,
  cartItems,
  cartLastTotalsSyncAt,
  cartPromoMessage,
  cartServerToken,
  cartTotals,
} from '../../state/cart'
import { CART_KEYS, type CartContext, cartTask, serial } from './context'

/** The lines with each one's share of the server totals attached (matched by server item id). */
export function withLineTotals(
  lines: CartLine[],
  totalsItems: readonly Record<string, unknown>[],
): CartLine[] {
  const byId = new Map(totalsItems.map((t) => [String(t.item_id), t]))
  if (!byId.size) return lines
  return lines.map((l) =>
    l.server_item_id != null && byId.has(String(l.server_item_id))
      ? { ...l, totals: byId.get(String(l.server_item_id)) }
      : l,
  )
}

/**
 * The waits before each new try of a totals read that failed (no answer, or a 5xx or 429): until
 * one succeeds the cart shows its own prices, converted, instead of the server's.
 */
const TOTALS_RETRY_MS = [1_000, 3_000, 9_000] as const

/** Reads the totals again after TOTALS_RETRY_MS[attempt], unless the tries are used up. */
function retryTotals(ctx: CartContext, attempt: number): void {
  const wait = TOTALS_RETRY_MS[attempt]
  if (wait === undefined) return
  ctx.clock.setTimeout(() => void serial(ctx, () => syncTotalsNow(ctx, attempt + 1)), wait)
}

/** True when `totals` are priced in a currency other than the one the page shows. */
export function inOtherCurrency(ctx: CartContext, totals: CartTotals): boolean {
  const code = totals.quote_currency_code
  const shown = ctx.displayCurrency()
  return typeof code === 'string' && !!shown && code !== shown
}

/**
 * True when the totals held are in the page's currency and hold a row for every line the server
 * cart has, each for the line's quantity (the server prices one row per line, at its quantity):
 * else they are the totals of before a change, and worth reading again.
 */
export function totalsCoverLines(ctx: CartContext): boolean {
  const totals = cartTotals.value
  if (!totals || inOtherCurrency(ctx, totals)) return false
  const rows = new Map((totals.items ?? []).map((t) => [String(t.item_id), t]))
  return cartItems.value.every((l) => {
    if (l.server_item_id == null) return true
    const row = rows.get(String(l.server_item_id))
    return row !== undefined && (typeof row.qty !== 'number' || row.qty === l.qty)
  })
}

/** GET totals (when connected and totals sync is on); stores and announces them. */
export async function syncTotalsNow(ctx: CartContext, attempt = 0): Promise<void> {
  if (!cartServerToken.value || !ctx.settings().cartTotalsSync) return
  try {
    const res = await ctx.queue.execute({ ...cartTask(ctx, 'totals'), silent: true })
    if (res.code >= 500 || res.code === 429) retryTotals(ctx, attempt)
    if (res.code !== 200 || !res.result || typeof res.result !== 'object') return
    const totals = res.result as CartTotals & { promo_message?: string }
    cartTotals.value = {
      ...totals,
      total_segments: Array.isArray(totals.total_segments) ? totals.total_segments : [],
    }
    cartPromoMessage.value = typeof totals.promo_message === 'string' ? totals.promo_message : null
    cartLastTotalsSyncAt.value = ctx.clock.now()
    const lines = withLineTotals(cartItems.value, totals.items ?? [])
    if (lines !== cartItems.value) cartItems.value = lines
    await ctx.storage.setItem(CART_KEYS.totals, cartTotals.value)
    ctx.announce()
  } catch (err) {
    console.warn('[cart] totals sync failed', err) // A failed totals read is logged only.
    retryTotals(ctx, attempt)
  }
}

function couponsAllowed(ctx: CartContext): boolean {
  return ctx.settings().cartTotalsSync && !!cartServerToken.value
}

/** POST apply-coupon, then totals; true when the server took the code. */
export async function applyCoupon(ctx: CartContext, code: string): Promise<boolean> {
  if (!couponsAllowed(ctx) || !code.trim()) return false
  return serial(ctx, async () => {
    try {
      const res = await ctx.queue.execute({
        ...cartTask(ctx, 'apply-coupon', `&coupon=${encodeURIComponent(code.trim())}`),
        payload: { method: 'POST' },
      })
      await syncTotalsNow(ctx)
      return res.code === 200 && res.result !== false
    } catch {
      return false
    }
  })
}

/** POST delete-coupon, then totals. */
export async function removeCoupon(ctx: CartContext): Promise<boolean> {
  if (!couponsAllowed(ctx)) return false
  return serial(ctx, async () => {
    try {
      const res = await ctx.queue.execute({ ...cartTask(ctx, 'delete-coupon'), payload: { method: 'POST' } })
      await syncTotalsNow(ctx)
      return res.code === 200
    } catch {
      return false
    }
  })
}

function listResult(res: { code: number; result: unknown } | null): Record<string, unknown>[] {
  return res?.code === 200 && Array.isArray(res.result) ? (res.result as Record<string, unknown>[]) : []
}

/** GET payment-methods for the connected cart (empty when not connected). */
export async function paymentMethods(ctx: CartContext): Promise<Record<string, unknown>[]> {
  if (!cartServerToken.value) return []
  return listResult(
    await ctx.queue.execute({ ...cartTask(ctx, 'payment-methods'), silent: true }).catch(() => null),
  )
}

/** POST shipping-methods {address} for the connected cart. */
export async function shippingMethods(
  ctx: CartContext,
  address: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  if (!cartServerToken.value) return []
  const res = await ctx.queue
    .execute({
      ...cartTask(ctx, 'shipping-methods'),
      payload: { method: 'POST', body: { address } },
      silent: true,
    })
    .catch(() => null)
  return listResult(res)
}

/** POST shipping-information {addressInformation}; takes the totals from the answer. */
export async function shippingInformation(
  ctx: CartContext,
  addressInformation: Record<string, unknown>,
): Promise<boolean> {
  if (!cartServerToken.value) return false
  return serial(ctx, async () => {
    const res = await ctx.queue
      .execute({
        ...cartTask(ctx, 'shipping-information'),
        payload: { method: 'POST', body: { addressInformation } },
      })
      .catch(() => null)
    if (res?.code !== 200 || !res.result || typeof res.result !== 'object') return false
    const r = res.result as { totals?: CartTotals }
    const totals = (r.totals ?? r) as CartTotals
    if (Array.isArray(totals.total_segments)) {
      cartTotals.value = totals
      cartLastTotalsSyncAt.value = ctx.clock.now()
      // The lines take their share of the re-priced totals too, so they add up to the subtotal.
      const lines = withLineTotals(cartItems.value, totals.items ?? [])
      if (lines !== cartItems.value) cartItems.value = lines
    }
    return true
  })
}
