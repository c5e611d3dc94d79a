/**
 * Wishlist: not loaded → loaded from the browser cache
 * or, for a signed-in user, from the server history. Add if the sku is absent (qty defaults to 1),
 * remove by sku, and save the local copy to browser storage after each change. The server calls
 * (POST /api/wishlist/add-wishlist | remove-wishlist | show-wishlist-history, body user_id +
 * item_id = parent_id if present else id) replace the items with their result array; their
 * failures are only logged.
 */
import { computed } from '@preact/signals-core'
import { isProductSummary, type ProductSummary } from '@shared/components/product/summary'
import { WISHLIST_DEFAULT_QTY } from '@shared/config/lists'
import { addToWishlist, uniqueBySku } from '@shared/domain/lists'
import { api } from '../api'
import { bus, EVENTS } from '../engines/runtime/events'
import { lazyCollection } from '../storage/kept-writes'
import { type ListStorage, storedList } from './stored-list'
import { currentUser, userToken } from './user'

export interface WishlistItem extends ProductSummary {
  qty: number
}

/** The signed-in user the server calls need (null when anonymous). */
interface WishlistUser {
  /** The customer id (null until the profile loaded: the server derives the customer from the token). */
  id: number | string | null
  token: string
}

/** The three server calls; each resolves to the result array (which replaces the items). */
interface WishlistRemote {
  add(user: WishlistUser, itemId: number): Promise<unknown[]>
  remove(user: WishlistUser, itemId: number): Promise<unknown[]>
  history(user: WishlistUser): Promise<unknown[]>
}

interface WishlistDeps {
  storage: () => ListStorage<WishlistItem[]>
  remote?: WishlistRemote
  user?: () => WishlistUser | null
}

const STORAGE_KEY = 'current-wishlist'

/** item_id of the server calls: "parent_id if present, else id". */
function wishlistItemId(item: Pick<ProductSummary, 'id' | 'parent_id'>): number {
  return item.parent_id ?? item.id
}

/**
 * Maps the server's result array onto wishlist items: entries are matched by sku (or by id) with
 * what the browser already knows, so the panel keeps names, images and prices.
 */
export function mergeServerItems(result: unknown[], known: readonly WishlistItem[]): WishlistItem[] {
  const out: WishlistItem[] = []
  for (const raw of result) {
    if (!raw || typeof raw !== 'object') continue
    const r = raw as Record<string, unknown>
    const sku = typeof r.sku === 'string' ? r.sku : null
    const id = typeof r.id === 'number' ? r.id : typeof r.product_id === 'number' ? r.product_id : null
    const local = known.find((k) => (sku && k.sku === sku) || (id !== null && wishlistItemId(k) === id))
    const qty = typeof r.qty === 'number' && r.qty > 0 ? r.qty : (local?.qty ?? WISHLIST_DEFAULT_QTY)
    if (local) {
      out.push({ ...local, qty })
    } else if (isProductSummary(r)) {
      out.push({
        sku: r.sku,
        id: id ?? 0,
        name: r.name,
        url: r.url,
        image: typeof r.image === 'string' ? r.image : null,
        price: typeof r.price === 'number' ? r.price : 0,
        qty,
      })
    } else if (sku && typeof r.name === 'string') {
      const urlPath = typeof r.url_path === 'string' ? `/${r.url_path.replace(/^\/+/, '')}` : '/'
      out.push({
        sku,
        id: id ?? 0,
        name: r.name,
        url: urlPath,
        image: typeof r.image === 'string' ? r.image : null,
        price: typeof r.final_price === 'number' ? r.final_price : typeof r.price === 'number' ? r.price : 0,
        qty,
      })
    }
  }
  return out
}

/** Creates a wishlist store; tests inject storage, remote and user. */
export function createWishlistStore({ storage, remote, user = () => null }: WishlistDeps) {
  const list = storedList(storage, STORAGE_KEY, 'wishlist')
  const { items, skus, save } = list
  const count = computed(() => items.value.length)

  /** Loads once: server history when signed in (falls back to the cache on failure), else the cache. */
  function load(): Promise<void> {
    return list.loadOnce(async () => {
      try {
        items.value = uniqueBySku([...(await list.read()), ...items.value])
      } catch (err) {
        console.warn('[wishlist] cache read failed', err)
      }
      const u = user()
      if (u && remote) {
        try {
          items.value = mergeServerItems(await remote.history(u), items.value)
          await save()
        } catch (err) {
          console.warn('[wishlist] history failed', err)
        }
      }
    })
  }

  async function syncServer(kind: 'add' | 'remove', item: WishlistItem): Promise<void> {
    const u = user()
    if (!u || !remote) return
    try {
      const result = await remote[kind](u, wishlistItemId(item))
      items.value = mergeServerItems(
        result,
        kind === 'add' ? addToWishlist(items.value, item).list : items.value,
      )
      await save()
    } catch (err) {
      // A failed wishlist call is logged only.
      console.warn(`[wishlist] ${kind} failed`, err)
    }
  }

  /** Adds the product if its sku is not present yet (qty 1); saves, then tells the server. */
  async function add(product: ProductSummary): Promise<boolean> {
    await load()
    if (skus.value.has(product.sku)) return false
    const item: WishlistItem = { ...product, qty: WISHLIST_DEFAULT_QTY }
    items.value = addToWishlist(items.value, item).list
    await save()
    await syncServer('add', item)
    return true
  }

  /** Removes by sku; saves, then tells the server. */
  async function remove(sku: string): Promise<boolean> {
    await load()
    const found = list.removeSku(sku)
    if (!found) return false
    await save()
    await syncServer('remove', found)
    return true
  }

  return {
    items,
    skus,
    count,
    loaded: list.loaded,
    load,
    /** Forgets the loaded state (login/logout): the next load() reads again. */
    reset: list.reset,
    add,
    remove,
    clear: list.clear,
  }
}

async function call(path: string, user: WishlistUser, body: Record<string, unknown>): Promise<unknown[]> {
  const res = await api<unknown>(path, { method: 'POST', query: { token: user.token }, body })
  if (res.code !== 200) throw new Error(`${path}: ${res.code} ${JSON.stringify(res.result)}`)
  return Array.isArray(res.result) ? res.result : []
}

/** The /api/wishlist/* calls through client/api. */
const wishlistRemote: WishlistRemote = {
  add: (user, itemId) => call('wishlist/add-wishlist', user, { user_id: user.id, item_id: itemId }),
  remove: (user, itemId) => call('wishlist/remove-wishlist', user, { user_id: user.id, item_id: itemId }),
  history: (user) => call('wishlist/show-wishlist-history', user, { user_id: user.id }),
}

/** The signed-in user from the user store (client/state/user), or null. */
function signedInUser(): WishlistUser | null {
  const token = userToken.peek()
  return token ? { id: currentUser.peek()?.id ?? null, token } : null
}

export const wishlist = createWishlistStore({
  storage: () => lazyCollection<WishlistItem[]>('wishlist'),
  remote: wishlistRemote,
  user: signedInUser,
})

// A session with a token (page load or login): load the server history; logout clears the
// wishlist.
for (const event of [EVENTS.sessionAuthorized, EVENTS.userAfterLoggedIn]) {
  bus.on(event, () => {
    wishlist.reset()
    void wishlist.load()
  })
}
bus.on(EVENTS.userAfterLogout, () => {
  void wishlist.clear()
  wishlist.reset()
})
