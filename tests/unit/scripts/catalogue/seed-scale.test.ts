// The demo seed is generated and written one slice at a time so that a 100,000-product catalogue
// fits in memory: the slices must not change what is written (rows equal to the per-product
// writers', whatever the slice size), names and URL keys stay unique, category counts are true,
// and the SQL keeps D1's limits with the clears first and the catalogue version bump last.
import type { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { buildTaxRules } from '../../../../scripts/catalogue/seed/attributes'
import { catalogueSlices, generateCatalogue } from '../../../../scripts/catalogue/seed/generate'
import { noSeedCounts, seedSqlChunks } from '../../../../scripts/catalogue/seed/node-entry'
import { createRecordingDb, toSql } from '../../../../scripts/catalogue/seed/sql-recorder'
import {
  inventoryStatement,
  PRODUCT_TABLES,
  productStatements,
} from '../../../../scripts/catalogue/seed/write'
import { migratedDb } from '../../../helpers/sqlite'

/** A table's rows, in a stable order, as text. */
const rowsOf = (db: DatabaseSync, table: string) =>
  (db.prepare(`SELECT * FROM ${table}`).all() as object[]).map((r) => JSON.stringify(r)).sort()

describe('demo seed in slices', () => {
  it('writes the rows the per-product writers write, whatever the slice and file size', () => {
    const streamed = migratedDb()
    for (const { sql } of seedSqlChunks()) streamed.exec(sql)
    const small = migratedDb()
    for (const { sql } of seedSqlChunks({ sliceSize: 7, maxChunkBytes: 150_000 })) small.exec(sql)
    // The engine's own per-product statements (with their index deletes and version bumps), one by one.
    const oneByOne = migratedDb()
    const rec = createRecordingDb()
    const cat = generateCatalogue()
    // With the demo's tax rules, as the seed writes them (each shopper's shown price in the index).
    const taxRules = buildTaxRules()
    for (const p of cat.products)
      for (const st of productStatements(rec, p, taxRules)) oneByOne.exec(toSql(st))
    for (const r of cat.inventory) oneByOne.exec(toSql(inventoryStatement(rec, r)))
    for (const table of PRODUCT_TABLES) {
      const rows = rowsOf(streamed, table)
      expect(rows.length, table).toBeGreaterThan(300)
      expect(rowsOf(oneByOne, table), table).toEqual(rows)
    }
    for (const table of [
      ...PRODUCT_TABLES,
      'categories',
      'reviews',
      'content_docs',
      'coupons',
      'cod_pincodes',
    ])
      expect(rowsOf(small, table), table).toEqual(rowsOf(streamed, table))
  }, 60_000)

  it('clears first, moves the catalogue version on last, and keeps every statement within D1 limits', () => {
    const counts = noSeedCounts()
    const chunks = [...seedSqlChunks({ scale: 1500, maxChunkBytes: 2_000_000 }, counts)]
    const statements = chunks.flatMap((c) => c.sql.split(/;\n(?=INSERT|DELETE|UPDATE)/))
    expect(statements.length).toBe(counts.statements)
    expect(statements[0]).toMatch(/^DELETE FROM /)
    expect(statements.at(-1)).toMatch(/^UPDATE search_meta SET value = .* WHERE key = 'version';$/)
    expect(statements.filter((s) => /search_meta/.test(s))).toHaveLength(1)
    expect(statements.filter((s) => /^DELETE FROM search_\w+ WHERE/.test(s))).toHaveLength(0)
    for (const s of statements) expect(s.length).toBeLessThan(100_000)
    for (const c of chunks) expect(c.sql.length).toBeLessThanOrEqual(2_000_000)
    expect(counts.products).toBe(1529)
    expect(chunks.flatMap((c) => c.kv).length).toBe(counts.urlMappings)
    // Multi-row statements: far fewer statements than rows.
    expect(counts.statements).toBeLessThan((counts.products + counts.variants) / 10)
  }, 60_000)

  it('holds only a slice of products at a time', () => {
    let slices = 0
    for (const slice of catalogueSlices({ scale: 2000 }, 100)) {
      slices++
      expect(slice.products.length).toBeLessThanOrEqual(100)
    }
    expect(slices).toBeGreaterThan(15)
  })

  it('is deterministic for a seed and scale', () => {
    const a = JSON.stringify(generateCatalogue({ scale: 700, seed: 3 }))
    expect(JSON.stringify(generateCatalogue({ scale: 700, seed: 3 }))).toBe(a)
    expect(JSON.stringify(generateCatalogue({ scale: 700, seed: 4 }))).not.toBe(a)
  })

  it('gives unique names, SKUs, URL keys and URL mappings, and true category counts, at 3,000', () => {
    const cat = generateCatalogue({ scale: 3000 })
    const unique = (values: string[]) => expect(new Set(values).size).toBe(values.length)
    unique(cat.products.map((p) => p.name))
    unique(cat.products.map((p) => p.url_key))
    unique(cat.products.map((p) => p.url_path))
    unique(cat.products.flatMap((p) => [p.sku, ...p.configurable_children.map((c) => c.sku)]))
    unique(cat.urlMappings.map(([key]) => key))
    const listed = cat.products.filter((p) => p.status === 1 && p.visibility !== 1)
    for (const c of cat.categories)
      expect(c.product_count, c.slug).toBe(listed.filter((p) => p.category_ids.includes(c.id)).length)
    const sarees = cat.categories.find((c) => c.slug === 'sarees')
    expect(sarees?.product_count).toBeGreaterThan(100)
  }, 60_000)
})
