/**
 * Products from D1 with LIVE inventory merged in. Product documents are stored whole in
 * `products.doc` (validated with ProductSchema when written by the seed or the import); stock is
 * read from `inventory` (which orders decrement) and overrides every `stock` object on the way out.
 *
 * Exports used by other areas: getProductsBySku (cart/order), getProductById, getProductByUrlPath,
 * getProductsByIds, mergeInventory.
 */
import { isSellable } from '@shared/domain/availability'
import type { ConfigurableChild, Product } from '@shared/schemas/catalog'
import { chunk, parseDoc, placeholders } from './db'

export interface InventoryRow {
  sku: string
  product_id: number
  parent_sku: string | null
  qty: number
  is_in_stock: number
  /** 0 = quantity not tracked (always sellable); absent on rows read before the column existed. */
  manage_stock?: number
  /** > 0 = sellable at or below zero quantity. */
  backorders?: number
}

/** The columns of an inventory row, in InventoryRow's order. */
const STOCK_COLUMNS = 'sku, product_id, parent_sku, qty, is_in_stock, manage_stock, backorders'

/** A row of the sku lookup: a product document, or (doc null) an inventory row. */
type LookupRow = ({ doc: string } & Record<keyof InventoryRow, null>) | ({ doc: null } & InventoryRow)

/** What a sku resolves to: the product document and, for a configurable child sku, that child. */
export interface ProductBySku {
  product: Product
  child?: ConfigurableChild
}

/** The stock object of a live inventory row: Magento's fields, and is_in_stock = sellable now. */
export function stockOfRow(row: InventoryRow) {
  const fields = {
    qty: row.qty,
    is_in_stock: row.is_in_stock === 1,
    manage_stock: row.manage_stock !== 0,
    backorders: row.backorders ?? 0,
  }
  const inStock = isSellable(fields)
  return { ...fields, is_in_stock: inStock, stock_status: inStock ? 1 : 0 }
}

function stockOf(row: InventoryRow | undefined, fallback: Product['stock'] | undefined) {
  if (!row) return fallback ?? { qty: 0, is_in_stock: false, stock_status: 0 }
  return { ...(fallback ?? {}), ...stockOfRow(row) }
}

/**
 * Returns a copy of `product` whose stock (and every configurable child's stock) reflects the
 * inventory rows. A configurable parent is in stock when its own flag allows it and at least one
 * enabled child is in stock; its qty is the sum of its enabled children's.
 */
export function mergeInventory(product: Product, inventory: ReadonlyMap<string, InventoryRow>): Product {
  if (product.type_id === 'configurable' && product.configurable_children.length > 0) {
    const children = product.configurable_children.map((child) => ({
      ...child,
      stock: stockOf(inventory.get(child.sku), child.stock),
    }))
    const anyInStock = children.some((ch) => ch.stock.is_in_stock && (ch.status ?? 1) < 2)
    // A disabled variant is not sold: it adds nothing to the parent's quantity.
    const qty = children.reduce((sum, ch) => sum + ((ch.status ?? 1) < 2 ? (ch.stock.qty ?? 0) : 0), 0)
    // The parent's stored flag is a manual switch (an out-of-stock parent stays out of stock).
    const parentFlag = product.stock?.is_in_stock !== false
    const inStock = parentFlag && anyInStock
    return {
      ...product,
      configurable_children: children,
      stock: { ...product.stock, qty, is_in_stock: inStock, stock_status: inStock ? 1 : 0 },
    }
  }
  return { ...product, stock: stockOf(inventory.get(product.sku), product.stock) }
}

/** Loads inventory rows for the given products (their own sku and their children's). */
async function loadInventoryFor(
  db: D1Database,
  productSkus: readonly string[],
): Promise<Map<string, InventoryRow>> {
  const out = new Map<string, InventoryRow>()
  const unique = [...new Set(productSkus)]
  const parts = chunk(unique, 45)
  if (parts.length === 0) return out
  const results = await db.batch<InventoryRow>(
    parts.map((part) =>
      db
        .prepare(
          `SELECT ${STOCK_COLUMNS} FROM inventory
           WHERE sku IN (${placeholders(part.length)}) OR parent_sku IN (${placeholders(part.length)})`,
        )
        .bind(...part, ...part),
    ),
  )
  for (const res of results) for (const row of res.results) out.set(row.sku, row)
  return out
}

/** Parses product rows and merges live inventory into each. */
async function withInventory(db: D1Database, docs: readonly string[]): Promise<Product[]> {
  const products = docs.map((d) => parseDoc<Product>(d))
  if (products.length === 0) return []
  const inventory = await loadInventoryFor(
    db,
    products.map((p) => p.sku),
  )
  return products.map((p) => mergeInventory(p, inventory))
}

/**
 * Resolves skus to products with live stock. A parent or standalone sku maps to its document; a
 * configurable child sku maps to its parent's document plus that child. Unknown skus are absent
 * from the map. Disabled products are returned too (callers decide what status means to them).
 */
export async function getProductsBySku(
  db: D1Database,
  skus: string[],
): Promise<Map<string, { product: Product; child?: ConfigurableChild }>> {
  const result = new Map<string, ProductBySku>()
  const wanted = [...new Set(skus.filter((s) => typeof s === 'string' && s.length > 0))]
  if (wanted.length === 0) return result

  // One statement: the documents of the products the skus name (a configurable child's sku names
  // its parent), after the live inventory rows of those products and their children. The rows of
  // the requested skus are among those, so they also tell which requested skus are children.
  const rows = await db
    .prepare(
      `WITH d AS (SELECT DISTINCT COALESCE((SELECT parent_sku FROM inventory i WHERE i.sku = j.value), j.value) AS s FROM json_each(?1) j)
         SELECT NULL AS doc, ${STOCK_COLUMNS} FROM inventory WHERE sku IN (SELECT s FROM d)
         UNION SELECT NULL, ${STOCK_COLUMNS} FROM inventory WHERE parent_sku IN (SELECT s FROM d)
         UNION ALL SELECT doc, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM products WHERE sku IN (SELECT s FROM d)`,
    )
    .bind(JSON.stringify(wanted))
    .all<LookupRow>()
  const inventory = new Map<string, InventoryRow>()
  const docs: string[] = []
  for (const row of rows.results ?? []) {
    if (row.doc !== null) docs.push(row.doc)
    else inventory.set(row.sku, row)
  }
  const parentOf = new Map<string, string>()
  for (const sku of wanted) {
    const parent = inventory.get(sku)?.parent_sku
    if (parent) parentOf.set(sku, parent)
  }
  const products = docs.map((doc) => mergeInventory(parseDoc<Product>(doc), inventory))
  const bySku = new Map(products.map((p) => [p.sku, p]))

  for (const sku of wanted) {
    const direct = bySku.get(sku)
    if (direct && !parentOf.has(sku)) {
      result.set(sku, { product: direct })
      continue
    }
    const parentSku = parentOf.get(sku)
    const parent = parentSku ? bySku.get(parentSku) : undefined
    const child = parent?.configurable_children.find((ch) => ch.sku === sku)
    if (parent && child) result.set(sku, { product: parent, child })
    else if (direct) result.set(sku, { product: direct })
  }
  return result
}

/** One product by entity id, with live stock; null when absent. */
export async function getProductById(db: D1Database, id: number): Promise<Product | null> {
  const row = await db.prepare('SELECT doc FROM products WHERE id = ?').bind(id).first<{ doc: string }>()
  if (!row) return null
  return (await withInventory(db, [row.doc]))[0] ?? null
}
/** One product by its exact url_path (leading/trailing slashes ignored), with live stock. */
export async function getProductByUrlPath(db: D1Database, urlPath: string): Promise<Product | null> {
  const path = urlPath.replace(/^\/+|\/+$/g, '')
  const row = await db
    .prepare('SELECT doc FROM products WHERE url_path = ? LIMIT 1')
    .bind(path)
    .first<{ doc: string }>()
  if (!row) return null
  return (await withInventory(db, [row.doc]))[0] ?? null
}

/** Live inventory rows for sellable skus (stock endpoints). */
export async function getInventoryRows(
  db: D1Database,
  skus: readonly string[],
): Promise<Map<string, InventoryRow>> {
  const out = new Map<string, InventoryRow>()
  const unique = [...new Set(skus)]
  if (unique.length === 0) return out
  const res = await db.batch<InventoryRow>(
    chunk(unique).map((part) =>
      db
        .prepare(`SELECT ${STOCK_COLUMNS} FROM inventory WHERE sku IN (${placeholders(part.length)})`)
        .bind(...part),
    ),
  )
  for (const r of res) for (const row of r.results) out.set(row.sku, row)
  return out
}
