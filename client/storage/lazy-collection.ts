/**
 * A collection's storage whose code (the storage manager, IndexedDB and its wrapper) is fetched on
 * the first read or write, for the stores a page reads after it hydrates (wishlist, compare,
 * recently viewed): a page that never starts the runtime does not carry the storage code in the
 * JS it loads up front. Reads and writes go to the same collection `collection(name)` answers.
 */
import type { UniversalStorage } from './universal-storage'

type ItemStorage<T> = Pick<UniversalStorage<T>, 'getItem' | 'setItem'>

export function lazyCollection<T>(name: string): ItemStorage<T> {
  const storage = () => import('./storage-manager').then((m) => m.collection<T>(name))
  return {
    getItem: (key) => storage().then((s) => s.getItem(key)),
    setItem: (key, value) => storage().then((s) => s.setItem(key, value)),
  }
}
