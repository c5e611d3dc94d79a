/**
 * The catalogue in the back office: find products, change price, special price and its window,
 * status and visibility, and the stock of each sellable sku (a variant or a simple product). A change
 * writes the product row, its document and its search-index rows in one batch (the index bump makes
 * every memoised catalogue read stale), with its audit row, then purges the cached pages that show
 * the product: its own page, its categories' pages and search results.
 *
 * A configurable product is sold as its variants, each with its own price: a price set on the
 * product moves every variant's price by the amount the product's price moved (the product's price
 * is its cheapest variant's, so that variant lands on the price set and dearer sizes keep their
 * difference); a special price takes the same amount off every variant, and its window and its
 * removal apply to every variant too. A change that would sell a variant for nothing or less is
 * refused.
 */
import { finalPrice } from '@shared/domain/price-window'
import { z } from 'zod'
import { magentoDate } from '../api/user/repo'
import { bumpRevisionStatement } from '../catalog/writer'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { fail } from '../platform/http'
import { indexProductStatements } from '../search'
import { auditStatement } from './audit'
import { containsPattern } from './input'

const catalogDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, 'must be YYYY-MM-DD or YYYY-MM-DD HH:MM:SS')
  .nullable()
const money = z.number().finite().min(0, 'must not be negative').max(100_000_000, 'is too large')

export const ProductPatchSchema = z
  .object({
    price: money.optional(),
    special_price: money.nullable().optional(),
    special_from_date: catalogDate.optional(),
    special_to_date: catalogDate.optional(),
    status: z
      .union([z.literal(1), z.literal(2)], { error: 'status must be 1 (enabled) or 2 (disabled)' })
      .optional(),
    visibility: z
      .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], {
        error: 'visibility must be 1, 2, 3 or 4',
      })
      .optional(),
    // The HSN code its tax rule and its invoice lines read (GST: 4, 6 or 8 digits).
    hsn_code: z
      .string()
      .regex(/^(\d{4}|\d{6}|\d{8})$/, 'hsn_code must be 4, 6 or 8 digits')
      .optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).length > 0, 'nothing to change')

export const StockSchema = z.object({
  // A form sends text: only decimal digits are read as a number ('1e3', '0x10', ' 7' are refused).
  qty: z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,7}$/, 'qty must be decimal digits')
          .transform(Number),
      ],
      {
        error: 'qty is required',
      },
    )
    .pipe(
      z
        .number()
        .int('qty must be a whole number')
        .min(0, 'qty must not be negative')
        .max(1_000_000, 'qty is too large'),
    ),
  is_in_stock: z
    .preprocess(
      (v) => (v === 'true' || v === '1' || v === 'on' ? true : v === 'false' || v === '0' ? false : v),
      z.boolean(),
    )
    .default(true),
})

interface ProductRow {
  id: number
  sku: string
  type_id: string
  name: string
  status: number
  visibility: number
  price: number
  final_price: number | null
  doc: string
}

/** Products whose sku or name contains `q` (at most 50), each with its sellable skus' stock. */
export async function searchProducts(db: D1Database, q: string) {
  const like = containsPattern(q)
  const { results } = await db
    .prepare(
      `SELECT id, sku, type_id, name, status, visibility, price, final_price,
         json_extract(doc, '$.special_price') AS special_price, json_extract(doc, '$.hsn_code') AS hsn_code
       FROM products
       WHERE sku LIKE ?1 ESCAPE '\\' OR name LIKE ?1 ESCAPE '\\' ORDER BY sku LIMIT 50`,
    )
    .bind(like)
    .all<Omit<ProductRow, 'doc'> & { special_price: number | null; hsn_code: string | number | null }>()
  if (!results.length) return []
  const skus = results.map((r) => r.sku)
  const stock = await db
    .prepare(
      `SELECT sku, parent_sku, qty, is_in_stock FROM inventory
       WHERE sku IN (SELECT value FROM json_each(?1)) OR parent_sku IN (SELECT value FROM json_each(?1)) ORDER BY sku`,
    )
    .bind(JSON.stringify(skus))
    .all<{ sku: string; parent_sku: string | null; qty: number; is_in_stock: number }>()
  return results.map((p) => ({
    ...p,
    stock: stock.results.filter((s) => s.sku === p.sku || s.parent_sku === p.sku),
  }))
}

/** Purges every cached page that shows the product (its page, its categories, search results). */
export async function purgeProduct(env: Env, doc: Record<string, unknown>): Promise<number> {
  const categories = Array.isArray(doc.category_ids)
    ? doc.category_ids.map(Number).filter(Number.isSafeInteger)
    : []
  const tags = [`P${String(doc.sku)}`, ...categories.map((id) => `C${id}`), 'search']
  return purgedCount(await purgeCacheTags(env, tags))
}

/**
 * The statements that store a changed product document (row, document, search index) and move its
 * revision on, so an authoring form opened before this change is refused rather than undoing it.
 */
function editedProductStatements(
  db: D1Database,
  doc: Record<string, unknown>,
  now: number,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        'UPDATE products SET status = ?, visibility = ?, price = ?, final_price = ?, updated_at = ?, doc = ? WHERE id = ?',
      )
      .bind(
        doc.status ?? 1,
        doc.visibility ?? 4,
        doc.price ?? 0,
        doc.final_price ?? null,
        magentoDate(now),
        JSON.stringify(doc),
        doc.id,
      ),
    ...indexProductStatements(db, doc),
    bumpRevisionStatement(db, Number(doc.id)),
  ]
}

/** A catalogue amount kept to the paisa. */
const paise = (amount: number) => Math.round(amount * 100) / 100

/**
 * Carries a product change to a configurable's variants (the rule in this file's header): the
 * price by the amount the product's price moved, the special price as the same amount off each
 * variant's price, the window as set; each variant's final price follows.
 */
function applyToVariants(
  children: Record<string, unknown>[],
  patch: z.infer<typeof ProductPatchSchema>,
  doc: Record<string, unknown>,
  oldPrice: number,
  now: number,
) {
  const price = Number(doc.price ?? 0)
  const special = doc.special_price as number | null | undefined
  for (const child of children) {
    if (patch.price !== undefined) child.price = paise(Number(child.price ?? oldPrice) + price - oldPrice)
    if (patch.special_price !== undefined || (patch.price !== undefined && special != null)) {
      child.special_price = special == null ? null : paise(Number(child.price) - (price - special))
    }
    // A variant cheaper than the product could be taken below nothing: refused, nothing written.
    if (Number(child.price) < 0 || (child.special_price != null && Number(child.special_price) <= 0)) {
      fail(400, `Invalid product change: variant ${String(child.sku)} would cost nothing or less`)
    }
    if (patch.special_from_date !== undefined) child.special_from_date = patch.special_from_date
    if (patch.special_to_date !== undefined) child.special_to_date = patch.special_to_date
    if (patch.special_price === null) {
      child.special_from_date = null
      child.special_to_date = null
    }
    child.final_price = finalPrice(child, now)
  }
}

async function productById(db: D1Database, id: number): Promise<ProductRow> {
  const row = await db.prepare('SELECT * FROM products WHERE id = ?').bind(id).first<ProductRow>()
  return row ?? fail(404, `Product ${id} does not exist.`)
}

/**
 * The document after `patch` (the rules in this file's header): the special price below the
 * price, a configurable's variants carried along, the final prices recomputed. A change that
 * cannot be sold is a 400; the stored document is not touched.
 */
export function patchedDocument(
  stored: Record<string, unknown>,
  patch: z.infer<typeof ProductPatchSchema>,
  now: number,
): Record<string, unknown> {
  const doc = structuredClone(stored)
  const oldPrice = Number(doc.price ?? 0)
  Object.assign(doc, patch)
  const special = doc.special_price as number | null | undefined
  if (special != null && special >= Number(doc.price ?? 0)) {
    fail(400, 'Invalid product change: special_price: must be below the price')
  }
  if (doc.type_id === 'configurable' && Array.isArray(doc.configurable_children)) {
    applyToVariants(doc.configurable_children as Record<string, unknown>[], patch, doc, oldPrice, now)
  }
  doc.final_price = finalPrice(doc, now)
  return doc
}

/** Changes a product's price, special price and window, status, visibility or HSN code. */
export async function updateProduct(
  env: Env,
  id: number,
  patch: z.infer<typeof ProductPatchSchema>,
  actor: string,
  now: number,
) {
  const db = env.DB
  const row = await productById(db, id)
  const stored = JSON.parse(row.doc) as Record<string, unknown>
  const before = Object.fromEntries(Object.keys(patch).map((k) => [k, stored[k] ?? null]))
  const doc = patchedDocument(stored, patch, now)
  await db.batch([
    ...editedProductStatements(db, doc, now),
    auditStatement(
      db,
      { actor, action: 'product.update', target: `product:${row.sku}`, before, after: patch },
      now,
    ),
  ])
  const purged = await purgeProduct(env, doc)
  return { id, sku: row.sku, final_price: doc.final_price, purged }
}

/** Sets the stock of one sellable sku (and the stock its product document shows). */
export async function setStock(
  env: Env,
  sku: string,
  req: z.infer<typeof StockSchema>,
  actor: string,
  now: number,
) {
  const db = env.DB
  const item = await db
    .prepare('SELECT sku, product_id, parent_sku, qty, is_in_stock FROM inventory WHERE sku = ?')
    .bind(sku)
    .first<{ sku: string; product_id: number; parent_sku: string | null; qty: number; is_in_stock: number }>()
  if (!item) return fail(404, `No stock is kept for sku ${sku}.`)
  const owner = item.parent_sku
    ? await db.prepare('SELECT * FROM products WHERE sku = ?').bind(item.parent_sku).first<ProductRow>()
    : await db.prepare('SELECT * FROM products WHERE sku = ?').bind(sku).first<ProductRow>()
  const available = req.is_in_stock && req.qty > 0
  const stockDoc = { qty: req.qty, is_in_stock: available, stock_status: available ? 1 : 0 }
  const statements: D1PreparedStatement[] = [
    db
      .prepare('UPDATE inventory SET qty = ?, is_in_stock = ? WHERE sku = ?')
      .bind(req.qty, req.is_in_stock ? 1 : 0, sku),
  ]
  let doc: Record<string, unknown> | null = null
  if (owner) {
    doc = JSON.parse(owner.doc) as Record<string, unknown>
    if (item.parent_sku) {
      const children = (doc.configurable_children ?? []) as Record<string, unknown>[]
      for (const child of children)
        if (child.sku === sku) child.stock = { ...(child.stock as object), ...stockDoc }
      const total = await db
        .prepare('SELECT COALESCE(SUM(qty), 0) - ?2 + ?3 AS qty FROM inventory WHERE parent_sku = ?1')
        .bind(item.parent_sku, item.qty, req.qty)
        .first<{ qty: number }>()
      const totalQty = Number(total?.qty ?? 0)
      doc.stock = {
        ...(doc.stock as object),
        qty: totalQty,
        is_in_stock: totalQty > 0,
        stock_status: totalQty > 0 ? 1 : 0,
      }
    } else {
      doc.stock = { ...(doc.stock as object), ...stockDoc }
    }
    statements.push(...editedProductStatements(db, doc, now))
  }
  statements.push(
    auditStatement(
      db,
      {
        actor,
        action: 'stock.set',
        target: `sku:${sku}`,
        before: { qty: item.qty, is_in_stock: item.is_in_stock === 1 },
        after: req,
      },
      now,
    ),
  )
  await db.batch(statements)
  const purged = doc ? await purgeProduct(env, doc) : 0
  return { sku, qty: req.qty, is_in_stock: req.is_in_stock, purged }
}
