/**
 * Coming back from a product page restores the scroll position to the clicked product (after
 * 100 ms, 150 px above it), and a return to the same category reloads as many items as were
 * loaded before. The clicked sku and the loaded count are kept in sessionStorage: category state
 * that must survive the round trip to the product page.
 */
import { MAX_LISTING_PAGE_SIZE } from '@shared/config/catalog'
import { SCROLL_RESTORE_DELAY_MS, SCROLL_RESTORE_OFFSET_PX } from '@shared/config/ui'

export const SCROLL_RESTORE_KEY = 'category-scroll'

interface ScrollRecord {
  /** pathname + search of the listing. */
  url: string
  sku: string
  /** Products fetched when the tile was clicked (the reload target). */
  loaded: number
}

interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** Remembers the clicked product of a listing. */
export function saveScrollRecord(store: KeyValueStore, record: ScrollRecord): void {
  try {
    store.setItem(SCROLL_RESTORE_KEY, JSON.stringify(record))
  } catch {
    // Storage full or disabled: nothing to restore later.
  }
}

/** Reads (and consumes) the record for `url`; null when absent, malformed or for another listing. */
export function takeScrollRecord(store: KeyValueStore, url: string): ScrollRecord | null {
  let raw: string | null = null
  try {
    raw = store.getItem(SCROLL_RESTORE_KEY)
  } catch {
    return null
  }
  if (!raw) return null
  try {
    const rec = JSON.parse(raw) as Partial<ScrollRecord>
    if (rec.url !== url || typeof rec.sku !== 'string' || typeof rec.loaded !== 'number') return null
    store.removeItem(SCROLL_RESTORE_KEY)
    return { url: rec.url, sku: rec.sku, loaded: rec.loaded }
  } catch {
    return null
  }
}

/**
 * The next request that brings the listing back towards `target` products (null if already there):
 * at most MAX_LISTING_PAGE_SIZE products, the most one listing request may ask for.
 */
export function restoreFetch(loaded: number, target: number): { from: number; size: number } | null {
  return target > loaded ? { from: loaded, size: Math.min(target - loaded, MAX_LISTING_PAGE_SIZE) } : null
}

/** The scroll top that puts an element `elementTop` (document coordinates) 150 px below the top. */
export function restoreScrollTop(elementTop: number): number {
  return Math.max(0, elementTop - SCROLL_RESTORE_OFFSET_PX)
}

/** The grid's class that draws every tile (catalog.css), whatever its distance from the screen. */
const GRID_ALL_DRAWN = 'product-grid--drawn'

/**
 * Scrolls to the product tile of `sku` after the 100 ms delay. Tiles far from the screen are
 * normally not drawn and stand in with an estimated height, so the product's place is measured
 * with every tile drawn; each tile then keeps its real height as the one it stands in with, and the
 * product stays where it was put.
 */
export function scrollToProduct(sku: string, delay = SCROLL_RESTORE_DELAY_MS): void {
  setTimeout(() => {
    const el = document.querySelector(`[data-tile-sku="${CSS.escape(sku)}"]`)
    if (!el) return
    const grid = el.closest('.product-grid')
    grid?.classList.add(GRID_ALL_DRAWN)
    const top = el.getBoundingClientRect().top + window.scrollY
    window.scrollTo({ top: restoreScrollTop(top), behavior: 'auto' })
    // Two frames: the real heights are remembered once a frame has been drawn with them.
    requestAnimationFrame(() => requestAnimationFrame(() => grid?.classList.remove(GRID_ALL_DRAWN)))
  }, delay)
}

/**
 * Scroll direction tracking for the mobile filter actions: shown after scrolling up more than
 * 50 px, hidden on any scroll down. Returns the new visibility and the new anchor position.
 */
export function filterActionsVisibility(
  state: { visible: boolean; anchor: number; last: number },
  y: number,
  threshold: number,
): { visible: boolean; anchor: number; last: number } {
  if (y > state.last) return { visible: false, anchor: y, last: y }
  const visible = state.visible || state.anchor - y > threshold
  return { visible, anchor: state.anchor, last: y }
}
