/**
 * Recently viewed products: maximum 20, newest first, a
 * revisit moves the item to the front. Persisted to browser storage after each change.
 */
import { isProductSummary, type ProductSummary } from '@shared/components/product/summary'
import { RECENTLY_VIEWED_MAX } from '@shared/config/lists'
import { addRecentlyViewed } from '@shared/domain/lists'
import { lazyCollection } from '../storage/kept-writes'
import { type ListStorage, storedList } from './stored-list'

const STORAGE_KEY = 'items'

/**
 * Views not saved yet, kept synchronously: the browser storage is reached only after its code and
 * the saved list arrive, and a page left before then must not lose its view. The next page's load
 * merges them; a successful save clears them.
 */
interface PendingViews {
  read(): ProductSummary[]
  write(items: ProductSummary[]): void
  clear(): void
}

const PENDING_KEY = 'recently-viewed-pending'
/** The tab's session storage (nothing pending where it cannot be used). */
const sessionPending: PendingViews = {
  read() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? '[]')
      return Array.isArray(saved) ? saved.filter(isProductSummary) : []
    } catch {
      return []
    }
  },
  write(items) {
    try {
      sessionStorage.setItem(PENDING_KEY, JSON.stringify(items))
    } catch {}
  },
  clear() {
    try {
      sessionStorage.removeItem(PENDING_KEY)
    } catch {}
  },
}

/** Creates a recently-viewed store over `storage` (tests inject an in-memory one). */
export function createRecentlyViewedStore(
  storage: () => ListStorage<ProductSummary[]>,
  pending: PendingViews = sessionPending,
) {
  const list = storedList(storage, STORAGE_KEY, 'recently-viewed')
  const { items } = list

  /** Reads the saved list once; later calls share the first read. */
  function load(): Promise<void> {
    return list.loadOnce(async () => {
      // Views not saved by an earlier page, then anything viewed before the read finished,
      // stay in front, newest first.
      let merged = await list.read()
      for (const item of [...pending.read()].reverse())
        merged = addRecentlyViewed(merged, item, RECENTLY_VIEWED_MAX)
      for (const item of [...items.value].reverse())
        merged = addRecentlyViewed(merged, item, RECENTLY_VIEWED_MAX)
      items.value = merged.slice(0, RECENTLY_VIEWED_MAX)
    })
  }

  /** Records a product view: it moves to the front; the list keeps the newest 20. */
  async function add(item: ProductSummary): Promise<void> {
    pending.write(addRecentlyViewed(pending.read(), item, RECENTLY_VIEWED_MAX))
    await load()
    items.value = addRecentlyViewed(items.value, item, RECENTLY_VIEWED_MAX)
    if (await list.save()) pending.clear()
  }

  return { items, loaded: list.loaded, load, add }
}

export const recentlyViewed = createRecentlyViewedStore(() =>
  lazyCollection<ProductSummary[]>('recentlyViewed'),
)
