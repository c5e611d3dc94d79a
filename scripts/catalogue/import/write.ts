/**
 * Statements and KV mappings for a validated import file. The same writers as the seed are used,
 * so imported products get their inventory rows and search-index rows exactly like seeded ones.
 */

import type { Product } from '../../../shared/schemas/catalog'
import {
  categoryMapping,
  cmsPageMapping,
  productMapping,
  type UrlMapping,
} from '../../../worker/catalog/url-map'
import {
  attributeStatement,
  CATALOGUE_TABLES,
  categoryStatement,
  cmsBlockStatement,
  cmsPageStatement,
  productStatements,
  reviewStatement,
  taxRuleStatement,
} from '../seed/write'
import type { ImportRecord } from './transform'

/** Stock fields as the importer stored them in the document (see transform.ts). */
type ImportedStock = Product['stock'] & { manage_stock?: boolean; backorders?: number }

/** The inventory row of one sellable sku, with Magento's stock settings. */
function inventoryRow(
  db: D1Database,
  sku: string,
  productId: number,
  parentSku: string | null,
  s: ImportedStock,
) {
  const managed = s.manage_stock !== false
  const backorders = Math.max(0, Math.floor(s.backorders ?? 0))
  // Counted stock without backorders never goes below zero (the table's CHECK).
  const qty = Math.floor(s.qty ?? 0)
  return db
    .prepare(
      `INSERT OR REPLACE INTO inventory (sku, product_id, parent_sku, qty, is_in_stock, manage_stock, backorders)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    )
    .bind(
      sku,
      productId,
      parentSku,
      managed && backorders === 0 ? Math.max(0, qty) : qty,
      // Stored as the switch: off only when Magento switched the item off with quantity left.
      s.is_in_stock === false && qty > 0 ? 0 : 1,
      managed ? 1 : 0,
      backorders,
    )
}

/** Inventory statements of a product: its own sku, or one per configurable child. */
function inventoryStatements(db: D1Database, p: Product): D1PreparedStatement[] {
  if (p.type_id === 'grouped' || p.type_id === 'bundle') return []
  // A disabled variant (status 2) cannot be sold: it gets no stock row, so neither the in-stock
  // listing filter nor a cart counts it.
  if (p.type_id === 'configurable' && p.configurable_children.length > 0)
    return p.configurable_children
      .filter((ch) => (ch.status ?? 1) < 2)
      .map((ch) => inventoryRow(db, ch.sku, ch.id, p.sku, ch.stock as ImportedStock))
  return [inventoryRow(db, p.sku, p.id, null, p.stock as ImportedStock)]
}

/** Statements that empty every catalogue table (a `--replace` import; orders and customers stay). */
export function clearCatalogueStatements(db: D1Database): D1PreparedStatement[] {
  return CATALOGUE_TABLES.map((t) => db.prepare(`DELETE FROM ${t}`))
}

type ImportEntry = ImportRecord['entry']
type RowEntity = Exclude<ImportEntry['type'], 'product'>

/** The one-row writer of every entity but products (the seed's own writers). */
const ROW_WRITERS: {
  [T in RowEntity]: (db: D1Database, doc: Extract<ImportEntry, { type: T }>['doc']) => D1PreparedStatement
} = {
  category: categoryStatement,
  attribute: attributeStatement,
  taxrule: taxRuleStatement,
  cms_page: cmsPageStatement,
  cms_block: cmsBlockStatement,
  review: reviewStatement,
}

/** Every statement that writes the records (upserts; a configurable's old child stock rows are replaced). */
export function importStatements(db: D1Database, records: readonly ImportRecord[]): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = []
  for (const { entry } of records) {
    if (entry.type === 'product') {
      out.push(...productStatements(db, entry.doc))
      out.push(db.prepare('DELETE FROM inventory WHERE parent_sku = ?1 OR sku = ?1').bind(entry.doc.sku))
      out.push(...inventoryStatements(db, entry.doc))
      continue
    }
    // The entity names its writer; TypeScript cannot pair the two through the union, hence the cast.
    const write = ROW_WRITERS[entry.type] as (db: D1Database, doc: typeof entry.doc) => D1PreparedStatement
    out.push(write(db, entry.doc))
  }
  return out
}

/** KV URL mappings for the records (visible enabled products, categories, CMS pages). */
export function importUrlMappings(records: readonly ImportRecord[]): Array<[string, UrlMapping]> {
  const out: Array<[string, UrlMapping]> = []
  for (const { entry } of records) {
    if (entry.type === 'product' && entry.doc.status === 1 && entry.doc.visibility !== 1)
      out.push(productMapping(entry.doc))
    else if (entry.type === 'category' && entry.doc.parent_id > 1) out.push(categoryMapping(entry.doc))
    else if (entry.type === 'cms_page' && entry.doc.is_active !== false) out.push(cmsPageMapping(entry.doc))
  }
  return out.filter(([key]) => key.length > 0)
}
