/**
 * The live stock of the pages this isolate has read, by the page's ids, with the stock clock it was
 * read at and the documents merged with it. A page read tells its statement the clock held for its
 * page (migration 0400 moves the clock with every change to a row of inventory); while the clock is
 * unchanged the statement leaves the stock out and the held stock is the current stock. Otherwise
 * the stock comes back as text, and text equal to the held text is the same rows: the held objects
 * stay. So the parsed rows and the documents merged with them are the same objects for as long as
 * the page's stock is the same, and anything kept by a merged document's identity (a tile's view
 * model, its markup) follows stock exactly: a stock change is other text, so other objects.
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
  text: string
  inventory: Map<string, InventoryRow>
  merged: WeakMap<Product, Product>
  bytes: number
}

/** A page's stock and the clock it was read at (null: the database has no clock). */
interface HeldStock {
  clock: number | null
  page: StockPage
}

const stockPages = createMemo<HeldStock>({
  name: 'search live stock',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 512,
  maxBytes: LIVE_STOCK_MAX_BYTES,
  sizeOf: (h) => h.page.bytes,
  version: indexVersionSeen,
})

/** The parsed stock rows of a statement's `inv` text. */
function parseStock(text: string): StockPage {
  const inventory = new Map<string, InventoryRow>()
  for (const r of text ? (JSON.parse(text) as InventoryRow[]) : []) inventory.set(r.sku, r)
  return {
    text,
    inventory,
    merged: new WeakMap(),
    bytes: text.length * STOCK_HEAP_PER_TEXT_BYTE + STOCK_PAGE_OVERHEAD,
  }
}

/** The stock of a read that returned none (merged as no rows; never kept for a page). */
const NO_STOCK = parseStock('')

/** The columns of a page read that carry its stock: the clock (`clk`) and the rows (`inv`). */
interface StockColumns {
  clk?: string | number | null
  inv?: string | number | null
}

/** A page's stock as its read is about to ask for it. */
interface PageStock {
  /** The clock at which the isolate holds this page's stock (bound as the read's held clock), or null. */
  clock: number | null
  /**
   * A merger of documents with the stock the read answered: its `inv` text, or (NULL because the
   * clock was the one held) the stock held. The same document and the same stock give the same
   * (frozen) object, so callers never change what they get.
   */
  merger(row: StockColumns): (doc: Product) => Product
}

/** The stock held for the page of `ids` (in page order), to ask for its stock with. */
export function pageStock(ids: readonly number[]): PageStock {
  const key = ids.join(',')
  // Taken now: a later read of this page may replace the entry before this read answers.
  const held = stockPages.peek(key)
  return {
    clock: held?.clock ?? null,
    merger(row) {
      const clock = typeof row.clk === 'number' ? row.clk : null
      let page: StockPage
      if (row.inv === null && held && clock !== null && clock === held.clock) page = held.page
      else if (typeof row.inv === 'string') {
        const text = row.inv
        const now = stockPages.peek(key)
        page = now?.page.text === text ? now.page : held?.page.text === text ? held.page : parseStock(text)
      } else page = NO_STOCK
      if (page !== NO_STOCK) stockPages.set(key, { clock, page })
      return (doc) => {
        let merged = page.merged.get(doc)
        if (!merged) {
          merged = deepFreeze(mergeInventory(doc, page.inventory))
          page.merged.set(doc, merged)
        }
        return merged
      }
    },
  }
}
