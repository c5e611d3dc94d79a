/**
 * Connecting a server cart and reconciling with it. Connect creates the server cart (a guest
 * cart without the user token), stores its id and syncs; sync pulls the server lines, diffs them
 * with the client's and applies the result. A failed pull or connect falls back to a guest cart,
 * at most GUEST_CART_FALLBACK_ATTEMPTS times in a row. Both run on the serial chain, so a sync
 * can never interleave with the login merge (VSF #5743).
 */
import {
  type CartSyncAction,
  type DiffOptions,
  type DiffServerItem,
  diffCart,
} from '@shared/domain/cart-diff'
import { cartHash, isSyncRequired } from '@shared/domain/cart-hash'
import {
  cartItems,
  cartLastSyncAt,
  cartLastTotalsSyncAt,
  cartServerToken,
  cartSyncedHash,
  cartSyncing,
} from '../../state/cart'
import { GUEST_CART_FALLBACK_ATTEMPTS } from '../runtime/config'
import { EVENTS } from '../runtime/events'
import type { TaskResult } from '../runtime/task'
import { applyActions } from './apply-diff'
import { CART_KEYS, type CartContext, cartTask } from './context'
import { persistLines, stripServerIds } from './lines'
import { afterChange } from './push'
import { syncTotalsNow, totalsCoverLines } from './totals'

type SyncOptions = DiffOptions & { force?: boolean }
type ConnectOptions = { guest?: boolean; mergeStrategy?: 'max'; forceClientState?: boolean }

/** Adopts a server cart id; a different cart starts without the old cart's server ids. */
async function setToken(ctx: CartContext, token: string | null): Promise<void> {
  if (token !== cartServerToken.value) {
    ctx.state.serverIds.clear()
    cartItems.value = stripServerIds(cartItems.value)
    cartSyncedHash.value = null
    cartLastSyncAt.value = null
  }
  cartServerToken.value = token
  await ctx.storage.setItem(CART_KEYS.token, token)
  await persistLines(ctx)
}

/** GET /cart/pull; null when the server cart cannot be read. */
async function pull(ctx: CartContext): Promise<DiffServerItem[] | null> {
  try {
    const res = await ctx.queue.execute({ ...cartTask(ctx, 'pull'), silent: true })
    if (res.code === 200 && Array.isArray(res.result)) return res.result as DiffServerItem[]
    return null
  } catch (err) {
    console.warn('[cart] pull failed', err)
    return null
  }
}

/** True when the cart must be pulled: forced, a merge, or the lines changed since the last sync. */
export function syncRequired(
  opts: SyncOptions,
  currentHash: string,
  storedHash: string | null,
  lastSyncAt: number | null,
): boolean {
  return (
    !!opts.force ||
    !!opts.forceClientState ||
    opts.mergeStrategy === 'max' ||
    isSyncRequired({ currentHash, storedHash, lastSyncAt })
  )
}

/** Falls back to a guest cart, unless the fallbacks are used up. */
async function fallBackToGuest(ctx: CartContext): Promise<void> {
  if (ctx.state.guestFallbacks >= GUEST_CART_FALLBACK_ATTEMPTS) return
  ctx.state.guestFallbacks++
  await connectNow(ctx, { guest: true })
}

/** Pull, diff, reconcile, totals. Runs on the chain. */
export async function syncNow(ctx: CartContext, opts: SyncOptions = {}): Promise<CartSyncAction[] | null> {
  const cartId = cartServerToken.value
  if (!cartId || !ctx.settings().cartServerSync) return null
  if (!syncRequired(opts, cartHash(cartItems.value, cartId), cartSyncedHash.value, cartLastSyncAt.value)) {
    // The lines are the server's, but the totals held may be older than them: a page left while
    // the totals of its last change were being read stored that change as synced and kept the
    // totals of before it. Totals without a row for every server line are read again.
    if (!totalsCoverLines(ctx)) await syncTotalsNow(ctx)
    return []
  }
  cartSyncing.value = true
  try {
    const server = await pull(ctx)
    if (server === null) {
      if (ctx.isOnline()) await fallBackToGuest(ctx)
      return null
    }
    const actions = diffCart(cartItems.value, server, {
      forceClientState: opts.forceClientState,
      mergeStrategy: opts.mergeStrategy,
    })
    await applyActions(ctx, actions)
    // Totals read before the lines were linked to their server items (or in the currency the
    // shopper just left) are read again.
    ctx.state.totalsDirty =
      ctx.state.totalsDirty ||
      actions.some((a) => a.type !== 'link') ||
      !cartLastTotalsSyncAt.value ||
      !totalsCoverLines(ctx)
    await afterChange(ctx)
    ctx.bus.emit(EVENTS.cartAfterDiff, { actions })
    return actions
  } finally {
    cartSyncing.value = false
  }
}

/** POST /cart/create (guest: without the user token); stores the cart id and syncs. Runs on the chain. */
export async function connectNow(ctx: CartContext, opts: ConnectOptions = {}): Promise<void> {
  if (!ctx.settings().cartServerSync) return
  const guest = opts.guest || !ctx.isLoggedIn()
  let res: TaskResult
  try {
    res = await ctx.queue.execute({
      url: '/api/cart/create',
      auth: !guest,
      payload: { method: 'POST' },
      silent: true,
    })
  } catch (err) {
    console.warn('[cart] connect failed (offline?)', err)
    return
  }
  if (res.code === 200 && res.result != null && typeof res.result !== 'object') {
    ctx.state.guest = guest
    await ctx.storage.setItem(CART_KEYS.guest, guest)
    await setToken(ctx, String(res.result))
    await syncNow(ctx, {
      mergeStrategy: opts.mergeStrategy,
      forceClientState: opts.forceClientState,
      force: true,
    })
    ctx.state.guestFallbacks = 0
    return
  }
  // Not authorised (and any other failure): a guest cart instead.
  await fallBackToGuest(ctx)
}

/** Syncs a connected cart, or connects one. Runs on the chain. */
export async function syncOrConnect(
  ctx: CartContext,
  opts: { forceClientState?: boolean } = {},
): Promise<void> {
  if (cartServerToken.value) await syncNow(ctx, opts)
  else await connectNow(ctx, opts)
}
