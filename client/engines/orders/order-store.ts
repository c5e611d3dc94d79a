/** The orders kept on this device: reading and saving orders, queuing one. */
import { type StoredOrder, storedOrders } from '../../state/orders'
import { EVENTS } from '../runtime/events'
import type { OrderQueueContext } from './context'

/** Every stored order, oldest first (also published to the storedOrders signal). */
export async function listOrders(ctx: OrderQueueContext): Promise<StoredOrder[]> {
  const all = (await ctx.deps.storage.entries()).map(([, o]) => o).sort((a, b) => a.created_at - b.created_at)
  storedOrders.value = all
  return all
}

export async function saveOrder(ctx: OrderQueueContext, order: StoredOrder): Promise<void> {
  await ctx.deps.storage.setItem(order.order_id, order)
  await listOrders(ctx)
}

/** Registers Background Sync for the queue where the setting and the browser allow it (failures logged). */
export async function registerSync(ctx: OrderQueueContext): Promise<void> {
  if (!ctx.deps.settings().backgroundSync || !ctx.deps.registerBackgroundSync) return
  try {
    await ctx.deps.registerBackgroundSync()
  } catch (err) {
    console.warn('[orders] background sync not registered', err)
  }
}

/** Keeps the order as pending (sent later) and clears the cart, which the order now holds. */
export async function queueOrder(ctx: OrderQueueContext, stored: StoredOrder): Promise<void> {
  await saveOrder(ctx, { ...stored, transmited: false, transmited_at: null, status: 'pending' })
  // The order holds the items now: clear the cart so a reload cannot submit them a second time.
  await ctx.deps.clearCart?.()
  ctx.deps.bus.emit(EVENTS.orderQueued, { order: stored })
  void registerSync(ctx)
}
