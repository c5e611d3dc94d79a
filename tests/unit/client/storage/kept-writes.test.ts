import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { keptWrites, lazyCollection as lazy } from '../../../../client/storage/kept-writes'

/** The collection behind every lazy collection of these tests: IndexedDB as a map that may stop answering. */
const saved = new Map<string, unknown>()
let hang = false
const fakeCollection = {
  getItem: async (key: string) => saved.get(key) ?? null,
  setItem: (key: string, value: unknown) =>
    hang
      ? new Promise<void>(() => {})
      : Promise.resolve().then(() => {
          saved.set(key, value)
        }),
  removeItem: (key: string) =>
    hang
      ? new Promise<void>(() => {})
      : Promise.resolve().then(() => {
          saved.delete(key)
        }),
  hasSaved: () => true,
}
const lazyCollection = (name: string) => lazy<unknown>(name, async () => fakeCollection)

/** localStorage as the browser has it. */
function fakeLocalStorage() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, String(v)),
    removeItem: (k: string) => void items.delete(k),
  }
}

let local: ReturnType<typeof fakeLocalStorage>
beforeEach(() => {
  saved.clear()
  hang = false
  local = fakeLocalStorage()
  vi.stubGlobal('localStorage', local)
})
afterEach(() => vi.unstubAllGlobals())

describe('kept writes (the cart; wishlist, compare and recently viewed as lazy collections)', () => {
  it('keeps a write IndexedDB has not taken when the page is left, and the next page reads it', async () => {
    saved.set('current-compare', [{ sku: 'OLD' }])
    hang = true
    // The shopper adds a piece and the page goes away before IndexedDB has the write.
    void lazyCollection('compare').setItem('current-compare', [{ sku: 'OLD' }, { sku: 'NEW' }])
    await new Promise((r) => setTimeout(r, 10))
    expect(saved.get('current-compare')).toEqual([{ sku: 'OLD' }])

    hang = false
    const next = lazyCollection('compare')
    expect(await next.getItem('current-compare')).toEqual([{ sku: 'OLD' }, { sku: 'NEW' }])
    // Written to IndexedDB and let go.
    expect(saved.get('current-compare')).toEqual([{ sku: 'OLD' }, { sku: 'NEW' }])
    expect(local.items.size).toBe(0)
    expect(await next.getItem('current-compare')).toEqual([{ sku: 'OLD' }, { sku: 'NEW' }])
  })

  it('lets a write go once IndexedDB has it, and keeps nothing for a read', async () => {
    const c = lazyCollection('wishlist')
    await c.setItem('current-wishlist', [{ sku: 'A' }])
    expect(local.items.size).toBe(0)
    expect(await c.getItem('current-wishlist')).toEqual([{ sku: 'A' }])
  })

  it('keeps the newest of two writes when the older one lands last', async () => {
    hang = true
    const c = lazyCollection('compare')
    void c.setItem('current-compare', [{ sku: 'A' }])
    hang = false
    await c.setItem('current-compare', [{ sku: 'A' }, { sku: 'B' }])
    expect(local.items.size).toBe(0)
    hang = true
    void c.setItem('current-compare', [{ sku: 'C' }])
    await new Promise((r) => setTimeout(r, 10))
    expect(JSON.parse([...local.items.values()][0] ?? 'null')).toEqual([{ sku: 'C' }])
  })

  it('keeps a kept write while the storage code cannot load, and reads it once it can', async () => {
    hang = true
    void lazyCollection('compare').setItem('current-compare', [{ sku: 'NEW' }])
    await new Promise((r) => setTimeout(r, 10))
    hang = false
    const offline = lazy<unknown>('compare', () => Promise.reject(new Error('chunk not loaded')))
    await expect(offline.getItem('current-compare')).rejects.toThrow('chunk not loaded')
    expect(local.items.size).toBe(1)
    expect(await lazyCollection('compare').getItem('current-compare')).toEqual([{ sku: 'NEW' }])
    expect(local.items.size).toBe(0)
  })

  it('writes to IndexedDB alone without localStorage', async () => {
    vi.stubGlobal('localStorage', undefined)
    const c = lazyCollection('compare')
    await c.setItem('current-compare', [{ sku: 'A' }])
    expect(await c.getItem('current-compare')).toEqual([{ sku: 'A' }])
  })

  it('keeps a removal IndexedDB has not taken: the next page reads nothing and IndexedDB loses the key', async () => {
    saved.set('current-cart-token', 'cart-1')
    hang = true
    void keptWrites('cart', async () => fakeCollection).removeItem('current-cart-token')
    await new Promise((r) => setTimeout(r, 10))
    expect(saved.get('current-cart-token')).toBe('cart-1')

    hang = false
    const next = keptWrites('cart', async () => fakeCollection)
    expect(await next.getItem('current-cart-token')).toBeNull()
    expect(saved.has('current-cart-token')).toBe(false)
    expect(local.items.size).toBe(0)
  })

  it('keeps a removal until IndexedDB has it, whatever the storage answered', async () => {
    saved.set('current-cart-hash', 'h1')
    const unsaved = { ...fakeCollection, hasSaved: () => false }
    const cart = keptWrites('cart', async () => unsaved)
    await cart.removeItem('current-cart-hash')
    expect(local.items.size).toBe(1)
    // A value set after it replaces the kept removal.
    await keptWrites('cart', async () => fakeCollection).setItem('current-cart-hash', 'h2')
    expect(local.items.size).toBe(0)
    expect(await cart.getItem('current-cart-hash')).toBe('h2')
  })

  it('lets an older kept write go when localStorage has no room for a newer one', async () => {
    hang = true
    void lazyCollection('compare').setItem('current-compare', [{ sku: 'OLD' }])
    await new Promise((r) => setTimeout(r, 10))
    expect(local.items.size).toBe(1)
    hang = false
    local.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError')
    }
    await lazyCollection('compare').setItem('current-compare', [{ sku: 'NEW' }])
    expect(local.items.size).toBe(0)
    expect(await lazyCollection('compare').getItem('current-compare')).toEqual([{ sku: 'NEW' }])
  })
})
