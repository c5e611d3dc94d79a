/**
 * A collection's storage whose writes survive the page being left before IndexedDB has them.
 *
 * A write reaches IndexedDB only after a transaction has committed (and, for a lazy collection,
 * after the storage code has loaded); a page that is left or reloaded at once aborts its pending
 * transaction, and a shopper who adds a piece to the compare list or the bag and leaves would lose
 * it. So each write (a value, or a key's removal) is also kept at once, synchronously, in
 * localStorage, per store view, collection and key, until IndexedDB has it. The next read of the
 * key takes a kept write first (it is newer than what IndexedDB holds), writes it to IndexedDB and
 * lets it go. Without localStorage (private modes, quota) writes go to IndexedDB alone.
 *
 * `lazyCollection` is such a storage whose code (the storage manager, IndexedDB and its wrapper) is
 * fetched on the first read or write, for the stores a page reads after it hydrates (wishlist,
 * compare, recently viewed): a page that never starts the runtime does not carry the storage code
 * in the JS it loads up front. The cart keeps its writes the same way (client/engines/runtime).
 */
import type { UniversalStorage } from './universal-storage'

type ItemStorage<T> = Pick<UniversalStorage<T>, 'getItem' | 'setItem' | 'removeItem'>
/** What kept writes go to: the collection's storage, once loaded (tests give their own). */
type Loader<T> = () => Promise<Pick<UniversalStorage<T>, 'getItem' | 'setItem' | 'removeItem' | 'hasSaved'>>

/** A kept removal: no JSON text is this. */
const REMOVED = '\u0000removed'

/** Where a write waiting for IndexedDB is kept: per store view, collection and key. */
function pendingKey(name: string, key: string): string {
  const store = globalThis.document?.documentElement?.dataset.store ?? ''
  return `pending-write:${store}:${name}:${key}`
}

function keep(name: string, key: string, text: string): void {
  try {
    globalThis.localStorage?.setItem(pendingKey(name, key), text)
  } catch {
    // No localStorage (or no room): IndexedDB alone keeps the write, and an older kept write of
    // the key goes, so the next read does not take it over this one.
    try {
      globalThis.localStorage?.removeItem(pendingKey(name, key))
    } catch {
      // No localStorage at all.
    }
  }
}

function kept(name: string, key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(pendingKey(name, key)) ?? null
  } catch {
    return null
  }
}

/** Lets a kept write go once IndexedDB has it, unless a newer write replaced it meanwhile. */
function release(name: string, key: string, text: string): void {
  try {
    if (kept(name, key) === text) globalThis.localStorage?.removeItem(pendingKey(name, key))
  } catch {
    // Nothing kept.
  }
}

export function keptWrites<T>(name: string, storage: Loader<T>): ItemStorage<T> {
  /** Makes IndexedDB hold the kept write `text` (a value's JSON, or REMOVED), then lets it go. */
  const write = async (key: string, text: string, value?: T) => {
    const s = await storage()
    if (text === REMOVED) await s.removeItem(key)
    else await s.setItem(key, value as T)
    if (s.hasSaved(key)) release(name, key, text)
  }
  return {
    getItem: async (key) => {
      const text = kept(name, key)
      if (text === null) return (await storage()).getItem(key)
      // A storage that cannot load fails the read as it always did, and the kept write stays.
      if (text === REMOVED) {
        await write(key, text)
        return null
      }
      let value: T
      try {
        value = JSON.parse(text) as T
      } catch {
        release(name, key, text)
        return (await storage()).getItem(key)
      }
      await write(key, text, value)
      return value
    },
    setItem: (key, value) => {
      const text = JSON.stringify(value)
      keep(name, key, text)
      return write(key, text, value)
    },
    removeItem: (key) => {
      keep(name, key, REMOVED)
      return write(key, REMOVED)
    },
  }
}

/** A collection whose storage code loads on its first read or write, its writes kept until saved. */
export function lazyCollection<T>(
  name: string,
  storage: Loader<T> = () => import('./storage-manager').then((m) => m.collection<T>(name)),
): ItemStorage<T> {
  return keptWrites(name, storage)
}
