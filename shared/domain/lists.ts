/**
 * Pure list operations for recently viewed, compare and wishlist : items are
 * identified by sku; every function returns a new array and never mutates its input.
 */
import { RECENTLY_VIEWED_MAX, WISHLIST_DEFAULT_QTY } from '../config/lists'

interface SkuItem {
  sku: string
}

/** Recently viewed: the item goes to the front (a revisit moves it there), newest first, at most `max` (20). */
export function addRecentlyViewed<T extends SkuItem>(
  list: readonly T[],
  item: T,
  max: number = RECENTLY_VIEWED_MAX,
): T[] {
  return [item, ...list.filter((i) => i.sku !== item.sku)].slice(0, Math.max(0, max))
}

/** Compare: appends the item unless its sku is already present (no duplicates by sku). */
export function addToCompare<T extends SkuItem>(list: readonly T[], item: T): { list: T[]; added: boolean } {
  if (list.some((i) => i.sku === item.sku)) return { list: [...list], added: false }
  return { list: [...list, item], added: true }
}

/** Removes every item with this sku; `removed` tells whether anything was there. */
export function removeBySku<T extends SkuItem>(
  list: readonly T[],
  sku: string,
): { list: T[]; removed: boolean } {
  const next = list.filter((i) => i.sku !== sku)
  return { list: next, removed: next.length !== list.length }
}

/** Is this sku in the list? */
export function containsSku(list: readonly SkuItem[], sku: string): boolean {
  return list.some((i) => i.sku === sku)
}

interface WishlistEntry extends SkuItem {
  qty: number
}

/** Wishlist: adds the item if its sku is absent, with qty defaulting to 1; unchanged when present. */
export function addToWishlist<T extends SkuItem & { qty?: number | null }>(
  list: readonly (T & WishlistEntry)[],
  item: T,
): { list: (T & WishlistEntry)[]; added: boolean } {
  if (list.some((i) => i.sku === item.sku)) return { list: [...list], added: false }
  const qty = item.qty != null && item.qty > 0 ? item.qty : WISHLIST_DEFAULT_QTY
  return { list: [...list, { ...item, qty }], added: true }
}

/** Drops duplicate skus keeping the first occurrence (cleaning lists read from storage). */
export function uniqueBySku<T extends SkuItem>(list: readonly T[]): T[] {
  const seen = new Set<string>()
  return list.filter((i) => {
    if (seen.has(i.sku)) return false
    seen.add(i.sku)
    return true
  })
}
