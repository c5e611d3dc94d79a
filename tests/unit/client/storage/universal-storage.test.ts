import '../../../helpers/indexeddb'
import { openDB } from 'idb'
import { describe, expect, it, vi } from 'vitest'
import { createCatalogCache, roughSizeOfObject } from '../../../../client/storage/catalog-cache'
import { createClaims } from '../../../../client/storage/claims'
import { ShopDatabase } from '../../../../client/storage/shop-database'
import { StorageManager } from '../../../../client/storage/storage-manager'
import {
  idbBackend,
  type StorageBackend,
  UniversalStorage,
} from '../../../../client/storage/universal-storage'
import { FakeClock, flush } from '../../../helpers/fake-clock'

let n = 0
const uniqueStore = () => `t${Date.now().toString(36)}${n++}`

vi.spyOn(console, 'warn').mockImplementation(() => {})
vi.spyOn(console, 'error').mockImplementation(() => {})

/** Wraps a backend so chosen operations hang forever (an IndexedDB that stopped answering). */
function hanging(
  inner: StorageBackend,
  hang: { get?: number; put?: number },
): StorageBackend & { recreated: number } {
  const b = {
    recreated: 0,
    get: (k: string) => (hang.get && hang.get-- > 0 ? new Promise<never>(() => {}) : inner.get(k)),
    put: (k: string, v: unknown) =>
      hang.put && hang.put-- > 0 ? new Promise<never>(() => {}) : inner.put(k, v),
    delete: (k: string) => inner.delete(k),
    clear: () => inner.clear(),
    entries: () => inner.entries(),
    recreate: async () => {
      b.recreated++
      await inner.recreate()
    },
  }
  return b
}

/** A fresh store's collection on a fake clock whose IndexedDB hangs the chosen operations. */
function stalled(collection: string, hang: { get?: number; put?: number }) {
  const clock = new FakeClock()
  const db = new ShopDatabase({ storeCode: uniqueStore(), collections: [collection], clock })
  const backend = hanging(idbBackend(db, collection), hang)
  return { clock, db, backend, s: new UniversalStorage(collection, backend, { clock }) }
}

describe('ShopDatabase', () => {
  it('opens one database per store with store-code prefixed collections', async () => {
    const code = uniqueStore()
    const db = new ShopDatabase({ storeCode: code, collections: ['cart', 'user'] })
    const handle = await db.db()
    expect(handle.name).toBe(`${code}-shop`)
    expect([...handle.objectStoreNames].sort()).toEqual([`${code}-cart`, `${code}-user`])
    db.addCollection('orders')
    expect((await db.db()).objectStoreNames.contains(`${code}-orders`)).toBe(true)
    db.close()
  })

  it('recreate() reopens with version+1 and keeps the data', async () => {
    const code = uniqueStore()
    const db = new ShopDatabase({ storeCode: code, collections: ['cart'] })
    const s = new UniversalStorage('cart', idbBackend(db, 'cart'))
    await s.setItem('k', { qty: 2 })
    const v1 = (await db.db()).version
    await db.recreate()
    expect((await db.db()).version).toBe(v1 + 1)
    expect(await new UniversalStorage('cart', idbBackend(db, 'cart')).getItem('k')).toEqual({ qty: 2 })
    db.close()
  })
})

describe('UniversalStorage', () => {
  it('a read not answered within 800 ms resolves from memory, is counted and recreates the database', async () => {
    const { clock, db, backend, s } = stalled('cart', { get: 1 })
    await s.setItem('current-cart', [{ sku: 'A', qty: 1 }])
    const v1 = (await db.db()).version
    const pending = s.getItem('current-cart')
    let settled = false
    void pending.then(() => {
      settled = true
    })
    await clock.advance(799)
    expect(settled).toBe(false)
    await clock.advance(1)
    expect(await pending).toEqual([{ sku: 'A', qty: 1 }])
    expect(s.readErrors).toBe(1)
    expect(backend.recreated).toBe(1)
    await flush(20)
    expect(db.recreations).toBe(1)
    expect((await db.db()).version).toBe(v1 + 1)
    db.close()
  })

  it('disables reads after 1 error: later reads come from memory without touching IndexedDB', async () => {
    const clock = new FakeClock()
    const calls: string[] = []
    const backend: StorageBackend = {
      get: async (k) => {
        calls.push(`get:${k}`)
        throw new Error('broken')
      },
      put: async () => {},
      delete: async () => {},
      clear: async () => {},
      entries: async () => [],
      recreate: async () => {},
    }
    const s = new UniversalStorage<number>('user', backend, { clock })
    expect(await s.getItem('a')).toBeNull()
    expect(s.readsDisabled).toBe(true)
    await s.setItem('a', 7)
    expect(await s.getItem('a')).toBe(7)
    expect(calls).toEqual(['get:a'])
  })

  it('keeps writing through 29 errors and disables writes at the 30th; memory keeps the data', async () => {
    const clock = new FakeClock()
    let puts = 0
    const backend: StorageBackend = {
      get: async () => undefined,
      put: async () => {
        puts++
        throw new Error('write failed')
      },
      delete: async () => {},
      clear: async () => {},
      entries: async () => [],
      recreate: async () => {},
    }
    const s = new UniversalStorage<number>('cart', backend, { clock })
    for (let i = 0; i < 29; i++) await s.setItem(`k${i}`, i)
    expect(s.writesDisabled).toBe(false)
    await s.setItem('k29', 29)
    expect(s.writesDisabled).toBe(true)
    expect(puts).toBe(30)
    await s.setItem('k30', 30)
    expect(puts).toBe(30)
    expect(await s.getItem('k30')).toBe(30)
    expect(await s.getItem('k5')).toBe(5)
  })

  it('a hanging write times out after 800 ms, recreates the database, and the value stays readable', async () => {
    const { clock, db, backend, s } = stalled('orders', { put: 1 })
    const w = s.setItem('o1', { order_id: 'o1' })
    await clock.advance(800)
    await w
    expect(s.writeErrors).toBe(1)
    expect(backend.recreated).toBe(1)
    expect(await s.getItem('o1')).toEqual({ order_id: 'o1' })
    db.close()
  })

  it('a value that only reached memory is written to IndexedDB once it answers again (#1335)', async () => {
    const { clock, db, s } = stalled('orders', { put: 1 })
    const w = s.setItem('o1', { order_id: 'o1' })
    await clock.advance(800)
    await w
    await flush(20)
    await s.setItem('o2', { order_id: 'o2' })
    const fresh = new UniversalStorage('orders', idbBackend(db, 'orders'))
    expect(await fresh.getItem('o1')).toEqual({ order_id: 'o1' })
    expect(await fresh.getItem('o2')).toEqual({ order_id: 'o2' })
    db.close()
  })

  it('QuotaExceeded clears the non-preserved collections and retries the write once', async () => {
    const clock = new FakeClock()
    const code = uniqueStore()
    let quotaFailures = 1
    const manager = new StorageManager({
      storeCode: code,
      clock,
      backendFor: (c, db) => {
        const inner = idbBackend(db, c)
        if (c !== 'cart') return inner
        return {
          ...inner,
          put: async (k, v) => {
            if (quotaFailures-- > 0) throw new DOMException('full', 'QuotaExceededError')
            return inner.put(k, v)
          },
        }
      },
    })
    const cache = manager.get('elasticCache')
    const user = manager.get('user')
    const orders = manager.get('orders')
    await cache.setItem('q1', { items: [] })
    await user.setItem('current-user', { id: 1 })
    await orders.setItem('o1', { order_id: 'o1' })
    await manager.get('cart').setItem('current-cart', [{ sku: 'A' }])
    expect(await manager.get('cart').getItem('current-cart')).toEqual([{ sku: 'A' }])
    expect(manager.get('cart').writeErrors).toBe(0)
    expect(await cache.getItem('q1')).toBeNull()
    expect(await user.getItem('current-user')).toEqual({ id: 1 })
    expect(await orders.getItem('o1')).toEqual({ order_id: 'o1' })
    manager.database.close()
  })
})

describe('catalogue cache', () => {
  const empty = () => ({ items: [] as unknown[], total: 0 })

  it('serves a repeated request from the cache by request hash, flagged cache (and offline when offline)', async () => {
    const code = uniqueStore()
    const manager = new StorageManager({ storeCode: code })
    let online = true
    const cache = createCatalogCache(manager.get('elasticCache', { memoryFirst: true }) as never, {
      isOnline: () => online,
    })
    const fetcher = vi.fn(async () => ({ items: [{ sku: 'A' }], total: 1 }))
    const req = { store: 'default', type: 'product', searchQuery: { a: 1, b: [2] }, size: 24, from: 0 }
    const first = await cache.search(req, fetcher, empty)
    expect(first).toEqual({ items: [{ sku: 'A' }], total: 1 })
    online = false
    // Same request with keys in another order and a group token: same hash.
    const again = await cache.search(
      {
        from: 0,
        size: 24,
        searchQuery: { b: [2], a: 1 },
        type: 'product',
        store: 'default',
        groupToken: 'x',
      },
      fetcher,
      empty,
    )
    expect(fetcher).toHaveBeenCalledTimes(1)
    expect(again).toMatchObject({ items: [{ sku: 'A' }], cache: true, offline: true })
    const other = await cache.search({ ...req, from: 24 }, fetcher, empty)
    expect(fetcher).toHaveBeenCalledTimes(2)
    expect(other.cache).toBeUndefined()
    manager.database.close()
  })

  it('a failed fetch returns an empty result flagged offline', async () => {
    const manager = new StorageManager({ storeCode: uniqueStore() })
    const cache = createCatalogCache(manager.get('elasticCache') as never)
    const res = await cache.search({ q: 1 }, () => Promise.reject(new TypeError('Failed to fetch')), empty)
    expect(res).toMatchObject({ items: [], offline: true, noresults: true })
    manager.database.close()
  })

  it('every 30 s checks the rough size and purges the 100 oldest entries when over 4096 KB', async () => {
    const clock = new FakeClock()
    const manager = new StorageManager({ storeCode: uniqueStore(), clock })
    const storage = manager.get('elasticCache')
    const cache = createCatalogCache(storage as never, { clock })
    // 150 entries of ~32 KB each (16k chars × 2 bytes) ≈ 4.8 MB > 4096 KB.
    const blob = 'x'.repeat(16 * 1024)
    for (let i = 0; i < 150; i++) {
      await cache.search({ page: i }, async () => ({ items: [blob], total: 1 }), empty)
      await clock.advance(1)
    }
    const stop = cache.startQuotaWatch()
    await clock.advance(29_999)
    expect((await storage.keys()).length).toBe(150)
    await clock.advance(1)
    await vi.waitFor(async () => expect((await storage.keys()).length).toBe(50))
    // The oldest (first stored) are gone, the newest stay.
    const fetcher = vi.fn(async () => ({ items: [], total: 0 }))
    await cache.search({ page: 149 }, fetcher, empty)
    expect(fetcher).not.toHaveBeenCalled()
    await cache.search({ page: 0 }, fetcher, empty)
    expect(fetcher).toHaveBeenCalledTimes(1)
    // Under quota now: the next check purges nothing.
    expect(await cache.enforceQuota()).toEqual([])
    stop()
    manager.database.close()
  })

  it('roughSizeOfObject counts strings at 2 bytes per char', () => {
    expect(roughSizeOfObject('abcd')).toBe(8)
    expect(roughSizeOfObject({ a: 'xy', n: 1, b: true })).toBe(2 + 4 + 2 + 8 + 2 + 4)
  })
})

describe('claims', () => {
  it('keeps code, value, description and created_at locally', async () => {
    const manager = new StorageManager({ storeCode: uniqueStore() })
    const claims = createClaims(manager.get('claims') as never, () => Date.UTC(2026, 0, 1))
    await claims.set('onboardingAccepted', true, 'accepted the onboarding')
    expect(await claims.get('onboardingAccepted')).toEqual({
      code: 'onboardingAccepted',
      value: true,
      description: 'accepted the onboarding',
      created_at: '2026-01-01T00:00:00.000Z',
    })
    manager.database.close()
    const raw = await openDB(manager.database.name)
    expect(raw.objectStoreNames.contains(`${manager.database.storeCode}-claims`)).toBe(true)
    raw.close()
  })
})
