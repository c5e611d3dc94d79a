/**
 * A product list kept in the browser's storage (compare, recently viewed, wishlist): the list in
 * memory, read from storage once (later loads share the first read) and saved after each change.
 * A failed read or write is logged; the list in memory stays as it is.
 */
import { computed, signal } from '@preact/signals-core'
import { isProductSummary, type ProductSummary } from '@shared/components/product/summary'
import { removeBySku } from '@shared/domain/lists'

/** The subset of the storage API the list stores use (UniversalStorage satisfies it). */
export interface ListStorage<T> {
  getItem(key: string): Promise<T | null>
  setItem(key: string, value: T): Promise<void>
}

/** The list under `key`; `name` tags its log lines. */
export function storedList<T extends ProductSummary>(
  storage: () => ListStorage<T[]>,
  key: string,
  name: string,
) {
  const items = signal<T[]>([])
  const loaded = signal(false)
  const skus = computed(() => new Set(items.value.map((i) => i.sku)))
  let loading: Promise<void> | null = null

  /** The saved entries that are product summaries; anything else reads as none. */
  async function read(): Promise<T[]> {
    const saved = await storage().getItem(key)
    return Array.isArray(saved) ? (saved.filter(isProductSummary) as T[]) : []
  }

  /** Writes the list; true when it was written. */
  async function save(): Promise<boolean> {
    try {
      await storage().setItem(key, items.value)
      return true
    } catch (err) {
      console.warn(`[${name}] save failed`, err)
      return false
    }
  }

  /** Runs `fill` once and marks the list loaded when it settles; later calls share that run. */
  function loadOnce(fill: () => Promise<void>): Promise<void> {
    if (!loading) {
      loading = fill()
        .catch((err) => console.warn(`[${name}] load failed`, err))
        .finally(() => {
          loaded.value = true
        })
    }
    return loading
  }

  /** Forgets the load: the next loadOnce runs again. */
  function reset(): void {
    loading = null
    loaded.value = false
  }

  /** Takes the sku out of the list; the entry it removed, or undefined when it was not there. */
  function removeSku(sku: string): T | undefined {
    const found = items.value.find((i) => i.sku === sku)
    if (found) items.value = removeBySku(items.value, sku).list
    return found
  }

  /** Empties the list and saves the empty list. */
  async function clear(): Promise<void> {
    items.value = []
    await save()
  }

  return { items, loaded, skus, read, save, loadOnce, reset, removeSku, clear }
}
