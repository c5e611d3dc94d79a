/**
 * Node entry (bundled by scripts/seed.mjs with esbuild): the demo catalogue as SQL files and KV
 * bulk-put JSON for wrangler.
 */
import { generateCatalogue } from './generate'
import { demoPincodeStatements } from './pincodes'
import { createRecordingDb, toMergedSql, toSql } from './sql-recorder'
import { catalogueStatements } from './write'

interface SeedSqlResult {
  /** SQL chunks (each a file for `wrangler d1 execute --file`), in order. */
  sqlChunks: string[]
  /** `wrangler kv bulk put` entries. */
  kv: Array<{ key: string; value: string }>
  counts: Record<string, number>
}

/** Builds the seed SQL (chunked at roughly `maxChunkBytes`) and the KV entries. */
export function buildSeedSql(
  opts: {
    seed?: number
    scale?: number
    maxChunkBytes?: number
    /** Keep existing reviews / stock rows instead of replacing them with the demo ones. */
    keep?: { reviews?: boolean; stock?: boolean }
  } = {},
): SeedSqlResult {
  const cat = generateCatalogue(opts)
  const db = createRecordingDb()
  const max = opts.maxChunkBytes ?? 8_000_000
  const sqlChunks: string[] = []
  let current: string[] = []
  let size = 0
  // wrangler's execute costs a few ms per statement: same-shaped INSERTs are merged into
  // multi-row statements (< 90 KB each); the search index's per-product DELETEs and version bumps
  // are dropped (the tables were just cleared) and one version bump is added at the end.
  const all = catalogueStatements(db, cat, { clear: true, keep: opts.keep })
  const sqlOf = (st: D1PreparedStatement) => (st as unknown as { sql: string }).sql
  const clearCount = all.findIndex((st) => !/^DELETE FROM \w+$/.test(sqlOf(st)))
  const clears = all.slice(0, clearCount).map(toSql)
  const rest = all.slice(clearCount)
  const writes = rest.filter((st) => !/^\s*(DELETE FROM search_|UPDATE search_meta)/.test(sqlOf(st)))
  const versionBump = rest.findLast((st) => /^\s*UPDATE search_meta/.test(sqlOf(st)))
  const pins = demoPincodeStatements(db, '2026-01-01T00:00:00.000Z').map(toSql)
  const sqls = [...clears, ...toMergedSql(writes), ...pins, ...(versionBump ? [toSql(versionBump)] : [])]
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
      coupons: cat.coupons?.length ?? 0,
      urlMappings: cat.urlMappings.length,
    },
  }
}

/** The demo cash-on-delivery PIN codes alone, as SQL (for a local state seeded before they existed). */
export function demoPincodeSql(): string {
  const db = createRecordingDb()
  return demoPincodeStatements(db, '2026-01-01T00:00:00.000Z').map(toSql).join('\n')
}
