/**
 * Sending one line's change to the server cart. Every server call runs on the engine's serial
 * chain, so a rapid second click waits for the first update's item id (no duplicate server lines,
 * VSF #2639) and quick removals cannot reorder (VSF #4690); jobs for one sku coalesce, so five
 * rapid clicks send at most two updates, the last with the final quantity.
 */
import { resolveFailedUpdate } from '@shared/domain/cart-diff'
import { cartHash } from '@shared/domain/cart-hash'
import type { CartLine } from '@shared/schemas/cart'
import { cartItems, cartLastSyncAt, cartServerToken, cartSyncedHash } from '../../state/cart'
import { EVENTS } from '../runtime/events'
import type { TaskResult } from '../runtime/task'
import { CART_KEYS, type CartContext, cartTask, serial } from './context'
import { findLine, patchLine, removeLine } from './lines'
import { syncTotalsNow } from './totals'

/** pushLine marker: send without an item id (the server line is gone). */
export const NO_ITEM_ID = -1

/** The cart/update body for a line at its current quantity. */
export function updateBody(line: CartLine, itemId: number | string | undefined, cartId: string) {
  return {
    cartItem: {
      sku: line.sku,
      qty: line.qty,
      ...(itemId != null ? { item_id: itemId } : {}),
      quoteId: cartId,
      ...(line.product_option ? { product_option: line.product_option } : {}),
      // The product page the line was chosen on (a grouped set's, for one of its pieces).
      ...(line.parentSku && line.parentSku !== line.sku ? { parentSku: line.parentSku } : {}),
    },
  }
}

/** POST /cart/update for the line's current state; applies the failure rules on a refusal. */
export async function pushLine(ctx: CartContext, sku: string, itemId?: number | string): Promise<boolean> {
  const line = findLine(sku)
  const cartId = cartServerToken.value
  if (!line || !cartId) return false
  const id =
    itemId === NO_ITEM_ID ? undefined : (itemId ?? line.server_item_id ?? ctx.state.serverIds.get(sku))
  let res: TaskResult
  try {
    res = await ctx.queue.execute({
      ...cartTask(ctx, 'update'),
      payload: { method: 'POST', body: updateBody(line, id, cartId) },
    })
  } catch (err) {
    console.warn('[cart] update not sent (offline?); the next sync retries', err)
    ctx.state.unsentChanges = true
    return false
  }
  const current = findLine(sku)
  if (res.code === 200 && res.result && typeof res.result === 'object') {
    const saved = res.result as { item_id?: number | string; quote_id?: string | number }
    if (saved.item_id != null) ctx.state.serverIds.set(sku, saved.item_id)
    if (current) {
      patchLine(ctx, sku, {
        server_item_id: saved.item_id ?? id ?? null,
        server_cart_id: String(saved.quote_id ?? cartId),
        // The line is confirmed at what we sent; a later change starts from here.
        prev_qty: line.qty,
      })
    }
    ctx.state.totalsDirty = true
    return true
  }
  if (res.code === 404 && id != null && itemId === undefined) {
    // The server line is gone (removed elsewhere): add it again as a new line, once.
    ctx.state.serverIds.delete(sku)
    if (current) patchLine(ctx, sku, { server_item_id: null })
    return pushLine(ctx, sku, NO_ITEM_ID)
  }
  ctx.bus.emit(EVENTS.cartUpdateQtyFailed, { sku, qty: line.qty, code: res.code })
  if (current) {
    const outcome = resolveFailedUpdate({ ...current, server_item_id: id ?? current.server_item_id })
    if (outcome.type === 'restore') patchLine(ctx, sku, { qty: outcome.qty })
    else removeLine(ctx, sku)
  }
  return false
}

/** POST /cart/delete of a server line (the local line is already gone). */
export async function deleteOnServer(ctx: CartContext, sku: string, itemId: number | string): Promise<void> {
  try {
    const res = await ctx.queue.execute({
      ...cartTask(ctx, 'delete'),
      payload: {
        method: 'POST',
        body: { cartItem: { sku, item_id: itemId, quoteId: cartServerToken.value } },
      },
      silent: true,
    })
    if (res.code === 200) ctx.state.serverIds.delete(sku)
    ctx.state.totalsDirty = true
  } catch (err) {
    console.warn('[cart] delete not sent (offline?); the next forced sync retries', err)
    ctx.state.unsentChanges = true
  }
}

/**
 * After server changes: totals when they changed, then the synced hash and date — unless a send
 * failed, which leaves the cart dirty so the next sync pulls and diffs.
 */
export async function afterChange(ctx: CartContext): Promise<void> {
  if (ctx.state.totalsDirty) {
    ctx.state.totalsDirty = false
    await syncTotalsNow(ctx)
  }
  if (ctx.state.unsentChanges) {
    ctx.state.unsentChanges = false
    return
  }
  cartSyncedHash.value = cartHash(cartItems.value, cartServerToken.value)
  cartLastSyncAt.value = ctx.clock.now()
  await ctx.storage.setItem(CART_KEYS.hash, cartSyncedHash.value)
  await ctx.storage.setItem(CART_KEYS.lastSync, cartLastSyncAt.value)
  ctx.announce()
}

/** Brings one sku's server line in line with the client (coalesced per sku). */
export function scheduleSkuSync(ctx: CartContext, sku: string): Promise<void> {
  if (!ctx.settings().cartServerSync || !cartServerToken.value) return Promise.resolve()
  if (ctx.state.pendingSkus.has(sku)) return ctx.state.chain.then(() => {})
  ctx.state.pendingSkus.add(sku)
  return serial(ctx, async () => {
    ctx.state.pendingSkus.delete(sku)
    if (!cartServerToken.value) return
    if (findLine(sku)) await pushLine(ctx, sku)
    else {
      const id = ctx.state.serverIds.get(sku)
      if (id != null) await deleteOnServer(ctx, sku, id)
    }
    await afterChange(ctx)
  })
}
