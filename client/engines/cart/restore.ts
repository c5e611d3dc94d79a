/**
 * The stored cart: reading it at start (lines a fast click added before it arrived are kept),
 * reading it again after a back/forward restore (the stored state wins), and clearing it.
 */
import type { CartLine } from '@shared/schemas/cart'
import {
  type CartTotals,
  cartItems,
  cartLastSyncAt,
  cartLastTotalsSyncAt,
  cartLoaded,
  cartPromoMessage,
  cartServerToken,
  cartSyncedHash,
  cartTotals,
} from '../../state/cart'
import { adopt, mayAdopt } from './channel'
import { CART_KEYS, type CartContext } from './context'
import { rememberServerIds } from './lines'
import { inOtherCurrency, withLineTotals } from './totals'

/** The stored lines followed by those added before they were read (by sku). */
export function mergeRestored(stored: readonly CartLine[], early: readonly CartLine[]): CartLine[] {
  return [...stored, ...early.filter((l) => !stored.some((s) => s.sku === l.sku))]
}

function storedLines(items: unknown): CartLine[] {
  return Array.isArray(items) ? (items as CartLine[]) : []
}

async function restoreNow(ctx: CartContext): Promise<void> {
  if (cartLoaded.value) return
  const [items, token, hash, lastSync, totals, guest] = await Promise.all([
    ctx.storage.getItem(CART_KEYS.items),
    ctx.storage.getItem(CART_KEYS.token),
    ctx.storage.getItem(CART_KEYS.hash),
    ctx.storage.getItem(CART_KEYS.lastSync),
    ctx.storage.getItem(CART_KEYS.totals),
    ctx.storage.getItem(CART_KEYS.guest),
  ])
  ctx.state.guest = guest === true
  cartItems.value = mergeRestored(storedLines(items), cartItems.value)
  cartServerToken.value = typeof token === 'string' ? token : null
  cartSyncedHash.value = typeof hash === 'string' ? hash : null
  cartLastSyncAt.value = typeof lastSync === 'number' ? lastSync : null
  if (totals && typeof totals === 'object') {
    // Totals priced in another currency (the shopper switched it) are dropped, and the cart is
    // synced again on load: every line and total is re-priced in the new currency at once.
    if (inOtherCurrency(ctx, totals as CartTotals)) cartSyncedHash.value = null
    else {
      cartTotals.value = totals as CartTotals
      // The lines take their rows of the stored totals back (the options the server names, the
      // row totals), as a totals read gives them: a page that reads no totals shows them too.
      cartItems.value = withLineTotals(cartItems.value, (totals as CartTotals).items ?? [])
    }
  }
  rememberServerIds(ctx, cartItems.value)
  cartLoaded.value = true
}

/** Reads the stored cart once (idempotent; concurrent callers share the read). */
export function restore(ctx: CartContext): Promise<void> {
  if (cartLoaded.value) return Promise.resolve()
  if (!ctx.state.restoring) {
    ctx.state.restoring = restoreNow(ctx).finally(() => {
      ctx.state.restoring = null
    })
  }
  return ctx.state.restoring
}

/** Takes over the stored cart again; skipped while this tab has server calls in flight or has not restored. */
export async function reloadStored(ctx: CartContext): Promise<void> {
  if (!mayAdopt(ctx)) return
  const [items, token, hash, totals, guest] = await Promise.all([
    ctx.storage.getItem(CART_KEYS.items),
    ctx.storage.getItem(CART_KEYS.token),
    ctx.storage.getItem(CART_KEYS.hash),
    ctx.storage.getItem(CART_KEYS.totals),
    ctx.storage.getItem(CART_KEYS.guest),
  ])
  if (ctx.state.pendingSkus.size > 0) return
  adopt(ctx, { items: storedLines(items), token, hash, totals, guest })
}

/** Forgets the lines, the server cart and the totals, here and in the storage. */
export async function clearLocal(ctx: CartContext): Promise<void> {
  ctx.state.serverIds.clear()
  ctx.state.pendingSkus.clear()
  cartItems.value = []
  cartTotals.value = null
  cartPromoMessage.value = null
  cartServerToken.value = null
  cartSyncedHash.value = null
  cartLastSyncAt.value = null
  cartLastTotalsSyncAt.value = null
  ctx.state.guest = false
  await Promise.all([
    ctx.storage.removeItem(CART_KEYS.guest),
    ctx.storage.setItem(CART_KEYS.items, []),
    ctx.storage.removeItem(CART_KEYS.token),
    ctx.storage.removeItem(CART_KEYS.hash),
    ctx.storage.removeItem(CART_KEYS.lastSync),
    ctx.storage.removeItem(CART_KEYS.totals),
  ])
  ctx.announce()
}
