/**
 * The Magento stock item shape the stock endpoints answer. A bundle or grouped product has no stock
 * of its own: its item is computed from the live stock of its linked products (how many whole
 * sets can be made).
 */
import { isSellable, sellableUnits } from '@shared/domain/availability'
import type { Product } from '@shared/schemas/catalog'
import { getInventoryRows, getProductsBySku, type InventoryRow, stockOfRow } from '../../catalog/products'

interface StockItem {
  item_id: number
  product_id: number
  stock_id: number
  sku: string
  qty: number
  is_in_stock: boolean
  stock_status: number
  is_qty_decimal: boolean
  manage_stock: boolean
  min_sale_qty: number
  max_sale_qty: number
  backorders: number
  low_stock_date: null
}

function item(
  sku: string,
  productId: number,
  qty: number,
  inStock: boolean,
  settings: { manage_stock?: boolean; backorders?: number } = {},
): StockItem {
  return {
    item_id: productId,
    product_id: productId,
    stock_id: 1,
    sku,
    qty,
    is_in_stock: inStock,
    stock_status: inStock ? 1 : 0,
    is_qty_decimal: false,
    manage_stock: settings.manage_stock ?? true,
    min_sale_qty: 1,
    max_sale_qty: 10000,
    backorders: settings.backorders ?? 0,
    low_stock_date: null,
  }
}

/** Sellable units of a stocked sku (0 when missing or not sellable; unlimited when not counted). */
const available = (rows: ReadonlyMap<string, InventoryRow>, sku: string) => {
  const row = rows.get(sku)
  return row ? sellableUnits(stockOfRow(row)) : 0
}

/**
 * Whole sets of a composite product its linked products' stock allows: a grouped product needs one
 * of each associated product; a bundle needs, for every required option (every option when none
 * is required), its best-stocked link at the link's default quantity.
 */
function compositeQty(product: Product, rows: ReadonlyMap<string, InventoryRow>): number {
  if (product.type_id === 'grouped') {
    const skus = product.product_links
      .filter((l) => !l.link_type || l.link_type === 'associated')
      .map((l) => l.linked_product_sku)
    return skus.length ? Math.min(...skus.map((sku) => available(rows, sku))) : 0
  }
  const options = product.bundle_options.some((o) => o.required)
    ? product.bundle_options.filter((o) => o.required)
    : product.bundle_options
  const best = options.map((o) =>
    Math.max(0, ...o.product_links.map((l) => Math.floor(available(rows, l.sku) / Math.max(1, l.qty ?? 1)))),
  )
  if (best.length === 0) return 0
  return product.bundle_options.some((o) => o.required) ? Math.min(...best) : Math.max(...best)
}

const linkedSkus = (p: Product) =>
  p.type_id === 'grouped'
    ? p.product_links.map((l) => l.linked_product_sku)
    : p.bundle_options.flatMap((o) => o.product_links.map((l) => l.sku))

const fromRow = (r: InventoryRow) => {
  const stock = stockOfRow(r)
  return item(r.sku, r.product_id, r.qty, stock.is_in_stock, stock)
}
const fromProduct = (p: Product) => item(p.sku, p.id, p.stock.qty ?? 0, isSellable(p.stock))

/** Live stock items for skus (sellable skus from inventory; parents aggregated); unknown skus omitted. */
export async function getStockItems(
  db: D1Database,
  skus: readonly string[],
): Promise<Map<string, StockItem>> {
  const out = new Map<string, StockItem>()
  const rows = await getInventoryRows(db, skus)
  for (const [sku, row] of rows) out.set(sku, fromRow(row))
  const rest = skus.filter((s) => !out.has(s))
  if (rest.length) {
    const found = await getProductsBySku(db, rest)
    const composites = [...found.values()]
      .map((hit) => hit.product)
      .filter((p) => p.type_id === 'bundle' || p.type_id === 'grouped')
    const linkedRows = composites.length
      ? await getInventoryRows(db, [...new Set(composites.flatMap(linkedSkus))])
      : new Map<string, InventoryRow>()
    for (const [sku, hit] of found) {
      if (hit.child) continue
      const p = hit.product
      if (p.type_id === 'bundle' || p.type_id === 'grouped') {
        const qty = compositeQty(p, linkedRows)
        // Linked products that are not counted give unlimited sets: sellable, with no number to show.
        out.set(sku, item(p.sku, p.id, Number.isFinite(qty) ? qty : 0, qty > 0))
      } else out.set(sku, fromProduct(p))
    }
  }
  return out
}
