/**
 * CMS pages and blocks, stores, home data, common config, OTW data, attributes, tax rules,
 * approved reviews, size guides and search content from D1.
 */

import { REVIEW_STATUS_APPROVED, REVIEWS_PAGE_SIZE } from '@shared/config'
import type { Attribute, CmsBlock, CmsPage, Review, StoreLocation, TaxRule } from '@shared/schemas/catalog'
import { chunk, parseDoc, placeholders } from './db'

/** A CMS page by id; inactive pages are not returned. */
export async function getCmsPageById(db: D1Database, id: number): Promise<CmsPage | null> {
  const row = await db
    .prepare('SELECT doc FROM cms_pages WHERE id = ? AND is_active = 1')
    .bind(id)
    .first<{ doc: string }>()
  return row ? parseDoc<CmsPage>(row.doc) : null
}

/** A CMS page by identifier for a store view (store-specific first, else store 0 = all views). */
export async function getCmsPageByIdentifier(
  db: D1Database,
  identifier: string,
  storeId = 0,
): Promise<CmsPage | null> {
  const row = await db
    .prepare(
      `SELECT doc FROM cms_pages WHERE identifier = ? AND is_active = 1 AND store_id IN (?, 0)
       ORDER BY store_id DESC LIMIT 1`,
    )
    .bind(identifier, storeId)
    .first<{ doc: string }>()
  return row ? parseDoc<CmsPage>(row.doc) : null
}

/** A CMS block by id; inactive blocks are not returned. */
export async function getCmsBlockById(db: D1Database, id: number): Promise<CmsBlock | null> {
  const row = await db
    .prepare('SELECT doc FROM cms_blocks WHERE id = ? AND is_active = 1')
    .bind(id)
    .first<{ doc: string }>()
  return row ? parseDoc<CmsBlock>(row.doc) : null
}

/** A CMS block by identifier for a store view (store-specific first, else store 0). */
export async function getCmsBlockByIdentifier(
  db: D1Database,
  identifier: string,
  storeId = 0,
): Promise<CmsBlock | null> {
  const row = await db
    .prepare(
      `SELECT doc FROM cms_blocks WHERE identifier = ? AND is_active = 1 AND store_id IN (?, 0)
       ORDER BY store_id DESC LIMIT 1`,
    )
    .bind(identifier, storeId)
    .first<{ doc: string }>()
  return row ? parseDoc<CmsBlock>(row.doc) : null
}

/** Active CMS blocks, optionally only the given identifiers (at most 500). */
export async function getCmsBlocks(db: D1Database, identifiers?: readonly string[]): Promise<CmsBlock[]> {
  if (!identifiers) {
    const res = await db
      .prepare('SELECT doc FROM cms_blocks WHERE is_active = 1 ORDER BY id LIMIT 500')
      .all<{ doc: string }>()
    return res.results.map((r) => parseDoc<CmsBlock>(r.doc))
  }
  if (identifiers.length === 0) return []
  const res = await db.batch<{ doc: string }>(
    chunk([...new Set(identifiers)]).map((part) =>
      db
        .prepare(
          `SELECT doc FROM cms_blocks WHERE is_active = 1 AND identifier IN (${placeholders(part.length)})`,
        )
        .bind(...part),
    ),
  )
  return res.flatMap((r) => r.results.map((row) => parseDoc<CmsBlock>(row.doc)))
}
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
export async function getAttributes(db: D1Database, codes?: readonly string[]): Promise<Attribute[]> {
  if (!codes) {
    const res = await db.prepare('SELECT doc FROM attributes ORDER BY attribute_id').all<{ doc: string }>()
    return res.results.map((r) => parseDoc<Attribute>(r.doc))
  }
  if (codes.length === 0) return []
  const res = await db.batch<{ doc: string }>(
    chunk([...new Set(codes)]).map((part) =>
      db
        .prepare(
          `SELECT doc FROM attributes WHERE attribute_code IN (${placeholders(part.length)}) ORDER BY attribute_id`,
        )
        .bind(...part),
    ),
  )
  return res.flatMap((r) => r.results.map((row) => parseDoc<Attribute>(row.doc)))
}

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
export async function getSizeGuides(db: D1Database, codes?: readonly string[]): Promise<unknown[]> {
  if (!codes) {
    const res = await db.prepare('SELECT doc FROM size_guides ORDER BY id').all<{ doc: string }>()
    return res.results.map((r) => parseDoc<unknown>(r.doc))
  }
  if (codes.length === 0) return []
  const res = await db.batch<{ doc: string }>(
    chunk([...new Set(codes)]).map((part) =>
      db
        .prepare(`SELECT doc FROM size_guides WHERE code IN (${placeholders(part.length)}) ORDER BY id`)
        .bind(...part),
    ),
  )
  return res.flatMap((r) => r.results.map((row) => parseDoc<unknown>(row.doc)))
}

/** Search-page content for a term, falling back to the default ('' term). */
export async function getSearchContent(db: D1Database, term: string): Promise<unknown | null> {
  const row = await db
    .prepare("SELECT doc FROM search_content WHERE term IN (?, '') ORDER BY term DESC LIMIT 1")
    .bind(term.trim().toLowerCase())
    .first<{ doc: string }>()
  return row ? parseDoc<unknown>(row.doc) : null
}
