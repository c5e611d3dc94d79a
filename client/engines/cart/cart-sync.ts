/**
 * The cart engine: local first (add, change and remove update the cart store and the stored cart
 * at once), then the server cart, one call at a time on a serial chain. Its steps live in their
 * own modules and share one context (./context.ts):
 * - lines.ts: the lines in the store; channel.ts: the other tabs;
 * - restore.ts: the stored cart; add-rule.ts: what may be added;
 * - push.ts: one line to the server (coalesced per sku); connect.ts: connect, pull, diff, merge;
 *   apply-diff.ts: the diff's actions; totals.ts: totals, coupons, checkout calls; stock.ts.
 * The login merge takes max(guest, customer) per sku (shared/domain/cart-diff.ts), and the
 * server never removes a shopper's fresh additions (VSF #4305).
 */
import type { CartSyncAction } from '@shared/domain/cart-diff'
import { shouldConnectAuthorizedCart, toQty } from '@shared/domain/cart-diff'
import { MSG } from '@shared/i18n/messages'
import { cartItems, cartServerToken } from '../../state/cart'
import { AUTHORIZED_CART_BYPASS_MS, CART_ID_WAIT_MS } from '../runtime/config'
import { type AddableProduct, type AddResult, addProduct } from './add-rule'
import { announce, listenToOtherTabs } from './channel'
import { connectNow, syncNow } from './connect'
import { CART_KEYS, type CartContext, type CartSyncDeps, createCartContext, serial } from './context'
import { findLine, patchLine, removeLine } from './lines'
import { scheduleSkuSync } from './push'
import { clearLocal, reloadStored, restore } from './restore'
import { checkStockOnServer, recheckUnknownStock } from './stock'
import * as totals from './totals'

/** Restoring, connecting and syncing the cart as a whole. */
function lifecycleCalls(ctx: CartContext) {
  /** Forgets the cart, then connects a fresh one when online (guest when asked). */
  const recreate = (guest: boolean) =>
    serial(ctx, async () => {
      await clearLocal(ctx)
      ctx.state.guestFallbacks = 0
      if (ctx.isOnline()) await connectNow(ctx, guest ? { guest: true } : {})
    })
  return {
    /** Reads the stored cart from IndexedDB (idempotent); mutations wait for it. */
    restore: (): Promise<void> => restore(ctx),

    /** Restores the cart from IndexedDB, then connects/syncs with the server. */
    async load(opts: { forceClientState?: boolean } = {}): Promise<void> {
      await restore(ctx)
      if (!ctx.isOnline()) return
      await serial(ctx, async () => {
        const force = { forceClientState: opts.forceClientState }
        if (cartServerToken.value) await syncNow(ctx, force)
        else if (cartItems.value.length) await connectNow(ctx, force)
      })
    },

    /** Connects a server cart now (guest when not logged in). */
    connect: (opts: { guest?: boolean } = {}): Promise<void> => serial(ctx, () => connectNow(ctx, opts)),

    /** Pulls and reconciles; `forceClientState` deletes server-only lines. */
    sync: (opts: { forceClientState?: boolean; force?: boolean } = {}): Promise<CartSyncAction[] | null> =>
      serial(ctx, () => syncNow(ctx, opts)),

    /** After login: connect the customer cart and merge the guest lines into it (max per sku). */
    authorize(): Promise<void> {
      return serial(ctx, async () => {
        const s = ctx.settings()
        const lastBypassAt = await ctx.storage.getItem(CART_KEYS.bypassAt)
        const connect = shouldConnectAuthorizedCart({
          bypassEnabled: s.bypassCartLoaderForAuthorizedUsers,
          directBackendSync: s.directBackendSync,
          lastBypassAt: typeof lastBypassAt === 'number' ? lastBypassAt : null,
          now: ctx.clock.now(),
          windowMs: AUTHORIZED_CART_BYPASS_MS,
        })
        if (!connect) return
        ctx.state.guestFallbacks = 0
        await connectNow(ctx, { mergeStrategy: 'max' })
        await ctx.storage.setItem(CART_KEYS.bypassAt, ctx.clock.now())
      })
    },

    /** Logout: forget the server cart and the lines, then start a fresh guest cart. */
    disconnectAndRecreate: (): Promise<void> => recreate(true),

    /** After a successful order the cart is cleared, then recreated and synced. */
    clearAfterOrder: (): Promise<void> => recreate(false),

    /** Resolves with the cart id once there is one, or null after `timeoutMs`. */
    waitForCartId(timeoutMs = CART_ID_WAIT_MS): Promise<string | null> {
      if (cartServerToken.value) return Promise.resolve(cartServerToken.value)
      return new Promise((resolve) => {
        let done = false
        const finish = (v: string | null) => {
          if (done) return
          done = true
          unsubscribe()
          ctx.clock.clearTimeout(timer)
          resolve(v)
        }
        const unsubscribe = cartServerToken.subscribe((v) => {
          if (v) finish(v)
        })
        const timer = ctx.clock.setTimeout(() => finish(null), timeoutMs)
      })
    },

    /**
     * Reads the stored cart again, the stored state winning (a page restored from the back/forward
     * cache missed the other tabs' changes while frozen). Skipped while this tab has server calls
     * in flight or has not restored yet.
     */
    reloadStored: (): Promise<void> => reloadStored(ctx),

    /** Waits until every queued server call has finished (tests, before placing an order). */
    idle: (): Promise<void> => ctx.state.chain.then(() => {}),
  }
}

/** Changing the lines. Each waits for the stored cart first, so it never writes over it unread. */
function lineCalls(ctx: CartContext) {
  return {
    /** Adds a product (qty accumulates by sku) under the add rule (./add-rule.ts). */
    async addItem(product: AddableProduct, qtyInput: unknown = 1): Promise<AddResult> {
      await restore(ctx)
      return addProduct(ctx, product, qtyInput)
    },

    /** Sets a line's quantity ('Product quantity has been updated!'). */
    async updateQuantity(sku: string, qtyInput: unknown): Promise<boolean> {
      await restore(ctx)
      const qty = toQty(qtyInput)
      const line = findLine(sku)
      if (!line || qty <= 0) return false
      if (qty === line.qty) return true
      patchLine(ctx, sku, { qty, prev_qty: line.qty })
      ctx.notify({ type: 'success', message: MSG.productQuantityUpdated })
      void scheduleSkuSync(ctx, sku)
      return true
    },

    /** Removes a line (the UI asks first); deletes it on the server when it exists there. */
    async removeItem(sku: string): Promise<void> {
      await restore(ctx)
      const line = findLine(sku)
      if (!line) return
      if (line.server_item_id != null) ctx.state.serverIds.set(sku, line.server_item_id)
      removeLine(ctx, sku)
      await scheduleSkuSync(ctx, sku)
    },

    /** Re-checks the lines whose stock is not known (after coming back online). */
    async recheckVolatileStock(): Promise<void> {
      recheckUnknownStock(ctx, cartItems.value)
    },
  }
}

/** Totals, coupons and the checkout's calls of a connected cart. */
function checkoutCalls(ctx: CartContext) {
  return {
    /** GET totals now (after shipping/payment changes). */
    syncTotals: (): Promise<void> => serial(ctx, () => totals.syncTotalsNow(ctx)),
    /** Coupon actions run only when totals sync is on and the cart is connected. */
    applyCoupon: (code: string): Promise<boolean> => totals.applyCoupon(ctx, code),
    removeCoupon: (): Promise<boolean> => totals.removeCoupon(ctx),
    paymentMethods: (): Promise<Record<string, unknown>[]> => totals.paymentMethods(ctx),
    shippingMethods: (address: Record<string, unknown>): Promise<Record<string, unknown>[]> =>
      totals.shippingMethods(ctx, address),
    shippingInformation: (addressInformation: Record<string, unknown>): Promise<boolean> =>
      totals.shippingInformation(ctx, addressInformation),
  }
}

export function createCartSync(deps: CartSyncDeps) {
  const ctx = createCartContext(deps, { checkStock: checkStockOnServer, announce })
  listenToOtherTabs(ctx)
  return { ...lifecycleCalls(ctx), ...lineCalls(ctx), ...checkoutCalls(ctx) }
}
