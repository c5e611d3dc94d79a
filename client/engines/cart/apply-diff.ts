/** Carries out the actions the cart diff (shared/domain/cart-diff.ts) decided, in order. */
import { type CartSyncAction, type DiffServerItem, toQty } from '@shared/domain/cart-diff'
import type { CartLine } from '@shared/schemas/cart'
import { cartItems, cartServerToken } from '../../state/cart'
import type { CartContext } from './context'
import { findLine, patchLine, removeLine, setLines } from './lines'
import { deleteOnServer, NO_ITEM_ID, pushLine } from './push'

/** A text field of a server line's extension attributes, if it is one. */
function extensionText(s: DiffServerItem, key: 'image' | 'url_path'): string | undefined {
  const value = (s.extension_attributes as Record<string, unknown> | undefined)?.[key]
  return typeof value === 'string' && value ? value : undefined
}

/**
 * The cart line for a server-only line of the cart `cartId`, with the picture and product page the
 * server names for it (as a line added on this device has them).
 */
export function lineFromServer(s: DiffServerItem, cartId: string | null): CartLine {
  const image = extensionText(s, 'image')
  const url = extensionText(s, 'url_path')
  return {
    ...(image ? { image } : {}),
    ...(url ? { url_path: url } : {}),
    sku: s.sku,
    name: typeof s.name === 'string' ? s.name : s.sku,
    qty: toQty(s.qty),
    prev_qty: toQty(s.qty),
    price: typeof s.price === 'number' ? s.price : undefined,
    type_id: s.product_type,
    product_option: s.product_option,
    server_item_id: s.item_id,
    server_cart_id: cartId,
  }
}

export async function applyActions(ctx: CartContext, actions: readonly CartSyncAction[]): Promise<void> {
  const { serverIds } = ctx.state
  for (const a of actions) {
    switch (a.type) {
      case 'link':
        serverIds.set(a.sku, a.item_id)
        patchLine(ctx, a.sku, { server_item_id: a.item_id, server_cart_id: cartServerToken.value })
        break
      case 'accept-server-qty':
        serverIds.set(a.sku, a.item_id)
        patchLine(ctx, a.sku, {
          qty: a.qty,
          prev_qty: a.qty,
          server_item_id: a.item_id,
          server_cart_id: cartServerToken.value,
        })
        break
      case 'remove-local':
        removeLine(ctx, a.sku)
        break
      case 'add-local':
        serverIds.set(a.item.sku, a.item.item_id)
        if (!findLine(a.item.sku))
          setLines(ctx, [...cartItems.value, lineFromServer(a.item, cartServerToken.value)])
        break
      case 'push':
        // Missing on the server: any server id the line carries is stale.
        await pushLine(ctx, a.sku, a.item_id ?? NO_ITEM_ID)
        break
      case 'delete-server':
        await deleteOnServer(ctx, a.sku, a.item_id)
        break
    }
  }
}
