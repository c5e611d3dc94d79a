/**
 * Recently viewed products: maximum 20, newest first, a
 * revisit moves the item to the front. Persisted to browser storage after each change.
 */
import { signal } from '@preact/signals-core'
import { isProductSummary, type ProductSummary } from '@shared/components/product/summary'
import { RECENTLY_VIEWED_MAX } from '@shared/config/lists'
import { addRecentlyViewed } from '@shared/domain/lists'
import { lazyCollection } from '../storage/lazy-collection'

/** The subset of the storage API the list stores use (UniversalStorage satisfies it). */
export interface ListStorage<T> {
  getItem(key: string): Promise<T | null>
  setItem(key: string, value: T): Promise<void>
}

const STORAGE_KEY = 'items'

/** Creates a recently-viewed store over `storage` (tests inject an in-memory one). */
export function createRecentlyViewedStore(storage: () => ListStorage<ProductSummary[]>) {
  const items = signal<ProductSummary[]>([])
  const loaded = signal(false)
  let loading: Promise<void> | null = null

  /** Reads the saved list once; later calls share the first read. */
  function load(): Promise<void> {
    if (!loading) {
      loading = storage()
        .getItem(STORAGE_KEY)
        .then((saved) => {
          // Anything viewed before the read finished stays in front.
          const fromStorage = Array.isArray(saved) ? saved.filter(isProductSummary) : []
          let merged = fromStorage
          for (const item of [...items.value].reverse())
            merged = addRecentlyViewed(merged, item, RECENTLY_VIEWED_MAX)
          items.value = merged.slice(0, RECENTLY_VIEWED_MAX)
        })
        .catch((err) => console.warn('[recently-viewed] load failed', err))
        .finally(() => {
          loaded.value = true
        })
    }
    return loading
  }

  /** Records a product view: it moves to the front; the list keeps the newest 20. */
  async function add(item: ProductSummary): Promise<void> {
    await load()
    items.value = addRecentlyViewed(items.value, item, RECENTLY_VIEWED_MAX)
    try {
      await storage().setItem(STORAGE_KEY, items.value)
    } catch (err) {
      console.warn('[recently-viewed] save failed', err)
    }
  }

  return { items, loaded, load, add }
}

export const recentlyViewed = createRecentlyViewedStore(() =>
  lazyCollection<ProductSummary[]>('recentlyViewed'),
)
