// Persisted facet postings (migration 0110): the catalogue writer builds them, an isolate reads a
// field's postings on demand instead of grouping search_terms, and postings never outlive the terms
// they were built from — whatever path changed the terms, the very next answer counts right.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { clearAllMemos, memoTable } from '../../../worker/platform/memo'
import { facetPostingsStatements } from '../../../worker/search/builds/catalogue-build'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import { bumpIndexVersionStatement, noteIndexVersion } from '../../../worker/search/held/index-version'
import { readGaps } from '../../../worker/search/held/stored-builds'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import { recordingDb } from '../../helpers/recording-db'
import { listedDoc, type StoredDoc, storedDocs } from '../../helpers/search-fixtures'
import { shopListing } from '../../helpers/search-requests.mjs'

type Doc = StoredDoc

const request = (aggs: Record<string, unknown>) => ({
  entityType: 'product',
  size: 24,
  body: {
    ...shopListing(),
    aggs,
  },
})
const COLOUR = { c: { terms: { field: 'color_options', size: 1000 } } }

/** Colour counts of the listed products, computed from the documents alone. */
function expectedColours(all: Doc[]) {
  const counts = new Map<number, number>()
  for (const d of all) {
    if (!listedDoc(d)) continue
    for (const v of new Set(d.color_options ?? [])) counts.set(v, (counts.get(v) ?? 0) + 1)
  }
  return new Map(counts)
}

async function colours(db: D1Database = env.DB) {
  const res = await searchProducts(db, planSearch(request(COLOUR)))
  const buckets = (res.aggregations.c as { buckets: { key: unknown; doc_count: number }[] }).buckets
  return new Map(buckets.map((b) => [Number(b.key), b.doc_count]))
}

/** The importer's write: the product and its index rows, then the postings rebuilt, then the bump. */
async function importProduct(doc: Doc) {
  await env.DB.batch([
    env.DB.prepare('UPDATE products SET doc = ? WHERE id = ?').bind(JSON.stringify(doc), doc.id),
    ...indexProductStatements(env.DB, doc as unknown as Record<string, unknown>),
    ...facetPostingsStatements(env.DB),
    bumpIndexVersionStatement(env.DB),
  ])
}

const builtFields = async () =>
  (await env.DB.prepare('SELECT COUNT(*) AS n FROM search_posting_fields').first<{ n: number }>())?.n ?? 0

function listedTarget(all: Doc[]) {
  return all.find((d) => listedDoc(d) && d.color_options?.length) as Doc
}

describe('persisted facet postings', () => {
  beforeEach(async () => {
    // Each test starts from the seeded catalogue's postings and an empty isolate.
    await env.DB.batch([...facetPostingsStatements(env.DB), bumpIndexVersionStatement(env.DB)])
    clearAllMemos()
  })

  it('are built by the seed: every value of a small field, with the ids holding it', async () => {
    expect(await builtFields()).toBeGreaterThan(0)
    const row = await env.DB.prepare(
      "SELECT value, n, id_sum, gaps FROM search_postings WHERE field = 'color_options' ORDER BY value LIMIT 1",
    ).first<{ value: string; n: number; id_sum: number; gaps: string }>()
    expect(row).not.toBeNull()
    const ids = readGaps(row?.gaps ?? '[]', row?.n ?? -1, row?.id_sum ?? -1)
    const holding = (await storedDocs())
      .filter((d) => (d.color_options ?? []).map(String).includes(row?.value ?? ''))
      .map((d) => d.id)
      .sort((a, b) => a - b)
    expect(ids).toEqual(holding)
    // A field with more values than the engine keeps is listed without postings (counted in SQL).
    const sku = await env.DB.prepare(
      "SELECT n_values, (SELECT COUNT(*) FROM search_postings WHERE field = 'sku') AS rows FROM search_posting_fields WHERE field = 'sku'",
    ).first<{ n_values: number; rows: number }>()
    expect(sku?.n_values).toBeGreaterThan(0)
  })

  it('are read per field on demand: the statement does not group search_terms, only the asked field is kept', async () => {
    const { db, sql } = recordingDb(env.DB)
    expect(await colours(db)).toEqual(expectedColours(await storedDocs()))
    expect(sql.some((s) => s.includes('AS fac'))).toBe(false)
    expect(sql.some((s) => s.includes('FROM search_postings') || s.includes('search_postings p'))).toBe(true)
    const facets = memoTable().find((m) => m.name === 'search facet index')
    expect(facets?.entries).toBe(1)
    // A second field is read when first asked for, the first one stays.
    await searchProducts(env.DB, planSearch(request({ s: { terms: { field: 'size_options', size: 100 } } })))
    expect(memoTable().find((m) => m.name === 'search facet index')?.entries).toBe(2)
  })

  it('an import that changes a colour: the very next answer counts the new colour', async () => {
    expect(await colours()).toEqual(expectedColours(await storedDocs()))
    const target = listedTarget(await storedDocs())
    await importProduct({ ...target, color_options: [987654] })
    const after = await colours()
    expect(after.get(987654)).toBe(1)
    expect(after).toEqual(expectedColours(await storedDocs()))
    expect(await builtFields()).toBeGreaterThan(0)
  })

  it('a field no product has is known empty from the build: no grouping of the terms for it either', async () => {
    const { db, sql } = recordingDb(env.DB)
    const res = await searchProducts(
      db,
      planSearch(request({ ...COLOUR, none: { terms: { field: 'rts_options', size: 10 } } })),
    )
    expect((res.aggregations.none as { buckets: unknown[] }).buckets).toEqual([])
    expect(sql.some((s) => s.includes('AS fac'))).toBe(false)
  })

  it('a stored row whose differences do not add up is not used: the field is grouped from the terms', async () => {
    const row = await env.DB.prepare(
      "SELECT value, gaps FROM search_postings WHERE field = 'color_options' AND n > 2 ORDER BY n DESC LIMIT 1",
    ).first<{ value: string; gaps: string }>()
    const gaps = JSON.parse(row?.gaps ?? '[]') as number[]
    // Same count and same last id, another order: only the sum of the ids tells.
    const shuffled = [gaps[0], ...gaps.slice(1).reverse()]
    expect(shuffled).not.toEqual(gaps)
    await env.DB.prepare("UPDATE search_postings SET gaps = ?1 WHERE field = 'color_options' AND value = ?2")
      .bind(JSON.stringify(shuffled), row?.value)
      .run()
    const { db, sql } = recordingDb(env.DB)
    expect(await colours(db)).toEqual(expectedColours(await storedDocs()))
    expect(sql.some((s) => s.includes('AS fac'))).toBe(true)
  })

  it('a terms write without a rebuild drops the postings; answers fall back to the terms and stay right', async () => {
    expect(await colours()).toEqual(expectedColours(await storedDocs()))
    const target = listedTarget(await storedDocs())
    const changed = { ...target, color_options: [876543] }
    await env.DB.batch([
      env.DB.prepare('UPDATE products SET doc = ? WHERE id = ?').bind(JSON.stringify(changed), changed.id),
      ...indexProductStatements(env.DB, changed as unknown as Record<string, unknown>),
    ])
    expect(await builtFields()).toBe(0)
    const { db, sql } = recordingDb(env.DB)
    const after = await colours(db)
    expect(after.get(876543)).toBe(1)
    expect(after).toEqual(expectedColours(await storedDocs()))
    expect(sql.some((s) => s.includes('AS fac'))).toBe(true)
  })

  it('a version bump that leaves the terms alone keeps the postings', async () => {
    const before = await builtFields()
    await env.DB.batch([bumpIndexVersionStatement(env.DB)])
    expect(await builtFields()).toBe(before)
    const { db, sql } = recordingDb(env.DB)
    expect(await colours(db)).toEqual(expectedColours(await storedDocs()))
    expect(sql.some((s) => s.includes('AS fac'))).toBe(false)
  })

  it('two versions interleaved: a request still at the old version never counts with old postings', async () => {
    await colours()
    const oldVersion = (
      await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first<{
        value: number
      }>()
    )?.value as number
    const all = await storedDocs()
    const target = listedTarget(all)
    await importProduct({ ...target, color_options: [765432] })
    // Another request of this isolate recorded the old version after the import landed.
    noteIndexVersion(oldVersion)
    const after = await colours()
    expect(after.get(765432)).toBe(1)
    expect(after).toEqual(expectedColours(await storedDocs()))
    // And back: a second import restores the colours; the isolate holds postings of two versions by now.
    await importProduct(target)
    noteIndexVersion(oldVersion)
    const restored = await colours()
    expect(restored.get(765432)).toBeUndefined()
    expect(restored).toEqual(expectedColours(await storedDocs()))
  })
})
