/** The Magento stock item shape the stock endpoints answer (contract §1.5). */
import type { Product } from '../../../shared/schemas/catalog'
import { getInventoryRows, getProductsBySku, type InventoryRow } from '../catalog/products'

export interface StockItem {
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

function item(sku: string, productId: number, qty: number, inStock: boolean): StockItem {
  return {
    item_id: productId,
    product_id: productId,
    stock_id: 1,
    sku,
    qty,
    is_in_stock: inStock,
    stock_status: inStock ? 1 : 0,
    is_qty_decimal: false,
    manage_stock: true,
    min_sale_qty: 1,
    max_sale_qty: 10000,
    backorders: 0,
    low_stock_date: null,
  }
}

const fromRow = (r: InventoryRow) => item(r.sku, r.product_id, r.qty, r.is_in_stock === 1 && r.qty > 0)
const fromProduct = (p: Product) => item(p.sku, p.id, p.stock.qty ?? 0, Boolean(p.stock.is_in_stock))

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
    for (const [sku, hit] of found) if (!hit.child) out.set(sku, fromProduct(hit.product))
  }
  return out
}
