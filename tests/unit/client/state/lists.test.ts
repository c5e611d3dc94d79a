import { describe, expect, it, vi } from 'vitest'
import { createCompareStore } from '../../../../client/state/compare'
import { createRecentlyViewedStore } from '../../../../client/state/recently-viewed'
import type { ListStorage } from '../../../../client/state/stored-list'
import { createWishlistStore, mergeServerItems, type WishlistItem } from '../../../../client/state/wishlist'
import type { ProductSummary } from '../../../../shared/components/product/summary'

function memoryStorage<T>(initial: T | null = null) {
  let value = initial
  const storage: ListStorage<T> & { setItem: ReturnType<typeof vi.fn> } = {
    getItem: vi.fn(async () => value),
    setItem: vi.fn(async (_key: string, v: T) => {
      value = structuredClone(v)
    }),
  }
  return { storage, read: () => value }
}

/** Views waiting for a save, kept in memory (the tab's session storage in the shop). */
function memoryPending() {
  let kept: ProductSummary[] = []
  return {
    read: () => kept,
    write: (items: ProductSummary[]) => {
      kept = items
    },
    clear: () => {
      kept = []
    },
  }
}

const p = (sku: string, extra: Partial<ProductSummary> = {}): ProductSummary => ({
  sku,
  id: Number(sku.replace(/\D/g, '')) || 1,
  name: `Product ${sku}`,
  url: `/p/${sku}/slug`,
  image: null,
  price: 100,
  ...extra,
})

describe('recently viewed', () => {
  it('keeps newest first, moves a revisit to the front and saves after each view', async () => {
    const { storage, read } = memoryStorage<ProductSummary[]>()
    const store = createRecentlyViewedStore(() => storage)
    await store.add(p('A1'))
    await store.add(p('B2'))
    await store.add(p('C3'))
    await store.add(p('A1'))
    expect(store.items.value.map((i) => i.sku)).toEqual(['A1', 'C3', 'B2'])
    expect(read()?.map((i) => i.sku)).toEqual(['A1', 'C3', 'B2'])
    expect(storage.setItem).toHaveBeenCalledTimes(4)
  })

  it('keeps at most 20 items', async () => {
    const { storage } = memoryStorage<ProductSummary[]>()
    const store = createRecentlyViewedStore(() => storage)
    for (let i = 1; i <= 25; i++) await store.add(p(`S${i}`))
    expect(store.items.value).toHaveLength(20)
    expect(store.items.value[0]?.sku).toBe('S25')
    expect(store.items.value[19]?.sku).toBe('S6')
  })

  it('keeps a view made on a page left before its save, and saves it on the next page', async () => {
    const { storage, read } = memoryStorage<ProductSummary[]>([p('X1')])
    const pending = memoryPending()
    // The first page is left while its storage is still loading: its save never happens.
    const never = { getItem: () => new Promise<null>(() => {}), setItem: storage.setItem }
    void createRecentlyViewedStore(() => never, pending).add(p('A1'))
    const next = createRecentlyViewedStore(() => storage, pending)
    await next.add(p('B2'))
    expect(next.items.value.map((i) => i.sku)).toEqual(['B2', 'A1', 'X1'])
    expect(read()?.map((i) => i.sku)).toEqual(['B2', 'A1', 'X1'])
    expect(pending.read()).toEqual([])
  })

  it('loads the saved list from storage', async () => {
    const { storage } = memoryStorage<ProductSummary[]>([p('X1'), p('Y2')])
    const store = createRecentlyViewedStore(() => storage)
    await store.add(p('Z3'))
    expect(store.items.value.map((i) => i.sku)).toEqual(['Z3', 'X1', 'Y2'])
  })
})

describe('compare', () => {
  it("adds without duplicates by sku and notifies with the shop's messages", async () => {
    const { storage, read } = memoryStorage<ProductSummary[]>()
    const notify = vi.fn()
    const store = createCompareStore({ storage: () => storage, notify })
    expect(await store.add(p('A1', { name: 'Ruby Saree' }))).toBe(true)
    expect(await store.add(p('A1', { name: 'Ruby Saree' }))).toBe(false)
    expect(store.items.value).toHaveLength(1)
    expect(notify).toHaveBeenCalledWith({
      type: 'success',
      message: 'Product Ruby Saree has been added to the compare!',
    })
    expect(notify).toHaveBeenCalledTimes(1)
    expect(await store.remove('A1')).toBe(true)
    expect(notify).toHaveBeenLastCalledWith({
      type: 'success',
      message: 'Product Ruby Saree has been removed from compare!',
    })
    expect(read()).toEqual([])
    expect(await store.remove('A1')).toBe(false)
  })
})

describe('wishlist', () => {
  it('adds if absent with qty 1, removes by sku, saves after each change (anonymous: no server calls)', async () => {
    const { storage, read } = memoryStorage<WishlistItem[]>()
    const remote = { add: vi.fn(), remove: vi.fn(), history: vi.fn() }
    const store = createWishlistStore({ storage: () => storage, remote, user: () => null })
    expect(await store.add(p('A1'))).toBe(true)
    expect(await store.add(p('A1'))).toBe(false)
    expect(store.items.value).toEqual([{ ...p('A1'), qty: 1 }])
    expect(read()).toHaveLength(1)
    expect(await store.remove('A1')).toBe(true)
    expect(read()).toEqual([])
    expect(remote.add).not.toHaveBeenCalled()
    expect(remote.remove).not.toHaveBeenCalled()
  })

  it('loads from the browser cache when anonymous', async () => {
    const { storage } = memoryStorage<WishlistItem[]>([{ ...p('C3'), qty: 1 }])
    const store = createWishlistStore({ storage: () => storage, user: () => null })
    await store.load()
    expect(store.loaded.value).toBe(true)
    expect(store.items.value.map((i) => i.sku)).toEqual(['C3'])
  })

  it('signed in: loads the server history and sends item_id = parent_id if present, else id', async () => {
    const { storage } = memoryStorage<WishlistItem[]>()
    const user = { id: 7, token: 't' }
    const remote = {
      history: vi.fn(async () => [{ sku: 'H1', name: 'From history', url_path: 'h/h1', final_price: 50 }]),
      add: vi.fn(async () => [{ sku: 'H1' }, { sku: 'V9' }]),
      remove: vi.fn(async () => [{ sku: 'H1' }]),
    }
    const store = createWishlistStore({ storage: () => storage, remote, user: () => user })
    await store.load()
    expect(store.items.value).toMatchObject([{ sku: 'H1', name: 'From history', url: '/h/h1', price: 50 }])
    await store.add(p('V9', { id: 90, parent_id: 9 }))
    expect(remote.add).toHaveBeenCalledWith(user, 9)
    expect(store.items.value.map((i) => i.sku)).toEqual(['H1', 'V9'])
    await store.remove('V9')
    expect(remote.remove).toHaveBeenCalledWith(user, 9)
    expect(store.items.value.map((i) => i.sku)).toEqual(['H1'])
  })

  it('only logs server failures and keeps the local change', async () => {
    const { storage, read } = memoryStorage<WishlistItem[]>()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const remote = {
      history: vi.fn(async () => {
        throw new Error('offline')
      }),
      add: vi.fn(async () => {
        throw new Error('offline')
      }),
      remove: vi.fn(),
    }
    const store = createWishlistStore({ storage: () => storage, remote, user: () => ({ id: 1, token: 't' }) })
    await expect(store.add(p('A1'))).resolves.toBe(true)
    expect(store.items.value.map((i) => i.sku)).toEqual(['A1'])
    expect(read()).toHaveLength(1)
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })

  it('mergeServerItems keeps what the browser knows about matching skus', () => {
    const known: WishlistItem[] = [{ ...p('K1', { name: 'Known' }), qty: 2 }]
    expect(mergeServerItems([{ sku: 'K1' }, 'junk', null], known)).toEqual(known)
  })
})

describe('stored lists (compare, recently viewed, wishlist)', () => {
  it('read the storage once however often they load; later loads share the first read', async () => {
    const { storage } = memoryStorage<ProductSummary[]>([p('X1')])
    const compare = createCompareStore({ storage: () => storage, notify: vi.fn() })
    await Promise.all([compare.load(), compare.load(), compare.add(p('A1'))])
    await compare.load()
    expect(storage.getItem).toHaveBeenCalledTimes(1)
    expect(compare.items.value.map((i) => i.sku)).toEqual(['X1', 'A1'])
    expect(compare.loaded.value).toBe(true)
  })

  it('drop saved entries that are not products, and keep the list when the storage cannot be read', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const { storage } = memoryStorage<ProductSummary[]>([p('X1'), { sku: 'broken' } as ProductSummary])
      const compare = createCompareStore({ storage: () => storage, notify: vi.fn() })
      await compare.load()
      expect(compare.items.value.map((i) => i.sku)).toEqual(['X1'])

      const unreadable = { getItem: vi.fn(async () => Promise.reject(new Error('gone'))), setItem: vi.fn() }
      const recent = createRecentlyViewedStore(() => unreadable, { read: () => [], write() {}, clear() {} })
      await recent.add(p('A1'))
      expect(recent.items.value.map((i) => i.sku)).toEqual(['A1'])
      expect(recent.loaded.value).toBe(true)
      expect(warn).toHaveBeenCalledWith('[recently-viewed] load failed', expect.any(Error))
    } finally {
      warn.mockRestore()
    }
  })

  it('keep a change in memory when it cannot be saved; a view stays pending until it is saved', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const full = {
        getItem: vi.fn(async () => null),
        setItem: vi.fn(async () => Promise.reject(new Error('quota'))),
      }
      const compare = createCompareStore({ storage: () => full, notify: vi.fn() })
      expect(await compare.add(p('A1'))).toBe(true)
      expect(compare.items.value.map((i) => i.sku)).toEqual(['A1'])
      expect(warn).toHaveBeenCalledWith('[compare] save failed', expect.any(Error))

      const pending = memoryPending()
      await createRecentlyViewedStore(() => full, pending).add(p('B2'))
      expect(pending.read().map((i) => i.sku)).toEqual(['B2'])
    } finally {
      warn.mockRestore()
    }
  })

  it('a wishlist reset makes the next load read again (a login or logout)', async () => {
    const { storage } = memoryStorage<WishlistItem[]>([{ ...p('A1'), qty: 1 }])
    const store = createWishlistStore({ storage: () => storage })
    await store.load()
    await store.load()
    expect(storage.getItem).toHaveBeenCalledTimes(1)
    store.reset()
    expect(store.loaded.value).toBe(false)
    await store.load()
    expect(storage.getItem).toHaveBeenCalledTimes(2)
    expect(store.items.value.map((i) => i.sku)).toEqual(['A1'])
  })
})
