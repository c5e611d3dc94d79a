/**
 * The cart engine (transactions spec §4 "Cart lifecycle", "Cart connection", "Stock check result",
 * §5 add rules, §7 cart calls; contract §2.3 without VSF's bugs):
 * - local first: add/update/remove change the signals and IndexedDB at once;
 * - every server call runs on ONE serial chain, so a rapid second click waits for the first
 *   update's item_id (no duplicate server lines, #2639), quick removals cannot reorder (#4690), and
 *   load-sync can never interleave with the login merge (#5743);
 * - per-sku jobs coalesce: five rapid clicks send at most two updates, the last with the final qty;
 * - the login merge takes max(guest, customer) per sku (see shared/domain/cart-diff.ts);
 * - the server never removes a shopper's fresh additions (#4305).
 */

import {
  type CartSyncAction,
  type DiffOptions,
  type DiffServerItem,
  diffCart,
  resolveFailedUpdate,
  shouldConnectAuthorizedCart,
  toQty,
} from '../../../shared/domain/cart-diff'
import { cartHash, isSyncRequired } from '../../../shared/domain/cart-hash'
import { lineUnitPrice } from '../../../shared/domain/cart-line'
import { isSuppressedErrorMessage, MSG } from '../../../shared/i18n/messages'
import {
  type CartLine,
  type CartTotals,
  cartItems,
  cartLastSyncAt,
  cartLastTotalsSyncAt,
  cartLoaded,
  cartPromoMessage,
  cartServerToken,
  cartSyncedHash,
  cartSyncing,
  cartTotals,
} from '../../state/cart'
import type { NotificationInput } from '../../state/notifications'
import { type Clock, sleep, systemClock } from '../../storage/clock'
import type { UniversalStorage } from '../../storage/universal-storage'
import {
  AUTHORIZED_CART_BYPASS_MS,
  CART_ID_WAIT_MS,
  type ClientSettings,
  GUEST_CART_FALLBACK_ATTEMPTS,
  STOCK_AFTER_CHECK_DELAY_MS,
} from '../runtime/config'
import { EVENTS, type EventBus } from '../runtime/events'
import type { TaskQueue, TaskResult } from '../runtime/task-queue'

export const CART_KEYS = {
  items: 'current-cart',
  token: 'current-cart-token',
  hash: 'current-cart-hash',
  lastSync: 'last-sync-at',
  totals: 'current-totals',
  bypassAt: 'last-cart-bypass-ts',
  guest: 'current-cart-is-guest',
} as const

export type StockStatus = 'ok' | 'out_of_stock' | 'volatile'

export interface StockCheck {
  status: StockStatus
  qty?: number
  is_in_stock?: boolean
}

/** A product (or chosen variant) being added. */
export interface AddableProduct extends Omit<Partial<CartLine>, 'errors'> {
  sku: string
  name: string
  errors?: Record<string, string | null | undefined>
  final_price_incl_tax?: number
  price_incl_tax?: number
  final_price?: number
}

export type AddResult =
  | { ok: true; stock: StockStatus }
  | { ok: false; reason: 'price' | 'errors' | 'out_of_stock' | 'qty' }

export interface CartSyncDeps {
  queue: TaskQueue
  storage: UniversalStorage<unknown>
  notify: (n: NotificationInput) => unknown
  bus: EventBus
  settings: () => ClientSettings
  isLoggedIn: () => boolean
  isOnline?: () => boolean
  clock?: Clock
  /** Stock check; defaults to GET /api/stock/check through the task queue (volatile offline). */
  checkStock?: (sku: string) => Promise<StockCheck>
  /** Other tabs of the shop (a BroadcastChannel): each change is announced, theirs adopted. */
  channel?: CartChannel
}

/** The part of a BroadcastChannel the cart uses. */
export interface CartChannel {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

/** What a tab announces after its cart changed (already persisted to the shared storage). */
export interface CartSnapshot {
  type: 'cart'
  items: CartLine[]
  token: string | null
  totals: CartTotals | null
  hash: string | null
  guest: boolean
}

/** pushItem marker: send without an item id (the server line is gone). */
const NO_ITEM_ID = -1

function stripServerIds(items: CartLine[]): CartLine[] {
  return items.map(({ server_item_id: _a, server_cart_id: _b, ...rest }) => rest as CartLine)
}

export function createCartSync(deps: CartSyncDeps) {
  const { queue, storage, bus } = deps
  const clock = deps.clock ?? systemClock
  const isOnline = deps.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine))
  /** The serial chain every server call runs on. */
  let chain: Promise<unknown> = Promise.resolve()
  /** Skus with a job waiting on the chain (coalescing). */
  const pendingSkus = new Set<string>()
  /** Last known server item id per sku, kept for deletes of lines already removed locally. */
  const serverIds = new Map<string, number | string>()
  let guestFallbacks = 0
  let totalsDirty = false
  /** A guest cart is addressed without the user token (it may be a fallback while a token exists). */
  let cartIsGuest = false
  /** A send failed (offline): keep the stored hash stale so the next sync pulls and diffs. */
  let unsentChanges = false
  let restoring: Promise<void> | null = null

  function serial<T>(job: () => Promise<T>): Promise<T> {
    const run = chain.then(job, job)
    chain = run.catch(() => {})
    return run
  }

  async function persist(): Promise<void> {
    await storage.setItem(CART_KEYS.items, cartItems.value)
    announce()
  }

  // Cross-tab: one announcement per tick of changes; a tab with its own server calls in flight
  // ignores the others' (its next sync reconciles with the server cart anyway).
  let announcing = false
  function announce(): void {
    if (!deps.channel || announcing) return
    announcing = true
    queueMicrotask(() => {
      announcing = false
      const snapshot: CartSnapshot = {
        type: 'cart',
        items: cartItems.value,
        token: cartServerToken.value,
        totals: cartTotals.value,
        hash: cartSyncedHash.value,
        guest: cartIsGuest,
      }
      try {
        deps.channel?.postMessage(snapshot)
      } catch (err) {
        console.warn('[cart] could not announce the change to other tabs', err)
      }
    })
  }

  /** Takes over a cart state another tab (or the shared storage) holds, without storing or announcing it. */
  function adopt(state: {
    items: CartLine[]
    token?: unknown
    hash?: unknown
    totals?: unknown
    guest?: unknown
  }) {
    serverIds.clear()
    for (const l of state.items) if (l.server_item_id != null) serverIds.set(l.sku, l.server_item_id)
    cartIsGuest = state.guest === true
    cartServerToken.value = typeof state.token === 'string' ? state.token : null
    cartSyncedHash.value = typeof state.hash === 'string' ? state.hash : null
    cartTotals.value = state.totals && typeof state.totals === 'object' ? (state.totals as CartTotals) : null
    cartItems.value = state.items
  }

  deps.channel?.addEventListener('message', (event) => {
    const m = event.data as Partial<CartSnapshot> | null
    if (m?.type !== 'cart' || !Array.isArray(m.items)) return
    if (pendingSkus.size > 0 || !cartLoaded.peek()) return
    adopt({ ...m, items: m.items })
  })

  function setItems(next: CartLine[]): void {
    cartItems.value = next
    void persist()
  }

  function patchItem(sku: string, patch: Partial<CartLine>): void {
    setItems(cartItems.value.map((l) => (l.sku === sku ? { ...l, ...patch } : l)))
  }

  function findItem(sku: string): CartLine | undefined {
    return cartItems.value.find((l) => l.sku === sku)
  }

  async function setToken(token: string | null): Promise<void> {
    if (token !== cartServerToken.value) {
      // Server ids belong to one server cart: a new cart starts without them.
      serverIds.clear()
      cartItems.value = stripServerIds(cartItems.value)
      cartSyncedHash.value = null
      cartLastSyncAt.value = null
    }
    cartServerToken.value = token
    await storage.setItem(CART_KEYS.token, token)
    await persist()
  }

  /** A cart call: the user's token goes along (as a header) unless the cart is a guest cart. */
  const cartTask = (path: string, extra = '') => ({
    url: `/api/cart/${path}?cartId={{cartId}}${extra}`,
    auth: !cartIsGuest,
  })

  // ---------------------------------------------------------------------------------------------
  // Server calls (run on the chain)
  // ---------------------------------------------------------------------------------------------

  /** POST /cart/update for the line's current state; applies the failure rules on a refusal. */
  async function pushItem(sku: string, itemId?: number | string): Promise<boolean> {
    const line = findItem(sku)
    const cartId = cartServerToken.value
    if (!line || !cartId) return false
    const id = itemId === NO_ITEM_ID ? undefined : (itemId ?? line.server_item_id ?? serverIds.get(sku))
    let res: TaskResult
    try {
      res = await queue.execute({
        ...cartTask('update'),
        payload: {
          method: 'POST',
          body: {
            cartItem: {
              sku: line.sku,
              qty: line.qty,
              ...(id != null ? { item_id: id } : {}),
              quoteId: cartId,
              ...(line.product_option ? { product_option: line.product_option } : {}),
            },
          },
        },
      })
    } catch (err) {
      console.warn('[cart] update not sent (offline?); the next sync retries', err)
      unsentChanges = true
      return false
    }
    const current = findItem(sku)
    if (res.code === 200 && res.result && typeof res.result === 'object') {
      const saved = res.result as { item_id?: number | string; quote_id?: string | number }
      if (saved.item_id != null) serverIds.set(sku, saved.item_id)
      if (current) {
        patchItem(sku, {
          server_item_id: saved.item_id ?? id ?? null,
          server_cart_id: String(saved.quote_id ?? cartId),
          // The line is confirmed at what we sent; a later change starts from here.
          prev_qty: line.qty,
        })
      }
      totalsDirty = true
      return true
    }
    if (res.code === 404 && id != null && itemId === undefined) {
      // The server line is gone (removed elsewhere): add it again as a new line, once.
      serverIds.delete(sku)
      if (current) patchItem(sku, { server_item_id: null })
      return pushItem(sku, NO_ITEM_ID)
    }
    bus.emit(EVENTS.cartUpdateQtyFailed, { sku, qty: line.qty, code: res.code })
    if (current) {
      const outcome = resolveFailedUpdate({ ...current, server_item_id: id ?? current.server_item_id })
      if (outcome.type === 'restore') patchItem(sku, { qty: outcome.qty })
      else setItems(cartItems.value.filter((l) => l.sku !== sku))
    }
    return false
  }

  async function deleteOnServer(sku: string, itemId: number | string): Promise<void> {
    try {
      const res = await queue.execute({
        ...cartTask('delete'),
        payload: {
          method: 'POST',
          body: { cartItem: { sku, item_id: itemId, quoteId: cartServerToken.value } },
        },
        silent: true,
      })
      if (res.code === 200) serverIds.delete(sku)
      totalsDirty = true
    } catch (err) {
      console.warn('[cart] delete not sent (offline?); the next forced sync retries', err)
      unsentChanges = true
    }
  }

  /** Brings one sku's server line in line with the client (coalesced per sku). */
  function scheduleSkuSync(sku: string): Promise<void> {
    if (!deps.settings().cartServerSync || !cartServerToken.value) return Promise.resolve()
    if (pendingSkus.has(sku)) return chain.then(() => {})
    pendingSkus.add(sku)
    return serial(async () => {
      pendingSkus.delete(sku)
      if (!cartServerToken.value) return
      const line = findItem(sku)
      if (line) await pushItem(sku)
      else {
        const id = serverIds.get(sku)
        if (id != null) await deleteOnServer(sku, id)
      }
      await afterChange()
    })
  }

  async function afterChange(): Promise<void> {
    if (totalsDirty) {
      totalsDirty = false
      await syncTotalsNow()
    }
    if (unsentChanges) {
      unsentChanges = false
      return
    }
    cartSyncedHash.value = cartHash(cartItems.value, cartServerToken.value)
    cartLastSyncAt.value = clock.now()
    await storage.setItem(CART_KEYS.hash, cartSyncedHash.value)
    await storage.setItem(CART_KEYS.lastSync, cartLastSyncAt.value)
    announce()
  }

  async function pull(): Promise<DiffServerItem[] | null> {
    try {
      const res = await queue.execute({ ...cartTask('pull'), silent: true })
      if (res.code === 200 && Array.isArray(res.result)) return res.result as DiffServerItem[]
      return null
    } catch (err) {
      console.warn('[cart] pull failed', err)
      return null
    }
  }

  async function applyActions(actions: CartSyncAction[]): Promise<void> {
    for (const a of actions) {
      switch (a.type) {
        case 'link':
          serverIds.set(a.sku, a.item_id)
          patchItem(a.sku, { server_item_id: a.item_id, server_cart_id: cartServerToken.value })
          break
        case 'accept-server-qty':
          serverIds.set(a.sku, a.item_id)
          patchItem(a.sku, {
            qty: a.qty,
            prev_qty: a.qty,
            server_item_id: a.item_id,
            server_cart_id: cartServerToken.value,
          })
          break
        case 'remove-local':
          setItems(cartItems.value.filter((l) => l.sku !== a.sku))
          break
        case 'add-local': {
          const s = a.item
          serverIds.set(s.sku, s.item_id)
          if (findItem(s.sku)) break
          setItems([
            ...cartItems.value,
            {
              sku: s.sku,
              name: typeof s.name === 'string' ? s.name : s.sku,
              qty: toQty(s.qty),
              prev_qty: toQty(s.qty),
              price: typeof s.price === 'number' ? s.price : undefined,
              type_id: s.product_type,
              product_option: s.product_option,
              server_item_id: s.item_id,
              server_cart_id: cartServerToken.value,
            },
          ])
          break
        }
        case 'push':
          // Missing on the server: any server id the line carries is stale.
          await pushItem(a.sku, a.item_id ?? NO_ITEM_ID)
          break
        case 'delete-server':
          await deleteOnServer(a.sku, a.item_id)
          break
      }
    }
  }

  /** Pull, diff, reconcile, totals. Runs on the chain. */
  async function syncNow(opts: DiffOptions & { force?: boolean } = {}): Promise<CartSyncAction[] | null> {
    const cartId = cartServerToken.value
    if (!cartId || !deps.settings().cartServerSync) return null
    const current = cartHash(cartItems.value, cartId)
    const required =
      opts.force ||
      opts.forceClientState ||
      opts.mergeStrategy === 'max' ||
      isSyncRequired({
        currentHash: current,
        storedHash: cartSyncedHash.value,
        lastSyncAt: cartLastSyncAt.value,
      })
    if (!required) return []
    cartSyncing.value = true
    try {
      const server = await pull()
      if (server === null) {
        // "Pull or connect failures fall back to a guest cart, at most 10 times."
        if (isOnline() && guestFallbacks < GUEST_CART_FALLBACK_ATTEMPTS) {
          guestFallbacks++
          await connectNow({ guest: true })
        }
        return null
      }
      const actions = diffCart(cartItems.value, server, {
        forceClientState: opts.forceClientState,
        mergeStrategy: opts.mergeStrategy,
      })
      await applyActions(actions)
      totalsDirty = totalsDirty || actions.some((a) => a.type !== 'link') || !cartLastTotalsSyncAt.value
      await afterChange()
      bus.emit(EVENTS.cartAfterDiff, { actions })
      return actions
    } finally {
      cartSyncing.value = false
    }
  }

  /** POST /cart/create (guest: without the user token); stores the cart id and syncs. Runs on the chain. */
  async function connectNow(
    opts: { guest?: boolean; mergeStrategy?: 'max'; forceClientState?: boolean } = {},
  ) {
    if (!deps.settings().cartServerSync) return
    const guest = opts.guest || !deps.isLoggedIn()
    let res: TaskResult | null = null
    try {
      res = await queue.execute({
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
      cartIsGuest = guest
      await storage.setItem(CART_KEYS.guest, guest)
      await setToken(String(res.result))
      await syncNow({
        mergeStrategy: opts.mergeStrategy,
        forceClientState: opts.forceClientState,
        force: true,
      })
      guestFallbacks = 0
      return
    }
    // "A guest cart is created when the server reports not authorized"; other failures fall back
    // to a guest cart too, at most 10 times.
    if (guestFallbacks < GUEST_CART_FALLBACK_ATTEMPTS) {
      guestFallbacks++
      await connectNow({ guest: true })
    }
  }

  async function syncTotalsNow(): Promise<void> {
    if (!cartServerToken.value || !deps.settings().cartTotalsSync) return
    try {
      const res = await queue.execute({ ...cartTask('totals'), silent: true })
      if (res.code !== 200 || !res.result || typeof res.result !== 'object') return
      const totals = res.result as CartTotals & { promo_message?: string }
      cartTotals.value = {
        ...totals,
        total_segments: Array.isArray(totals.total_segments) ? totals.total_segments : [],
      }
      cartPromoMessage.value = typeof totals.promo_message === 'string' ? totals.promo_message : null
      cartLastTotalsSyncAt.value = clock.now()
      const byId = new Map((totals.items ?? []).map((t) => [String(t.item_id), t]))
      if (byId.size) {
        cartItems.value = cartItems.value.map((l) =>
          l.server_item_id != null && byId.has(String(l.server_item_id))
            ? { ...l, totals: byId.get(String(l.server_item_id)) }
            : l,
        )
      }
      await storage.setItem(CART_KEYS.totals, cartTotals.value)
      announce()
    } catch (err) {
      console.warn('[cart] totals sync failed', err) // "Failure is logged only."
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Stock
  // ---------------------------------------------------------------------------------------------

  async function defaultCheckStock(sku: string): Promise<StockCheck> {
    if (!isOnline() || !deps.settings().cartServerSync) return { status: 'volatile' }
    try {
      const res = await queue.execute({
        url: `/api/stock/check?sku=${encodeURIComponent(sku)}`,
        silent: true,
      })
      if (res.code !== 200 || !res.result || typeof res.result !== 'object') return { status: 'volatile' }
      const r = res.result as { is_in_stock?: boolean; qty?: number }
      return {
        status: r.is_in_stock === false ? 'out_of_stock' : 'ok',
        qty: r.qty,
        is_in_stock: r.is_in_stock,
      }
    } catch {
      return { status: 'volatile' }
    }
  }
  const checkStock = deps.checkStock ?? defaultCheckStock

  /**
   * Applies an asynchronous stock answer after the spec's 500 ms delay: in stock → 'In stock!';
   * out of stock → marked when out-of-stock items are allowed or cart sync is on, else removed.
   */
  async function applyStockResult(sku: string, result: StockCheck): Promise<void> {
    await sleep(clock, STOCK_AFTER_CHECK_DELAY_MS)
    const line = findItem(sku)
    if (!line || result.status === 'volatile') return
    if (result.status === 'ok') {
      patchItem(sku, {
        info: { ...(line.info ?? {}), stock: MSG.inStock },
        stock: { ...(line.stock ?? {}), is_in_stock: true, qty: result.qty },
      })
      return
    }
    const s = deps.settings()
    if (s.allowOutOfStockInCart || s.cartServerSync) {
      patchItem(sku, {
        errors: { ...(line.errors ?? {}), stock: MSG.outOfStockBadge },
        stock: { ...(line.stock ?? {}), is_in_stock: false, qty: result.qty ?? 0 },
      })
    } else {
      setItems(cartItems.value.filter((l) => l.sku !== sku))
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Public API
  // ---------------------------------------------------------------------------------------------

  const api = {
    /** Reads the stored cart from IndexedDB (idempotent); mutations wait for it. */
    restore(): Promise<void> {
      if (cartLoaded.value) return Promise.resolve()
      if (!restoring) {
        restoring = restoreNow().finally(() => {
          restoring = null
        })
      }
      return restoring
    },

    /** Restores the cart from IndexedDB, then connects/syncs with the server. */
    async load(opts: { forceClientState?: boolean } = {}): Promise<void> {
      await api.restore()
      if (!isOnline()) return
      await serial(async () => {
        if (cartServerToken.value) await syncNow({ forceClientState: opts.forceClientState })
        else if (cartItems.value.length) await connectNow({ forceClientState: opts.forceClientState })
      })
    },

    /** Connects a server cart now (guest when not logged in). */
    connect(opts: { guest?: boolean } = {}): Promise<void> {
      return serial(() => connectNow(opts))
    },

    /** Pulls and reconciles; `forceClientState` deletes server-only lines. */
    sync(opts: { forceClientState?: boolean; force?: boolean } = {}): Promise<CartSyncAction[] | null> {
      return serial(() => syncNow(opts))
    },

    /** Adds a product (qty accumulates by sku) with the spec's price, error and stock rules. */
    async addItem(product: AddableProduct, qtyInput: unknown = 1): Promise<AddResult> {
      // Never write over the stored cart before it has been read.
      await api.restore()
      const s = deps.settings()
      const qty = toQty(qtyInput)
      if (qty <= 0) return { ok: false, reason: 'qty' }
      const price = lineUnitPrice(product)
      if (s.allowZeroPrice ? price < 0 : price <= 0) {
        deps.notify({ type: 'error', message: MSG.priceUnknown, action1: { label: MSG.ok } })
        return { ok: false, reason: 'price' }
      }
      const errors = Object.values(product.errors ?? {}).filter(
        (e): e is string => typeof e === 'string' && !!e,
      )
      if (errors.length) {
        for (const e of errors) {
          if (!isSuppressedErrorMessage(e))
            deps.notify({ type: 'error', message: e, action1: { label: MSG.ok } })
        }
        return { ok: false, reason: 'errors' }
      }
      const stock = await checkStock(product.sku)
      if (stock.status === 'out_of_stock') {
        deps.notify({ type: 'error', message: MSG.outOfStockCannotAdd, action1: { label: MSG.ok } })
        return { ok: false, reason: 'out_of_stock' }
      }
      const existing = findItem(product.sku)
      if (existing) {
        patchItem(product.sku, { qty: existing.qty + qty, prev_qty: existing.qty })
      } else {
        const { errors: _e, ...line } = product
        setItems([...cartItems.value, { ...line, qty, prev_qty: 0, server_item_id: null } as CartLine])
      }
      if (stock.status === 'volatile') deps.notify({ type: 'warning', message: MSG.stockVolatile })
      deps.notify({
        type: 'success',
        message: MSG.productAddedToCart,
        action1: { label: MSG.ok },
        action2: { label: MSG.proceedToCheckout, href: '/checkout' },
      })
      void applyStockResult(product.sku, stock)
      if (cartServerToken.value) void scheduleSkuSync(product.sku)
      else if (isOnline()) {
        void serial(async () => {
          if (cartServerToken.value) await syncNow()
          else await connectNow()
        })
      }
      return { ok: true, stock: stock.status }
    },

    /** Sets a line's quantity ('Product quantity has been updated!'). */
    async updateQuantity(sku: string, qtyInput: unknown): Promise<boolean> {
      // Never write over the stored cart before it has been read.
      await api.restore()
      const qty = toQty(qtyInput)
      const line = findItem(sku)
      if (!line || qty <= 0) return false
      if (qty === line.qty) return true
      patchItem(sku, { qty, prev_qty: line.qty })
      deps.notify({ type: 'success', message: MSG.productQuantityUpdated })
      void scheduleSkuSync(sku)
      return true
    },

    /** Removes a line (the UI asks first); deletes it on the server when it exists there. */
    async removeItem(sku: string): Promise<void> {
      // Never write over the stored cart before it has been read.
      await api.restore()
      const line = findItem(sku)
      if (!line) return
      if (line.server_item_id != null) serverIds.set(sku, line.server_item_id)
      setItems(cartItems.value.filter((l) => l.sku !== sku))
      await scheduleSkuSync(sku)
    },

    /** GET totals now (after shipping/payment changes). */
    syncTotals(): Promise<void> {
      return serial(syncTotalsNow)
    },

    /** "Coupon actions run only when totals sync is enabled and the cart is connected." */
    async applyCoupon(code: string): Promise<boolean> {
      if (!deps.settings().cartTotalsSync || !cartServerToken.value || !code.trim()) return false
      return serial(async () => {
        try {
          const res = await queue.execute({
            ...cartTask('apply-coupon', `&coupon=${encodeURIComponent(code.trim())}`),
            payload: { method: 'POST' },
          })
          await syncTotalsNow()
          return res.code === 200 && res.result !== false
        } catch {
          return false
        }
      })
    },

    async removeCoupon(): Promise<boolean> {
      if (!deps.settings().cartTotalsSync || !cartServerToken.value) return false
      return serial(async () => {
        try {
          const res = await queue.execute({ ...cartTask('delete-coupon'), payload: { method: 'POST' } })
          await syncTotalsNow()
          return res.code === 200
        } catch {
          return false
        }
      })
    },

    /** GET payment-methods for the connected cart (empty when not connected). */
    async paymentMethods(): Promise<Record<string, unknown>[]> {
      if (!cartServerToken.value) return []
      const res = await queue.execute({ ...cartTask('payment-methods'), silent: true }).catch(() => null)
      return res?.code === 200 && Array.isArray(res.result) ? (res.result as Record<string, unknown>[]) : []
    },

    /** POST shipping-methods {address} for the connected cart. */
    async shippingMethods(address: Record<string, unknown>): Promise<Record<string, unknown>[]> {
      if (!cartServerToken.value) return []
      const res = await queue
        .execute({
          ...cartTask('shipping-methods'),
          payload: { method: 'POST', body: { address } },
          silent: true,
        })
        .catch(() => null)
      return res?.code === 200 && Array.isArray(res.result) ? (res.result as Record<string, unknown>[]) : []
    },

    /** POST shipping-information {addressInformation}; updates totals from the answer. */
    async shippingInformation(addressInformation: Record<string, unknown>): Promise<boolean> {
      if (!cartServerToken.value) return false
      return serial(async () => {
        const res = await queue
          .execute({
            ...cartTask('shipping-information'),
            payload: { method: 'POST', body: { addressInformation } },
          })
          .catch(() => null)
        if (res?.code !== 200 || !res.result || typeof res.result !== 'object') return false
        const r = res.result as { totals?: CartTotals }
        const totals = (r.totals ?? r) as CartTotals
        if (Array.isArray(totals.total_segments)) {
          cartTotals.value = totals
          cartLastTotalsSyncAt.value = clock.now()
        }
        return true
      })
    },

    /** After login: connect the customer cart and merge the guest lines into it (max per sku). */
    authorize(): Promise<void> {
      return serial(async () => {
        const s = deps.settings()
        const lastBypassAt = (await storage.getItem(CART_KEYS.bypassAt)) as number | null
        const connect = shouldConnectAuthorizedCart({
          bypassEnabled: s.bypassCartLoaderForAuthorizedUsers,
          directBackendSync: s.directBackendSync,
          lastBypassAt: typeof lastBypassAt === 'number' ? lastBypassAt : null,
          now: clock.now(),
          windowMs: AUTHORIZED_CART_BYPASS_MS,
        })
        if (!connect) return
        guestFallbacks = 0
        await connectNow({ mergeStrategy: 'max' })
        await storage.setItem(CART_KEYS.bypassAt, clock.now())
      })
    },

    /** Logout: forget the server cart and the lines, then start a fresh guest cart. */
    disconnectAndRecreate(): Promise<void> {
      return serial(async () => {
        await clearLocal()
        guestFallbacks = 0
        if (isOnline()) await connectNow({ guest: true })
      })
    },

    /** "After a successful order the cart is cleared, then recreated and resynced." */
    clearAfterOrder(): Promise<void> {
      return serial(async () => {
        await clearLocal()
        guestFallbacks = 0
        if (isOnline()) await connectNow()
      })
    },

    /** Resolves with the cart id once there is one, or null after `timeoutMs`. */
    waitForCartId(timeoutMs = CART_ID_WAIT_MS): Promise<string | null> {
      if (cartServerToken.value) return Promise.resolve(cartServerToken.value)
      return new Promise((resolve) => {
        let done = false
        const finish = (v: string | null) => {
          if (done) return
          done = true
          unsubscribe()
          clock.clearTimeout(timer)
          resolve(v)
        }
        const unsubscribe = cartServerToken.subscribe((v) => {
          if (v) finish(v)
        })
        const timer = clock.setTimeout(() => finish(null), timeoutMs)
      })
    },

    /** Re-checks volatile lines when back online (the async stock semantics). */
    async recheckVolatileStock(): Promise<void> {
      for (const l of cartItems.value) {
        if (l.stock?.is_in_stock !== undefined) continue
        void checkStock(l.sku).then((r) => applyStockResult(l.sku, r))
      }
    },

    /**
     * Reads the stored cart again, the stored state winning (a page restored from the back/forward
     * cache missed the other tabs' changes while frozen). Skipped while this tab has server calls
     * in flight or has not restored yet.
     */
    async reloadStored(): Promise<void> {
      if (pendingSkus.size > 0 || !cartLoaded.peek()) return
      const [items, token, hash, totals, guest] = await Promise.all([
        storage.getItem(CART_KEYS.items),
        storage.getItem(CART_KEYS.token),
        storage.getItem(CART_KEYS.hash),
        storage.getItem(CART_KEYS.totals),
        storage.getItem(CART_KEYS.guest),
      ])
      if (pendingSkus.size > 0) return
      adopt({ items: Array.isArray(items) ? (items as CartLine[]) : [], token, hash, totals, guest })
    },

    /** Waits until every queued server call has finished (tests, before placing an order). */
    idle(): Promise<void> {
      return chain.then(() => {})
    },
  }

  async function restoreNow(): Promise<void> {
    if (cartLoaded.value) return

    const [items, token, hash, lastSync, totals, guest] = await Promise.all([
      storage.getItem(CART_KEYS.items),
      storage.getItem(CART_KEYS.token),
      storage.getItem(CART_KEYS.hash),
      storage.getItem(CART_KEYS.lastSync),
      storage.getItem(CART_KEYS.totals),
      storage.getItem(CART_KEYS.guest),
    ])
    cartIsGuest = guest === true
    // Items added before the stored cart arrived (a fast click) are kept.
    const stored = Array.isArray(items) ? (items as CartLine[]) : []
    const early = cartItems.value.filter((l) => !stored.some((s) => s.sku === l.sku))
    cartItems.value = [...stored, ...early]
    cartServerToken.value = typeof token === 'string' ? token : null
    cartSyncedHash.value = typeof hash === 'string' ? hash : null
    cartLastSyncAt.value = typeof lastSync === 'number' ? lastSync : null
    if (totals && typeof totals === 'object') cartTotals.value = totals as CartTotals
    for (const l of cartItems.value) if (l.server_item_id != null) serverIds.set(l.sku, l.server_item_id)
    cartLoaded.value = true
  }

  async function clearLocal(): Promise<void> {
    serverIds.clear()
    pendingSkus.clear()
    cartItems.value = []
    cartTotals.value = null
    cartPromoMessage.value = null
    cartServerToken.value = null
    cartSyncedHash.value = null
    cartLastSyncAt.value = null
    cartLastTotalsSyncAt.value = null
    cartIsGuest = false
    await Promise.all([
      storage.removeItem(CART_KEYS.guest),
      storage.setItem(CART_KEYS.items, []),
      storage.removeItem(CART_KEYS.token),
      storage.removeItem(CART_KEYS.hash),
      storage.removeItem(CART_KEYS.lastSync),
      storage.removeItem(CART_KEYS.totals),
    ])
    announce()
  }

  return api
}

export type CartSync = ReturnType<typeof createCartSync>
