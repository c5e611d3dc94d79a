/**
 * CMS pages and blocks, stores, home data, common config, OTW data, attributes, tax rules,
 * approved reviews, size guides and search content from D1.
 */

import { REVIEW_STATUS_APPROVED, REVIEWS_PAGE_SIZE } from '@shared/config'
import type { Attribute, CmsBlock, CmsPage, Review, StoreLocation, TaxRule } from '@shared/schemas/catalog'
import { chunk, parseDoc, placeholders } from './db'

/** The tables of CMS documents: each row active or not, for one store view or all (store 0). */
type CmsTable = 'cms_pages' | 'cms_blocks'

/** An active CMS document by id; an inactive one is not returned. */
async function activeCmsById<T>(db: D1Database, table: CmsTable, id: number): Promise<T | null> {
  const row = await db
    .prepare(`SELECT doc FROM ${table} WHERE id = ? AND is_active = 1`)
    .bind(id)
    .first<{ doc: string }>()
  return row ? parseDoc<T>(row.doc) : null
}

/**
 * An active CMS document by identifier for a store view (store-specific first, else store 0 = all
 * views).
 */
async function activeCmsByIdentifier<T>(
  db: D1Database,
  table: CmsTable,
  identifier: string,
  storeId: number,
): Promise<T | null> {
  const row = await db
    .prepare(
      `SELECT doc FROM ${table} WHERE identifier = ? AND is_active = 1 AND store_id IN (?, 0)
       ORDER BY store_id DESC LIMIT 1`,
    )
    .bind(identifier, storeId)
    .first<{ doc: string }>()
  return row ? parseDoc<T>(row.doc) : null
}

/** A CMS page by id; inactive pages are not returned. */
export const getCmsPageById = (db: D1Database, id: number) => activeCmsById<CmsPage>(db, 'cms_pages', id)

/** A CMS page by identifier for a store view (store-specific first, else store 0 = all views). */
export const getCmsPageByIdentifier = (db: D1Database, identifier: string, storeId = 0) =>
  activeCmsByIdentifier<CmsPage>(db, 'cms_pages', identifier, storeId)

/** A CMS block by id; inactive blocks are not returned. */
export const getCmsBlockById = (db: D1Database, id: number) => activeCmsById<CmsBlock>(db, 'cms_blocks', id)

/** A CMS block by identifier for a store view (store-specific first, else store 0). */
export const getCmsBlockByIdentifier = (db: D1Database, identifier: string, storeId = 0) =>
  activeCmsByIdentifier<CmsBlock>(db, 'cms_blocks', identifier, storeId)

/**
 * The documents of a catalogue table: every one (the statement `all`) when `keys` is undefined, else
 * those of the given keys, deduplicated and bound in chunks (D1's limit of bound parameters), `some`
 * writing the statement for a chunk's placeholders.
 */
async function docsOf<T>(
  db: D1Database,
  keys: readonly string[] | undefined,
  all: string,
  some: (inList: string) => string,
): Promise<T[]> {
  if (!keys) {
    const res = await db.prepare(all).all<{ doc: string }>()
    return res.results.map((r) => parseDoc<T>(r.doc))
  }
  if (keys.length === 0) return []
  const res = await db.batch<{ doc: string }>(
    chunk([...new Set(keys)]).map((part) => db.prepare(some(placeholders(part.length))).bind(...part)),
  )
  return res.flatMap((r) => r.results.map((row) => parseDoc<T>(row.doc)))
}

/** Active CMS blocks, optionally only the given identifiers (at most 500). */
export const getCmsBlocks = (db: D1Database, identifiers?: readonly string[]) =>
  docsOf<CmsBlock>(
    db,
    identifiers,
    'SELECT doc FROM cms_blocks WHERE is_active = 1 ORDER BY id LIMIT 500',
    (inList) => `SELECT doc FROM cms_blocks WHERE is_active = 1 AND identifier IN (${inList})`,
  )

/** Physical stores for the store locator, in display order. */
export async function getStores(db: D1Database): Promise<StoreLocation[]> {
  const res = await db.prepare('SELECT doc FROM stores ORDER BY position, id').all<{ doc: string }>()
  return res.results.map((r) => parseDoc<StoreLocation>(r.doc))
}

/** One physical store by code; null when absent. */
export async function getStoreByCode(db: D1Database, code: string): Promise<StoreLocation | null> {
  const row = await db.prepare('SELECT doc FROM stores WHERE code = ?').bind(code).first<{ doc: string }>()
  return row ? parseDoc<StoreLocation>(row.doc) : null
}

/** A singleton content document ('home', 'common-config', 'otw'...) for a store (falls back to 0). */
export async function getContentDoc<T = unknown>(
  db: D1Database,
  kind: string,
  storeId = 0,
): Promise<T | null> {
  const row = await db
    .prepare(
      'SELECT doc FROM content_docs WHERE kind = ? AND store_id IN (?, 0) ORDER BY store_id DESC LIMIT 1',
    )
    .bind(kind, storeId)
    .first<{ doc: string }>()
  return row ? parseDoc<T>(row.doc) : null
}

/** Attributes, optionally only the given attribute codes. */
export const getAttributes = (db: D1Database, codes?: readonly string[]) =>
  docsOf<Attribute>(
    db,
    codes,
    'SELECT doc FROM attributes ORDER BY attribute_id',
    (inList) => `SELECT doc FROM attributes WHERE attribute_code IN (${inList}) ORDER BY attribute_id`,
  )

/** Every tax rule. */
export async function getTaxRules(db: D1Database): Promise<TaxRule[]> {
  const res = await db.prepare('SELECT doc FROM tax_rules ORDER BY id').all<{ doc: string }>()
  return res.results.map((r) => parseDoc<TaxRule>(r.doc))
}

/** Approved reviews (review_status 1) of a product, newest first, page size 50. */
export async function getApprovedReviews(db: D1Database, productId: number, page = 0): Promise<Review[]> {
  const res = await db
    .prepare(
      `SELECT doc FROM reviews WHERE product_id = ? AND review_status = ?
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .bind(productId, REVIEW_STATUS_APPROVED, REVIEWS_PAGE_SIZE, Math.max(0, page) * REVIEWS_PAGE_SIZE)
    .all<{ doc: string }>()
  return res.results.map((r) => parseDoc<Review>(r.doc))
}

/** Size guides by code (all when codes is undefined). */
export const getSizeGuides = (db: D1Database, codes?: readonly string[]) =>
  docsOf<unknown>(
    db,
    codes,
    'SELECT doc FROM size_guides ORDER BY id',
    (inList) => `SELECT doc FROM size_guides WHERE code IN (${inList}) ORDER BY id`,
  )

/** Search-page content for a term, falling back to the default ('' term). */
export async function getSearchContent(db: D1Database, term: string): Promise<unknown | null> {
  const row = await db
    .prepare("SELECT doc FROM search_content WHERE term IN (?, '') ORDER BY term DESC LIMIT 1")
    .bind(term.trim().toLowerCase())
    .first<{ doc: string }>()
  return row ? parseDoc<unknown>(row.doc) : null
}
