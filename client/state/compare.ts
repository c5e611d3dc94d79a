/**
 * Compare list: no duplicates by sku; notifications 'Product
 * {productName} has been added to the compare!' and '... removed from compare!'. Persisted to
 * browser storage after each change.
 */
import { computed, signal } from '@preact/signals-core'
import { isProductSummary, type ProductSummary } from '@shared/components/product/summary'
import { addToCompare, removeBySku, uniqueBySku } from '@shared/domain/lists'
import { msgCompareAdded, msgCompareRemoved } from '@shared/i18n/messages'
import { bus, EVENTS } from '../engines/runtime/events'
import { lazyCollection } from '../storage/lazy-collection'
import { notify as defaultNotify, type NotificationInput } from './notifications'
import type { ListStorage } from './recently-viewed'

const STORAGE_KEY = 'current-compare'

interface CompareDeps {
  storage: () => ListStorage<ProductSummary[]>
  notify?: (n: NotificationInput) => unknown
}

/** Creates a compare store (tests inject storage and notify). */
export function createCompareStore({ storage, notify = defaultNotify }: CompareDeps) {
  const items = signal<ProductSummary[]>([])
  const loaded = signal(false)
  const skus = computed(() => new Set(items.value.map((i) => i.sku)))
  let loading: Promise<void> | null = null

  function load(): Promise<void> {
    if (!loading) {
      loading = storage()
        .getItem(STORAGE_KEY)
        .then((saved) => {
          const fromStorage = Array.isArray(saved) ? saved.filter(isProductSummary) : []
          items.value = uniqueBySku([...fromStorage, ...items.value])
        })
        .catch((err) => console.warn('[compare] load failed', err))
        .finally(() => {
          loaded.value = true
        })
    }
    return loading
  }

  async function save(): Promise<void> {
    try {
      await storage().setItem(STORAGE_KEY, items.value)
    } catch (err) {
      console.warn('[compare] save failed', err)
    }
  }

  /** Adds the product unless its sku is already there; notifies and saves when it was added. */
  async function add(item: ProductSummary): Promise<boolean> {
    await load()
    const { list, added } = addToCompare(items.value, item)
    if (!added) return false
    items.value = list
    notify({ type: 'success', message: msgCompareAdded(item.name) })
    await save()
    return true
  }

  /** Removes the sku; notifies and saves when something was removed. */
  async function remove(sku: string): Promise<boolean> {
    await load()
    const found = items.value.find((i) => i.sku === sku)
    if (!found) return false
    items.value = removeBySku(items.value, sku).list
    notify({ type: 'success', message: msgCompareRemoved(found.name) })
    await save()
    return true
  }

  /** Empties the list (logout clears compare). */
  async function clear(): Promise<void> {
    items.value = []
    await save()
  }

  return { items, skus, loaded, load, add, remove, clear }
}

export const compare = createCompareStore({ storage: () => lazyCollection<ProductSummary[]>('compare') })

// Logout clears compare.
bus.on(EVENTS.userAfterLogout, () => void compare.clear())
