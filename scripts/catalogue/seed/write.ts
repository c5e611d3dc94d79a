/**
 * Turns a generated (or imported) catalogue into D1 statements and KV mappings, and seeds it.
 * `catalogueStatements` only prepares statements: in workerd they run with `db.batch()`; in Node
 * (scripts/seed.mjs) a recording D1 shim turns them into one SQL file for `wrangler d1 execute`.
 */
import type {
  Attribute,
  Category,
  CmsBlock,
  CmsPage,
  Product,
  Review,
  StoreLocation,
  TaxRule,
} from '../../../shared/schemas/catalog'
import { indexProductStatements } from '../../../worker/search/index-products'
import { generateCatalogue } from './generate'
import { demoPincodeStatements } from './pincodes'
import type { Catalogue, GenerateOptions, InventorySeedRow } from './types'

/** Tables the catalogue owns, cleared before a full reseed (children before parents). */
export const CATALOGUE_TABLES = [
  'search_terms',
  'search_numbers',
  'search_tokens',
  'search_docs',
  'inventory',
  'products',
  'categories',
  'attributes',
  'tax_rules',
  'cms_pages',
  'cms_blocks',
  'stores',
  'reviews',
  'content_docs',
  'size_guides',
  'search_content',
] as const

const json = (v: unknown) => JSON.stringify(v)
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)

/** Product row upsert + its search-index statements. */
export function productStatements(db: D1Database, p: Product): D1PreparedStatement[] {
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
        p.created_at,
        p.updated_at,
        p.url_path.replace(/^\/+|\/+$/g, ''),
        p.slug,
        json(doc),
      ),
    ...indexProductStatements(db, p),
  ]
}

/**
 * Inventory rows a product implies (its own sku, or one per enabled configurable child: a
 * disabled variant is not sold, so it has no stock row).
 */
export function inventoryFromProduct(p: Product): InventorySeedRow[] {
  if (p.type_id === 'configurable' && p.configurable_children.length > 0) {
    return p.configurable_children
      .filter((ch) => (ch.status ?? 1) < 2)
      .map((ch) => ({
        sku: ch.sku,
        product_id: ch.id,
        parent_sku: p.sku,
        qty: Math.max(0, Math.floor(ch.stock?.qty ?? 0)),
        is_in_stock: ch.stock?.is_in_stock !== false,
      }))
  }
  if (p.type_id === 'grouped' || p.type_id === 'bundle') return []
  return [
    {
      sku: p.sku,
      product_id: p.id,
      parent_sku: null,
      qty: Math.max(0, Math.floor(p.stock?.qty ?? 0)),
      is_in_stock: p.stock?.is_in_stock !== false,
    },
  ]
}

export function inventoryStatement(
  db: D1Database,
  r: InventorySeedRow,
  conflict: 'REPLACE' | 'IGNORE' = 'REPLACE',
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR ${conflict} INTO inventory (sku, product_id, parent_sku, qty, is_in_stock) VALUES (?1, ?2, ?3, ?4, ?5)`,
    )
    .bind(r.sku, r.product_id, r.parent_sku, r.qty, r.is_in_stock ? 1 : 0)
}

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
      json({ ...doc, children_data: [] }),
    )
}

export function attributeStatement(db: D1Database, a: Attribute): D1PreparedStatement {
  return db
    .prepare('INSERT OR REPLACE INTO attributes (attribute_id, attribute_code, doc) VALUES (?1, ?2, ?3)')
    .bind(a.attribute_id, a.attribute_code, json(a))
}

export function taxRuleStatement(db: D1Database, t: TaxRule): D1PreparedStatement {
  return db
    .prepare('INSERT OR REPLACE INTO tax_rules (id, code, doc) VALUES (?1, ?2, ?3)')
    .bind(t.id, t.code, json(t))
}

export function cmsPageStatement(db: D1Database, p: CmsPage): D1PreparedStatement {
  return db
    .prepare(
      'INSERT OR REPLACE INTO cms_pages (id, identifier, store_id, is_active, doc) VALUES (?1, ?2, ?3, ?4, ?5)',
    )
    .bind(p.id, p.identifier, num(p.store_id, 0), p.is_active === false ? 0 : 1, json(p))
}

export function cmsBlockStatement(db: D1Database, b: CmsBlock): D1PreparedStatement {
  return db
    .prepare(
      'INSERT OR REPLACE INTO cms_blocks (id, identifier, store_id, is_active, doc) VALUES (?1, ?2, ?3, ?4, ?5)',
    )
    .bind(b.id, b.identifier, num(b.store_id, 0), b.is_active === false ? 0 : 1, json(b))
}

export function reviewStatement(
  db: D1Database,
  r: Review,
  conflict: 'REPLACE' | 'IGNORE' = 'REPLACE',
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR ${conflict} INTO reviews (id, product_id, review_status, created_at, doc) VALUES (?1, ?2, ?3, ?4, ?5)`,
    )
    .bind(r.id, r.product_id, r.review_status, r.created_at, json(r))
}

function storeStatement(db: D1Database, s: StoreLocation): D1PreparedStatement {
  return db
    .prepare('INSERT OR REPLACE INTO stores (id, code, position, doc) VALUES (?1, ?2, ?3, ?4)')
    .bind(s.id, s.code, num(s.position, 0), json(s))
}

/** What a reseed keeps of the live shop: reviews shoppers wrote, stock levels the shop has moved. */
interface KeepOptions {
  /** Keep existing reviews (the demo ones are added only where their id is free). */
  reviews?: boolean
  /** Keep existing stock rows (new skus get the demo stock). */
  stock?: boolean
}

/**
 * Every statement that writes the catalogue (optionally clearing the catalogue tables first). With
 * `keep`, the kept tables are neither cleared nor overwritten.
 */
export function catalogueStatements(
  db: D1Database,
  cat: Catalogue,
  opts: { clear?: boolean; skipInventory?: boolean; keep?: KeepOptions } = {},
): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = []
  const kept = new Set<string>([
    ...(opts.keep?.reviews ? ['reviews'] : []),
    ...(opts.keep?.stock ? ['inventory'] : []),
  ])
  if (opts.clear) for (const t of CATALOGUE_TABLES) if (!kept.has(t)) out.push(db.prepare(`DELETE FROM ${t}`))
  for (const p of cat.products) out.push(...productStatements(db, p))
  if (!opts.skipInventory)
    for (const r of cat.inventory)
      out.push(inventoryStatement(db, r, kept.has('inventory') ? 'IGNORE' : 'REPLACE'))
  for (const c of cat.categories) out.push(categoryStatement(db, c))
  for (const a of cat.attributes) out.push(attributeStatement(db, a))
  for (const t of cat.taxRules) out.push(taxRuleStatement(db, t))
  for (const p of cat.cmsPages) out.push(cmsPageStatement(db, p))
  for (const b of cat.cmsBlocks) out.push(cmsBlockStatement(db, b))
  for (const s of cat.stores) out.push(storeStatement(db, s))
  for (const r of cat.reviews) out.push(reviewStatement(db, r, kept.has('reviews') ? 'IGNORE' : 'REPLACE'))
  // Coupons are never cleared: a shop's own coupons stay, a demo code that exists is left as it is.
  for (const c of cat.coupons ?? []) {
    out.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO coupons (code, kind, amount, min_subtotal, starts_at, expires_at, label)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
        )
        .bind(c.code, c.kind, c.amount, c.minSubtotal, c.startsAt, c.expiresAt, c.label),
    )
  }
  for (const [kind, doc] of Object.entries(cat.content)) {
    out.push(
      db
        .prepare('INSERT OR REPLACE INTO content_docs (kind, store_id, doc) VALUES (?1, 0, ?2)')
        .bind(kind, json(doc)),
    )
  }
  for (const g of cat.sizeGuides) {
    out.push(
      db
        .prepare('INSERT OR REPLACE INTO size_guides (id, code, doc) VALUES (?1, ?2, ?3)')
        .bind(g.id, g.code, json(g.doc)),
    )
  }
  for (const s of cat.searchContent) {
    out.push(
      db
        .prepare('INSERT OR REPLACE INTO search_content (term, doc) VALUES (?1, ?2)')
        .bind(s.term, json(s.doc)),
    )
  }
  out.push(
    db
      .prepare("INSERT OR REPLACE INTO app_meta (key, value) VALUES ('catalogue_generated_at', ?1)")
      .bind(cat.generatedAt),
  )
  return out
}

/** Runs statements in db.batch() chunks (each chunk is atomic). */
async function runBatches(db: D1Database, stmts: D1PreparedStatement[], size = 500): Promise<void> {
  for (let i = 0; i < stmts.length; i += size) await db.batch(stmts.slice(i, i + size))
}

/** Writes KV URL mappings (key = path without slashes, value = JSON; see catalog/url-map.ts). */
export async function putUrlMappings(kv: KVNamespace, mappings: Catalogue['urlMappings']): Promise<void> {
  const CONCURRENCY = 50
  for (let i = 0; i < mappings.length; i += CONCURRENCY) {
    await Promise.all(mappings.slice(i, i + CONCURRENCY).map(([k, v]) => kv.put(k, JSON.stringify(v))))
  }
}

interface SeedOptions extends GenerateOptions {
  /** Skip when the products table already has rows. */
  ifEmpty?: boolean
  /** Skip the KV URL mappings (faster when a test does not need them). */
  skipKv?: boolean
}

/** Seeds the demo catalogue into D1 (and KV URL mappings). Returns the catalogue written. */
export async function seedDemoCatalogue(db: D1Database, kv: KVNamespace | undefined, opts: SeedOptions = {}) {
  if (opts.ifEmpty) {
    const row = await db.prepare('SELECT COUNT(*) AS n FROM products').first<{ n: number }>()
    if ((row?.n ?? 0) > 0) return null
  }
  const cat = generateCatalogue(opts)
  await runBatches(db, catalogueStatements(db, cat, { clear: true }))
  await runBatches(db, demoPincodeStatements(db, new Date().toISOString()))
  if (kv && !opts.skipKv) await putUrlMappings(kv, cat.urlMappings)
  return cat
}
