/**
 * Statements and KV mappings for a validated import file. The same writers as the seed are used,
 * so imported products get their inventory rows and search-index rows exactly like seeded ones.
 */
import {
  categoryMapping,
  cmsPageMapping,
  productMapping,
  type UrlMapping,
} from '../../../worker/catalog/url-map'
import {
  attributeStatement,
  categoryStatement,
  cmsBlockStatement,
  cmsPageStatement,
  inventoryFromProduct,
  inventoryStatement,
  productStatements,
  reviewStatement,
  taxRuleStatement,
} from '../seed/write'
import type { ImportRecord } from './transform'

/** Every statement that writes the records (upserts; a configurable's old child stock rows are replaced). */
export function importStatements(db: D1Database, records: readonly ImportRecord[]): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = []
  for (const { entry } of records) {
    switch (entry.type) {
      case 'product':
        out.push(...productStatements(db, entry.doc))
        out.push(db.prepare('DELETE FROM inventory WHERE parent_sku = ?1 OR sku = ?1').bind(entry.doc.sku))
        for (const row of inventoryFromProduct(entry.doc)) out.push(inventoryStatement(db, row))
        break
      case 'category':
        out.push(categoryStatement(db, entry.doc))
        break
      case 'attribute':
        out.push(attributeStatement(db, entry.doc))
        break
      case 'taxrule':
        out.push(taxRuleStatement(db, entry.doc))
        break
      case 'cms_page':
        out.push(cmsPageStatement(db, entry.doc))
        break
      case 'cms_block':
        out.push(cmsBlockStatement(db, entry.doc))
        break
      case 'review':
        out.push(reviewStatement(db, entry.doc))
        break
    }
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
