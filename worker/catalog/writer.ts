/**
 * The one catalogue writer of products, categories and CMS pages and blocks: the seed, the importer and the
 * back office all store them with these statements. A product is its row with its document, its search-index
 * rows (the index write moves the catalogue version on, so memoised reads are stale at once), the
 * inventory rows of what it sells (its own sku, or one per enabled variant) and its revision, the
 * number a compare-and-set edit checks (./product-revision.ts).
 */
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { Category, CmsBlock, CmsPage, Product } from '@shared/schemas/catalog'
import { indexProductStatements } from '../search'

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)

/**
 * Product row upsert + its search-index statements; with the catalogue's tax rules, the index holds
 * the price each shopper is shown too (else the scheduled search build adds it).
 */
export function productStatements(
  db: D1Database,
  p: Product,
  taxRules?: readonly TaxRuleFields[],
): D1PreparedStatement[] {
  const { children_data: _ignored, ...doc } = p as Product & { children_data?: unknown }
  return [
    db
      .prepare(
        `INSERT OR REPLACE INTO products
         (id, sku, type_id, name, status, visibility, price, final_price, created_at, updated_at, url_path, slug, doc)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
      )
      .bind(
        p.id,
        p.sku,
        p.type_id,
        p.name,
        num(p.status, 1),
        num(p.visibility, 4),
        num(p.price, 0),
        typeof p.final_price === 'number' ? p.final_price : null,
        // The columns are NOT NULL: an undated product's row holds '' (its document holds null).
        p.created_at ?? '',
        p.updated_at ?? '',
        p.url_path.replace(/^\/+|\/+$/g, ''),
        p.slug,
        JSON.stringify(doc),
      ),
    ...indexProductStatements(db, p, Date.now(), taxRules),
  ]
}

/** Stock fields as a product document holds them, with Magento's settings when it has them. */
type DocStock = Product['stock'] & { manage_stock?: boolean; backorders?: number }

/** The inventory row of one sellable sku, with its stock settings. */
function inventoryRow(db: D1Database, sku: string, productId: number, parentSku: string | null, s: DocStock) {
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
      // Stored as the switch: off only when the item was switched off with quantity left.
      s.is_in_stock === false && qty > 0 ? 0 : 1,
      managed ? 1 : 0,
      backorders,
    )
}

/** Inventory statements of a product: its own sku, or one per enabled configurable child. */
function inventoryStatements(db: D1Database, p: Product): D1PreparedStatement[] {
  if (p.type_id === 'grouped' || p.type_id === 'bundle') return []
  // A disabled variant (status 2) cannot be sold: it gets no stock row, so neither the in-stock
  // listing filter nor a cart counts it.
  if (p.type_id === 'configurable' && p.configurable_children.length > 0)
    return p.configurable_children
      .filter((ch) => (ch.status ?? 1) < 2)
      .map((ch) => inventoryRow(db, ch.sku, ch.id, p.sku, ch.stock as DocStock))
  return [inventoryRow(db, p.sku, p.id, null, p.stock as DocStock)]
}

/** The statement that moves a product's revision on (every write of a product runs it). */
export function bumpRevisionStatement(db: D1Database, productId: number): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO product_revisions (product_id, revision) VALUES (?1, 1)
       ON CONFLICT (product_id) DO UPDATE SET revision = revision + 1`,
    )
    .bind(productId)
}

/**
 * The statements that store a changed product document without touching its stock rows (orders
 * move those): row, document and search rows (the catalogue version moves on) and its revision.
 */
export function productDocumentStatements(db: D1Database, p: Product): D1PreparedStatement[] {
  return [...productStatements(db, p), bumpRevisionStatement(db, p.id)]
}

/** Sets the counted stock of one sellable sku, as typed (its in-stock switch is left as it is). */
export function stockQtyStatement(db: D1Database, sku: string, qty: number): D1PreparedStatement {
  return db.prepare('UPDATE inventory SET qty = ?2 WHERE sku = ?1').bind(sku, Math.max(0, Math.floor(qty)))
}

/**
 * Every statement that stores a whole product: row, document and search rows, its inventory rows
 * (the old ones of its sku and variants replaced) and its revision moved on.
 */
export function writeProductStatements(db: D1Database, p: Product): D1PreparedStatement[] {
  return [
    ...productStatements(db, p),
    db.prepare('DELETE FROM inventory WHERE parent_sku = ?1 OR sku = ?1').bind(p.sku),
    ...inventoryStatements(db, p),
    bumpRevisionStatement(db, p.id),
  ]
}

/** A CMS page's row (upsert). */
export function cmsPageStatement(db: D1Database, p: CmsPage): D1PreparedStatement {
  return db
    .prepare(
      'INSERT OR REPLACE INTO cms_pages (id, identifier, store_id, is_active, doc) VALUES (?1, ?2, ?3, ?4, ?5)',
    )
    .bind(p.id, p.identifier, num(p.store_id, 0), p.is_active === false ? 0 : 1, JSON.stringify(p))
}

/** A CMS block's row (upsert). */
export function cmsBlockStatement(db: D1Database, b: CmsBlock): D1PreparedStatement {
  return db
    .prepare(
      'INSERT OR REPLACE INTO cms_blocks (id, identifier, store_id, is_active, doc) VALUES (?1, ?2, ?3, ?4, ?5)',
    )
    .bind(b.id, b.identifier, num(b.store_id, 0), b.is_active === false ? 0 : 1, JSON.stringify(b))
}

/** A category's row (upsert); its document is stored without children (the tree is rebuilt). */
export function categoryStatement(db: D1Database, c: Category): D1PreparedStatement {
  const { children_data: _children, ...doc } = c
  return db
    .prepare(
      `INSERT OR REPLACE INTO categories (id, parent_id, name, slug, url_path, level, position, is_active, include_in_menu, doc)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)`,
    )
    .bind(
      c.id,
      c.parent_id,
      c.name,
      c.slug,
      c.url_path.replace(/^\/+|\/+$/g, ''),
      c.level,
      c.position,
      c.is_active ? 1 : 0,
      c.include_in_menu ? 1 : 0,
      JSON.stringify({ ...doc, children_data: [] }),
    )
}

/**
 * Recounts the listed products (enabled, visible) of the categories `ids` into their documents'
 * `product_count`, which decides whether the menu shows a category.
 */
export function categoryCountStatement(db: D1Database, ids: number[]): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE categories SET doc = json_set(doc, '$.product_count', (
         SELECT COUNT(*) FROM products p WHERE p.status = 1 AND p.visibility <> 1
           AND EXISTS (SELECT 1 FROM json_each(p.doc, '$.category_ids') AS k WHERE k.value = categories.id)))
       WHERE id IN (SELECT value FROM json_each(?1))`,
    )
    .bind(JSON.stringify(ids))
}

/** A size chart's row (upsert by id), found by its code: a category's slug, or a code products name. */
export function sizeGuideStatement(
  db: D1Database,
  g: { id: number; code: string; doc: Record<string, unknown> },
): D1PreparedStatement {
  return db
    .prepare('INSERT OR REPLACE INTO size_guides (id, code, doc) VALUES (?1, ?2, ?3)')
    .bind(g.id, g.code, JSON.stringify(g.doc))
}
