/** The cart lines in the cart store: read, change, and store them (each change is announced). */
import type { CartLine } from '@shared/schemas/cart'
import { cartItems } from '../../state/cart'
import { CART_KEYS, type CartContext } from './context'

export function findLine(sku: string): CartLine | undefined {
  return cartItems.value.find((l) => l.sku === sku)
}

/** Stores the lines and tells the other tabs. */
export async function persistLines(ctx: CartContext): Promise<void> {
  await ctx.storage.setItem(CART_KEYS.items, cartItems.value)
  ctx.announce()
}

export function setLines(ctx: CartContext, next: CartLine[]): void {
  cartItems.value = next
  void persistLines(ctx)
}

export function patchLine(ctx: CartContext, sku: string, patch: Partial<CartLine>): void {
  setLines(
    ctx,
    cartItems.value.map((l) => (l.sku === sku ? { ...l, ...patch } : l)),
  )
}

export function removeLine(ctx: CartContext, sku: string): void {
  setLines(
    ctx,
    cartItems.value.filter((l) => l.sku !== sku),
  )
}

/** The lines without their server ids (they belong to one server cart). */
export function stripServerIds(items: CartLine[]): CartLine[] {
  return items.map(({ server_item_id: _a, server_cart_id: _b, ...rest }) => rest)
}

/** Remembers the server id of every line that has one. */
export function rememberServerIds(ctx: CartContext, items: readonly CartLine[]): void {
  for (const l of items) if (l.server_item_id != null) ctx.state.serverIds.set(l.sku, l.server_item_id)
}
