/**
 * A collection's storage whose code (the storage manager, IndexedDB and its wrapper) is fetched on
 * the first read or write, for the stores a page reads after it hydrates (wishlist, compare,
 * recently viewed): a page that never starts the runtime does not carry the storage code in the
 * JS it loads up front. Reads and writes go to the same collection `collection(name)` answers.
 *
 * A write is also kept at once, synchronously, in localStorage until IndexedDB has it: the write
 * reaches IndexedDB only after the storage code has loaded and a transaction has committed, and a
 * shopper who adds a piece to the compare list and reloads or leaves at once would otherwise lose
 * it (the page's pending transaction is aborted with it). The next read takes a kept write first
 * (it is newer than what IndexedDB holds), writes it to IndexedDB and lets it go. Without
 * localStorage (private modes, quota) writes go to IndexedDB alone, as before.
 */
import type { UniversalStorage } from './universal-storage'

type ItemStorage<T> = Pick<UniversalStorage<T>, 'getItem' | 'setItem'>
/** What a lazy collection loads: the collection's storage (tests give their own). */
type Loader<T> = () => Promise<Pick<UniversalStorage<T>, 'getItem' | 'setItem' | 'hasSaved'>>

/** Where a write waiting for IndexedDB is kept: per store view, collection and key. */
function pendingKey(name: string, key: string): string {
  const store = globalThis.document?.documentElement?.dataset.store ?? ''
  return `pending-write:${store}:${name}:${key}`
}

function keep(name: string, key: string, text: string): void {
  try {
    globalThis.localStorage?.setItem(pendingKey(name, key), text)
  } catch {
    // No localStorage (or no room): IndexedDB alone keeps the write.
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

export function lazyCollection<T>(
  name: string,
  storage: Loader<T> = () => import('./storage-manager').then((m) => m.collection<T>(name)),
): ItemStorage<T> {
  const write = async (key: string, value: T, text: string) => {
    const s = await storage()
    await s.setItem(key, value)
    if (s.hasSaved(key)) release(name, key, text)
  }
  return {
    getItem: async (key) => {
      const text = kept(name, key)
      if (text === null) return (await storage()).getItem(key)
      let value: T
      try {
        value = JSON.parse(text) as T
      } catch {
        release(name, key, text)
        return (await storage()).getItem(key)
      }
      // A storage that cannot load fails the read as it always did, and the kept write stays.
      await write(key, value, text)
      return value
    },
    setItem: (key, value) => {
      const text = JSON.stringify(value)
      keep(name, key, text)
      return write(key, value, text)
    },
  }
}
