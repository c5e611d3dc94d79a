/**
 * The cart shared by the shop's tabs: after a change is stored, one snapshot per tick goes to the
 * other tabs; a tab takes over another's snapshot unless it has server calls of its own in flight
 * (its next sync reconciles with the server cart anyway) or has not read its stored cart yet.
 */
import type { CartLine } from '@shared/schemas/cart'
import {
  type CartTotals,
  cartItems,
  cartLoaded,
  cartServerToken,
  cartSyncedHash,
  cartTotals,
} from '../../state/cart'
import type { CartContext } from './context'
import { rememberServerIds } from './lines'

/** What a tab announces after its cart changed (already persisted to the shared storage). */
export interface CartSnapshot {
  type: 'cart'
  items: CartLine[]
  token: string | null
  totals: CartTotals | null
  hash: string | null
  guest: boolean
}

/** A cart state read from another tab or from the storage; fields of the wrong type count as absent. */
interface CartStateInput {
  items: CartLine[]
  token?: unknown
  hash?: unknown
  totals?: unknown
  guest?: unknown
}

/**
 * Schedules one snapshot of the current cart for the other tabs (at most one per tick). Steps
 * reach it as `ctx.announce()`.
 */
export function announce(ctx: CartContext): void {
  if (!ctx.channel || ctx.state.announcing) return
  ctx.state.announcing = true
  queueMicrotask(() => {
    ctx.state.announcing = false
    const snapshot: CartSnapshot = {
      type: 'cart',
      items: cartItems.value,
      token: cartServerToken.value,
      totals: cartTotals.value,
      hash: cartSyncedHash.value,
      guest: ctx.state.guest,
    }
    try {
      ctx.channel?.postMessage(snapshot)
    } catch (err) {
      console.warn('[cart] could not announce the change to other tabs', err)
    }
  })
}

/** Takes over a cart state another tab (or the shared storage) holds, without storing or announcing it. */
export function adopt(ctx: CartContext, state: CartStateInput): void {
  ctx.state.serverIds.clear()
  rememberServerIds(ctx, state.items)
  ctx.state.guest = state.guest === true
  cartServerToken.value = typeof state.token === 'string' ? state.token : null
  cartSyncedHash.value = typeof state.hash === 'string' ? state.hash : null
  cartTotals.value = state.totals && typeof state.totals === 'object' ? (state.totals as CartTotals) : null
  cartItems.value = state.items
}

/** The cart state in a channel message, or null when the message is not a cart snapshot. */
export function readSnapshot(data: unknown): CartStateInput | null {
  const m = data as Partial<CartSnapshot> | null
  if (m?.type !== 'cart' || !Array.isArray(m.items)) return null
  return { ...m, items: m.items }
}

/** True while this tab may take over another's cart (restored, nothing of its own in flight). */
export function mayAdopt(ctx: CartContext): boolean {
  return ctx.state.pendingSkus.size === 0 && cartLoaded.peek()
}

/** Follows the other tabs' announcements. */
export function listenToOtherTabs(ctx: CartContext): void {
  ctx.channel?.addEventListener('message', (event) => {
    const state = readSnapshot(event.data)
    if (state && mayAdopt(ctx)) adopt(ctx, state)
  })
}
