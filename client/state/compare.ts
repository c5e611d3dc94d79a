/**
 * Compare list: no duplicates by sku; notifications 'Product
 * {productName} has been added to the compare!' and '... removed from compare!'. Persisted to
 * browser storage after each change.
 */
import type { ProductSummary } from '@shared/components/product/summary'
import { addToCompare, uniqueBySku } from '@shared/domain/lists'
import { msgCompareAdded, msgCompareRemoved } from '@shared/i18n/messages'
import { bus, EVENTS } from '../engines/runtime/events'
import { lazyCollection } from '../storage/kept-writes'
import { notify as defaultNotify, type NotificationInput } from './notifications'
import { type ListStorage, storedList } from './stored-list'

const STORAGE_KEY = 'current-compare'

interface CompareDeps {
  storage: () => ListStorage<ProductSummary[]>
  notify?: (n: NotificationInput) => unknown
}

/** Creates a compare store (tests inject storage and notify). */
export function createCompareStore({ storage, notify = defaultNotify }: CompareDeps) {
  const list = storedList(storage, STORAGE_KEY, 'compare')
  const { items, save } = list

  /** Reads the saved list once; anything added before the read finished stays after it. */
  function load(): Promise<void> {
    return list.loadOnce(async () => {
      items.value = uniqueBySku([...(await list.read()), ...items.value])
    })
  }

  /** Adds the product unless its sku is already there; notifies and saves when it was added. */
  async function add(item: ProductSummary): Promise<boolean> {
    await load()
    const { list: next, added } = addToCompare(items.value, item)
    if (!added) return false
    items.value = next
    notify({ type: 'success', message: msgCompareAdded(item.name) })
    await save()
    return true
  }

  /** Removes the sku; notifies and saves when something was removed. */
  async function remove(sku: string): Promise<boolean> {
    await load()
    const found = list.removeSku(sku)
    if (!found) return false
    notify({ type: 'success', message: msgCompareRemoved(found.name) })
    await save()
    return true
  }

  return { items, skus: list.skus, loaded: list.loaded, load, add, remove, clear: list.clear }
}

export const compare = createCompareStore({ storage: () => lazyCollection<ProductSummary[]>('compare') })

// Logout clears compare.
bus.on(EVENTS.userAfterLogout, () => void compare.clear())
