/**
 * Statements and KV mappings for a validated import file. Products are stored by the catalogue's
 * one product writer (worker/catalog/writer.ts, also the back office's), the other entities by the
 * seed's row writers, so imported rows are exactly like seeded and authored ones.
 */

import {
  categoryMapping,
  cmsPageMapping,
  productMapping,
  type UrlMapping,
} from '../../../worker/catalog/url-map'
import { writeProductStatements } from '../../../worker/catalog/writer'
import {
  attributeStatement,
  CATALOGUE_TABLES,
  CONTENT_TABLES,
  categoryStatement,
  cmsBlockStatement,
  cmsPageStatement,
  reviewStatement,
  taxRuleStatement,
} from '../seed/write'
import type { ImportRecord } from './transform'

/**
 * Statements that empty the catalogue's tables (a `--replace` import; orders and customers stay).
 * The shop's content (CONTENT_TABLES) stays unless `content` says to replace it too.
 */
export function clearCatalogueStatements(
  db: D1Database,
  opts: { content?: boolean } = {},
): D1PreparedStatement[] {
  const kept = new Set<string>(opts.content ? [] : CONTENT_TABLES)
  return CATALOGUE_TABLES.filter((t) => !kept.has(t)).map((t) => db.prepare(`DELETE FROM ${t}`))
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
      out.push(...writeProductStatements(db, entry.doc))
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
