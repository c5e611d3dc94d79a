/**
 * The pages of live stock this isolate has parsed, by their exact text, with the documents merged
 * with them. Stock is read on every page request (it is never held across requests); when a page's
 * stock rows come back as the same text as an earlier read, they are the same rows, so the parsed
 * rows and the documents merged with them are the earlier objects. Anything kept by a merged
 * document's identity (a tile's view model, its markup) then follows stock exactly: a stock change
 * is other text, so other objects.
 */
import type { Product } from '@shared/schemas/catalog'
import { type InventoryRow, mergeInventory } from '../../catalog/products'
import { createMemo } from '../../platform/memo'
import { deepFreeze } from './documents'
import { indexVersionSeen } from './index-version'

/** Most heap bytes of stock pages (with their merged documents and what is kept by them) per isolate. */
const LIVE_STOCK_MAX_BYTES = 1.5 * 1024 * 1024

/**
 * Heap bytes a page's stock text stands for: the text, its parsed rows, the merged copies of the
 * page's documents (their variants and stock objects) and the tiles and markup kept by them;
 * about four times the text, measured on the seeded catalogue's pages.
 */
const STOCK_HEAP_PER_TEXT_BYTE = 8
const STOCK_PAGE_OVERHEAD = 2048

interface StockPage {
  inventory: Map<string, InventoryRow>
  merged: WeakMap<Product, Product>
  bytes: number
}

const stockPages = createMemo<StockPage>({
  name: 'search live stock',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 512,
  maxBytes: LIVE_STOCK_MAX_BYTES,
  sizeOf: (p) => p.bytes,
  version: indexVersionSeen,
})

/** The parsed stock rows of a statement's `inv` column, with the documents merged with them. */
function stockPage(text: string | number | null | undefined): StockPage {
  const key = typeof text === 'string' ? text : ''
  const kept = stockPages.peek(key)
  if (kept) return kept
  const inventory = new Map<string, InventoryRow>()
  for (const r of key ? (JSON.parse(key) as InventoryRow[]) : []) inventory.set(r.sku, r)
  const page = {
    inventory,
    merged: new WeakMap(),
    bytes: key.length * STOCK_HEAP_PER_TEXT_BYTE + STOCK_PAGE_OVERHEAD,
  }
  stockPages.set(key, page)
  return page
}

/**
 * A merger of documents with the live stock of a statement's `inv` column: the same document and
 * the same stock text give the same (frozen) object, so callers never change what they get.
 */
export function stockMerger(text: string | number | null | undefined): (doc: Product) => Product {
  const page = stockPage(text)
  return (doc) => {
    let merged = page.merged.get(doc)
    if (!merged) {
      merged = deepFreeze(mergeInventory(doc, page.inventory))
      page.merged.set(doc, merged)
    }
    return merged
  }
}
