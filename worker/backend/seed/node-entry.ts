/**
 * Node entry (bundled by scripts/seed.mjs with esbuild): the demo catalogue as SQL files and KV
 * bulk-put JSON for wrangler.
 */
import { generateCatalogue } from './generate'
import { createRecordingDb, sqlLiteral, toSql } from './sql-recorder'
import { CATALOGUE_TABLES, catalogueStatements } from './write'

export interface SeedSqlResult {
  /** SQL chunks (each a file for `wrangler d1 execute --file`), in order. */
  sqlChunks: string[]
  /** `wrangler kv bulk put` entries. */
  kv: Array<{ key: string; value: string }>
  counts: Record<string, number>
}

/** Builds the seed SQL (chunked at roughly `maxChunkBytes`) and the KV entries. */
export function buildSeedSql(
  opts: { seed?: number; scale?: number; maxChunkBytes?: number } = {},
): SeedSqlResult {
  const cat = generateCatalogue(opts)
  const db = createRecordingDb()
  const max = opts.maxChunkBytes ?? 8_000_000
  const sqlChunks: string[] = []
  let current: string[] = []
  let size = 0
  // wrangler's local execute costs a few ms per statement: inventory goes in multi-row INSERTs,
  // and the search index's per-product DELETEs are dropped (the tables were just cleared).
  const statements = catalogueStatements(db, cat, { clear: true, skipInventory: true }).map(toSql)
  const sqls = statements.filter(
    (sql, i) => i < CATALOGUE_TABLES.length || !/^(DELETE FROM search_|UPDATE search_meta)/.test(sql),
  )
  sqls.push("UPDATE search_meta SET value = value + 1 WHERE key = 'version';")
  for (let i = 0; i < cat.inventory.length; i += 400) {
    const rows = cat.inventory
      .slice(i, i + 400)
      .map(
        (r) =>
          `(${[r.sku, r.product_id, r.parent_sku, r.qty, r.is_in_stock ? 1 : 0].map(sqlLiteral).join(', ')})`,
      )
    sqls.push(
      `INSERT OR REPLACE INTO inventory (sku, product_id, parent_sku, qty, is_in_stock) VALUES\n${rows.join(',\n')};`,
    )
  }
  for (const sql of sqls) {
    if (size + sql.length > max && current.length) {
      sqlChunks.push(current.join('\n'))
      current = []
      size = 0
    }
    current.push(sql)
    size += sql.length + 1
  }
  if (current.length) sqlChunks.push(current.join('\n'))
  return {
    sqlChunks,
    kv: cat.urlMappings.map(([key, value]) => ({ key, value: JSON.stringify(value) })),
    counts: {
      products: cat.products.length,
      variants: cat.products.reduce((n, p) => n + p.configurable_children.length, 0),
      categories: cat.categories.length,
      cmsPages: cat.cmsPages.length,
      cmsBlocks: cat.cmsBlocks.length,
      stores: cat.stores.length,
      reviews: cat.reviews.length,
      urlMappings: cat.urlMappings.length,
    },
  }
}
