/**
 * The cart's server-sync rules as pure functions (VSF's cart `merge` did the same with side
 * effects, which made it untestable).
 *
 * - Item missing on server: push it, or remove it locally when the server may remove local items.
 * - Quantity differs: push the client quantity, or accept the server's when allowed.
 * - Item on server but not on client: deleted on the server when client state is forced,
 *   otherwise added locally.
 * - Failed server update of an existing item: previous qty restored, or removed when it was 0.
 * - Failed add of a new, unconfirmed item: removed locally.
 *
 * Login merge (guest cart into the customer's cart) uses `mergeStrategy: 'max'`: for a sku on both
 * sides the larger quantity wins. We chose max over sum deliberately: max is idempotent, so a
 * merge that runs twice (reload during login, a second tab, a retry) can never inflate quantities
 * — VSF's mergeQty summed and doubled quantities (#5743).
 */
import type { CartLine } from '../schemas/cart'

/** The fields of a cart line the diff reads. */
type DiffClientItem = Pick<
  CartLine,
  'sku' | 'qty' | 'prev_qty' | 'server_item_id' | 'server_cart_id' | 'product_option' | 'type_id'
>

/** A line of /api/cart/pull. */
export interface DiffServerItem {
  item_id: number | string
  sku: string
  qty: number
  quote_id?: string | number
  product_option?: unknown
  product_type?: string
  name?: string
  price?: number
  [key: string]: unknown
}

export interface DiffOptions {
  /** Checkout and "coming online" force the client's state onto the server. */
  forceClientState?: boolean
  /** VSF serverSyncCanRemoveLocalItems (off: the shopper's additions never vanish, #4305). */
  serverCanRemoveLocalItems?: boolean
  /** VSF serverSyncCanModifyLocalItems (off: the client quantity is pushed). */
  serverCanModifyLocalItems?: boolean
  /** Login merge: 'max' keeps the larger quantity of a sku present on both sides. */
  mergeStrategy?: 'client' | 'max'
}

export type CartSyncAction =
  | {
      type: 'push'
      sku: string
      qty: number
      item_id?: number | string
      reason: 'missing-on-server' | 'wrong-qty'
    }
  | { type: 'remove-local'; sku: string; reason: 'missing-on-server' }
  | { type: 'accept-server-qty'; sku: string; qty: number; item_id: number | string }
  | { type: 'link'; sku: string; item_id: number | string; product_option?: unknown }
  | { type: 'delete-server'; sku: string; item_id: number | string }
  | { type: 'add-local'; item: DiffServerItem }

function sameOptions(a: unknown, b: unknown): boolean {
  if (a == null || b == null) return true
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Finds the server line of a client line: by server item id, else by sku (and options). */
function matchServerItem(
  client: DiffClientItem,
  server: readonly DiffServerItem[],
  used: Set<number>,
): number {
  if (client.server_item_id != null) {
    const byId = server.findIndex(
      (s, i) => !used.has(i) && String(s.item_id) === String(client.server_item_id),
    )
    if (byId >= 0) return byId
  }
  return server.findIndex(
    (s, i) => !used.has(i) && s.sku === client.sku && sameOptions(client.product_option, s.product_option),
  )
}

/** Sends the client quantity of a line the server holds with another quantity. */
function pushWrongQty(item: DiffClientItem, match: DiffServerItem): CartSyncAction {
  return { type: 'push', sku: item.sku, qty: item.qty, item_id: match.item_id, reason: 'wrong-qty' }
}

/** Compares the client cart with the server cart and returns the actions that reconcile them. */
export function diffCart(
  client: readonly DiffClientItem[],
  server: readonly DiffServerItem[],
  opts: DiffOptions = {},
): CartSyncAction[] {
  const actions: CartSyncAction[] = []
  const used = new Set<number>()
  for (const item of client) {
    const idx = matchServerItem(item, server, used)
    const match = idx >= 0 ? server[idx] : undefined
    if (!match) {
      if (opts.serverCanRemoveLocalItems && !opts.forceClientState) {
        actions.push({ type: 'remove-local', sku: item.sku, reason: 'missing-on-server' })
      } else {
        actions.push({ type: 'push', sku: item.sku, qty: item.qty, reason: 'missing-on-server' })
      }
      continue
    }
    used.add(idx)
    const serverQty = Number(match.qty)
    if (serverQty !== item.qty) {
      if (opts.mergeStrategy === 'max' && !opts.forceClientState) {
        if (serverQty > item.qty) {
          actions.push({ type: 'accept-server-qty', sku: item.sku, qty: serverQty, item_id: match.item_id })
        } else {
          actions.push(pushWrongQty(item, match))
        }
      } else if (opts.serverCanModifyLocalItems && !opts.forceClientState) {
        actions.push({ type: 'accept-server-qty', sku: item.sku, qty: serverQty, item_id: match.item_id })
      } else {
        actions.push(pushWrongQty(item, match))
      }
    } else {
      actions.push({
        type: 'link',
        sku: item.sku,
        item_id: match.item_id,
        product_option: match.product_option,
      })
    }
  }
  server.forEach((s, i) => {
    if (used.has(i)) return
    if (opts.forceClientState) actions.push({ type: 'delete-server', sku: s.sku, item_id: s.item_id })
    else actions.push({ type: 'add-local', item: s })
  })
  return actions
}

/** What to do with a line whose server update failed: restore the previous qty, or remove it. */
export function resolveFailedUpdate(
  item: DiffClientItem,
): { type: 'restore'; qty: number } | { type: 'remove' } {
  const confirmed = item.server_item_id != null
  if (!confirmed) return { type: 'remove' }
  const prev = Number(item.prev_qty ?? 0)
  return prev > 0 ? { type: 'restore', qty: prev } : { type: 'remove' }
}

/**
 * "A signed-in user's cart connects, unless the bypass for authorized users applies and less than
 * 24 hours (144e4 ms) have passed since the last bypass timestamp." Direct backend sync always connects.
 */
export function shouldConnectAuthorizedCart(input: {
  bypassEnabled: boolean
  directBackendSync: boolean
  lastBypassAt: number | null
  now: number
  windowMs: number
}): boolean {
  if (!input.bypassEnabled || input.directBackendSync) return true
  return input.lastBypassAt == null || input.now - input.lastBypassAt >= input.windowMs
}

/** "Quantity strings are converted to integers." Non-numbers become 0. */
export function toQty(value: unknown): number {
  const n = typeof value === 'number' ? Math.trunc(value) : Number.parseInt(String(value), 10)
  return Number.isFinite(n) ? n : 0
}
