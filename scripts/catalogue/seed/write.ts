/**
 * Turns a generated (or imported) catalogue into D1 statements and KV mappings, and seeds it. The
 * demo seed is prepared against a recording D1 shim and rendered as multi-row SQL (`seedSteps`),
 * one slice at a time: in workerd the SQL runs as D1 batches (`seedDemoCatalogueSteps`; the worker
 * tests run the SQL prepared once per run through ./apply.ts), in Node (scripts/seed.mjs) it
 * becomes the files `wrangler d1 execute` runs.
 */
import type { Attribute, Product, Review, StoreLocation, TaxRule } from '../../../shared/schemas/catalog'
import {
  categoryStatement,
  cmsBlockStatement,
  cmsPageStatement,
  productStatements,
  sizeGuideStatement,
} from '../../../worker/catalog/writer'
import { bumpIndexVersionStatement, facetPostingsStatements } from '../../../worker/search'
import { putUrlMappings, runSql } from './apply'
import { buildTaxRules } from './attributes'
import { type CatalogueRest, type CatalogueSlice, catalogueSlices } from './generate'
import { demoPincodeStatements } from './pincodes'
import { createRecordingDb, toMergedSql, toSql } from './sql-recorder'
import type { GenerateOptions, InventorySeedRow } from './types'

/** Tables a product's rows go to (productStatements, inventoryStatement), children before parents. */
export const PRODUCT_TABLES = [
  'search_terms',
  'search_numbers',
  'search_tokens',
  'search_docs',
  'inventory',
  'products',
] as const

/**
 * The shop's content among the catalogue's tables: CMS pages and blocks, the home page's
 * documents, size guides, search-page content and store locations. A replacing import keeps them
 * unless told to replace them too (the footer's pages must not vanish with a new catalogue).
 */
export const CONTENT_TABLES = [
  'cms_pages',
  'cms_blocks',
  'stores',
  'content_docs',
  'size_guides',
  'search_content',
] as const

/** Tables the catalogue owns, cleared before a full reseed (children before parents). */
export const CATALOGUE_TABLES = [
  ...PRODUCT_TABLES,
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

export { categoryStatement, cmsBlockStatement, cmsPageStatement, productStatements }

const json = (v: unknown) => JSON.stringify(v)
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)

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

type Conflict = 'REPLACE' | 'IGNORE'

/**
 * One row by column name: `INSERT OR <conflict> INTO table (columns) VALUES (?1, …)`. Rows of one
 * table share the SQL text, so the recorder merges them into multi-row inserts.
 */
function rowStatement(
  db: D1Database,
  table: string,
  row: Record<string, unknown>,
  conflict: Conflict = 'REPLACE',
): D1PreparedStatement {
  const columns = Object.keys(row)
  const slots = columns.map((_, i) => `?${i + 1}`)
  return db
    .prepare(`INSERT OR ${conflict} INTO ${table} (${columns.join(', ')}) VALUES (${slots.join(', ')})`)
    .bind(...Object.values(row))
}

export function inventoryStatement(db: D1Database, r: InventorySeedRow, conflict?: Conflict) {
  const { sku, product_id, parent_sku, qty } = r
  return rowStatement(
    db,
    'inventory',
    { sku, product_id, parent_sku, qty, is_in_stock: r.is_in_stock ? 1 : 0 },
    conflict,
  )
}

export const attributeStatement = (db: D1Database, a: Attribute) =>
  rowStatement(db, 'attributes', {
    attribute_id: a.attribute_id,
    attribute_code: a.attribute_code,
    doc: json(a),
  })

export const taxRuleStatement = (db: D1Database, t: TaxRule) =>
  rowStatement(db, 'tax_rules', { id: t.id, code: t.code, doc: json(t) })

export function reviewStatement(db: D1Database, r: Review, conflict?: Conflict) {
  const { id, product_id, review_status, created_at } = r
  return rowStatement(db, 'reviews', { id, product_id, review_status, created_at, doc: json(r) }, conflict)
}

const storeStatement = (db: D1Database, s: StoreLocation) =>
  rowStatement(db, 'stores', { id: s.id, code: s.code, position: num(s.position, 0), doc: json(s) })

/** What a reseed keeps of the live shop: reviews shoppers wrote, stock levels the shop has moved. */
interface KeepOptions {
  /** Keep existing reviews (the demo ones are added only where their id is free). */
  reviews?: boolean
  /** Keep existing stock rows (new skus get the demo stock). */
  stock?: boolean
}

/** Statements that empty the catalogue tables before a full reseed (kept tables stay as they are). */
function clearStatements(db: D1Database, keep: KeepOptions = {}): D1PreparedStatement[] {
  const kept = new Set<string>([...(keep.reviews ? ['reviews'] : []), ...(keep.stock ? ['inventory'] : [])])
  return CATALOGUE_TABLES.filter((t) => !kept.has(t)).map((t) => db.prepare(`DELETE FROM ${t}`))
}

/** The demo's tax rules (the seed writes them): the index holds each shopper's shown price by them. */
const DEMO_TAX_RULES = buildTaxRules()

/** The per-product statements that clear a product's index rows or move the version on. */
const INDEX_UPKEEP = /^\s*(DELETE FROM search_|UPDATE search_meta)/

/**
 * A product row and its search-index rows, for tables that were just cleared: the per-product
 * index deletes and version bumps are left out (one bump follows the whole seed).
 */
function freshProductStatements(db: D1Database, p: Product): D1PreparedStatement[] {
  return productStatements(db, p, DEMO_TAX_RULES).filter(
    (st) => !INDEX_UPKEEP.test((st as unknown as { sql: string }).sql),
  )
}

/** A slice's products (with their index rows) and stock rows. */
function sliceStatements(db: D1Database, slice: CatalogueSlice, keep: KeepOptions): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = []
  for (const p of slice.products) out.push(...freshProductStatements(db, p))
  for (const r of slice.inventory) out.push(inventoryStatement(db, r, keep.stock ? 'IGNORE' : 'REPLACE'))
  return out
}

/** Everything after the products: categories, content, reviews, demo coupons and the rest. */
function restStatements(db: D1Database, rest: CatalogueRest, keep: KeepOptions): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = []
  for (const c of rest.categories) out.push(categoryStatement(db, c))
  for (const a of rest.attributes) out.push(attributeStatement(db, a))
  for (const t of rest.taxRules) out.push(taxRuleStatement(db, t))
  for (const p of rest.cmsPages) out.push(cmsPageStatement(db, p))
  for (const b of rest.cmsBlocks) out.push(cmsBlockStatement(db, b))
  for (const s of rest.stores) out.push(storeStatement(db, s))
  for (const r of rest.reviews) out.push(reviewStatement(db, r, keep.reviews ? 'IGNORE' : 'REPLACE'))
  // Coupons are never cleared: a shop's own coupons stay, a demo code that exists is left as it is.
  for (const c of rest.coupons ?? []) {
    out.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO coupons (code, kind, amount, min_subtotal, starts_at, expires_at, label)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
        )
        .bind(c.code, c.kind, c.amount, c.minSubtotal, c.startsAt, c.expiresAt, c.label),
    )
  }
  for (const [kind, doc] of Object.entries(rest.content)) {
    out.push(
      db
        .prepare('INSERT OR REPLACE INTO content_docs (kind, store_id, doc) VALUES (?1, 0, ?2)')
        .bind(kind, json(doc)),
    )
  }
  for (const g of rest.sizeGuides) out.push(sizeGuideStatement(db, g))
  for (const s of rest.searchContent)
    out.push(rowStatement(db, 'search_content', { term: s.term, doc: json(s.doc) }))
  out.push(
    db
      .prepare("INSERT OR REPLACE INTO app_meta (key, value) VALUES ('catalogue_generated_at', ?1)")
      .bind(rest.generatedAt),
  )
  return out
}

/**
 * The statements that close a seed, after every catalogue row is written: the facet postings are
 * built from the finished search terms (so the first listing after the seed reads them instead of
 * grouping every term), then the catalogue version moves on once, so every per-isolate cache built
 * on the old catalogue is dropped.
 */
function finishStatements(db: D1Database): D1PreparedStatement[] {
  return [...facetPostingsStatements(db), bumpIndexVersionStatement(db)]
}

/** What a seed wrote. */
export interface SeedCounts {
  products: number
  variants: number
  categories: number
  reviews: number
  coupons: number
  urlMappings: number
  /** SQL statements (multi-row) and their total size in bytes. */
  statements: number
  sqlBytes: number
}

/** One step of a seed: SQL statements to run in order, then the URL mappings of what they wrote. */
interface SeedStep {
  sql: string[]
  urlMappings: CatalogueSlice['urlMappings']
}

interface SeedStepOptions extends GenerateOptions {
  /** Keep the live reviews / stock rows instead of replacing them with the demo ones. */
  keep?: KeepOptions
  /** When the demo PIN codes are stamped as created. */
  pincodesAt: string
  /** Products per slice (bounds the memory a step needs). */
  sliceSize?: number
}

/**
 * The whole demo seed as SQL, one slice of the catalogue at a time, so memory stays bounded at any
 * scale: first the clears, then each slice's rows as multi-row INSERTs (≤ 90 KB a statement), then
 * everything that depends on all products, and last the version bump. `counts` is filled in as the
 * steps are taken. Both seeders use it: in workerd the steps run as D1 batches; in Node they become
 * the SQL files `wrangler d1 execute` runs.
 */
export function* seedSteps(opts: SeedStepOptions, counts: SeedCounts): Generator<SeedStep> {
  const db = createRecordingDb()
  const keep = opts.keep ?? {}
  const step = (
    stmts: D1PreparedStatement[],
    urlMappings: SeedStep['urlMappings'],
    merge = true,
  ): SeedStep => {
    const sql = merge ? toMergedSql(stmts) : stmts.map(toSql)
    counts.statements += sql.length
    for (const s of sql) counts.sqlBytes += s.length + 1
    counts.urlMappings += urlMappings.length
    return { sql, urlMappings }
  }
  yield step(clearStatements(db, keep), [], false)
  for (const slice of catalogueSlices(opts, opts.sliceSize)) {
    counts.products += slice.products.length
    for (const p of slice.products) counts.variants += p.configurable_children.length
    const stmts = sliceStatements(db, slice, keep)
    if (slice.rest) {
      counts.categories = slice.rest.categories.length
      counts.reviews = slice.rest.reviews.length
      counts.coupons = slice.rest.coupons?.length ?? 0
      stmts.push(...restStatements(db, slice.rest, keep), ...demoPincodeStatements(db, opts.pincodesAt))
    }
    yield step(stmts, slice.urlMappings)
  }
  yield step(finishStatements(db), [], false)
}

/** Counts before a seed. */
export const noSeedCounts = (): SeedCounts => ({
  products: 0,
  variants: 0,
  categories: 0,
  reviews: 0,
  coupons: 0,
  urlMappings: 0,
  statements: 0,
  sqlBytes: 0,
})

interface SeedOptions extends GenerateOptions {
  /** Skip the KV URL mappings (faster when a test does not need them). */
  skipKv?: boolean
}

/**
 * Seeds the demo catalogue into D1 (and KV URL mappings) one step at a time, yielding what has
 * been written after each step; the isolate holds one slice at a time, whatever the scale.
 */
export async function* seedDemoCatalogueSteps(
  db: D1Database,
  kv: KVNamespace | undefined,
  opts: SeedOptions = {},
): AsyncGenerator<Readonly<SeedCounts>> {
  const counts = noSeedCounts()
  const steps = seedSteps(
    { scale: opts.scale, seed: opts.seed, pincodesAt: new Date().toISOString() },
    counts,
  )
  for (const { sql, urlMappings } of steps) {
    await runSql(db, sql)
    // A slice's URL mappings once its rows are in D1. Nothing is left in flight across a yield:
    // a caller may carry the seed on from another request.
    if (kv && !opts.skipKv) await putUrlMappings(kv, urlMappings)
    yield counts
  }
}
