// The engine's four per-isolate caches live on the one memo: each is listed in the caches table with
// its bound and is tied to the catalogue index version; the vocabulary is stamped with the version
// it was read at, so a catalogue write costs one vocabulary read, not one per later search.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import app from '../../../worker/app'
import { clearAllMemos, memoTable } from '../../../worker/platform/memo'
import { DOC_CACHE_MAX_BYTES } from '../../../worker/search/held/documents'
import { FACET_INDEX_MAX_BYTES } from '../../../worker/search/held/facet-index'
import { noteIndexVersion } from '../../../worker/search/held/index-version'
import { RESULT_CACHE_MAX_BYTES, RESULT_CACHE_MAX_ENTRIES } from '../../../worker/search/held/result-sets'
import { VOCABULARY_MAX_BYTES } from '../../../worker/search/held/vocabulary'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import { recordingDb } from '../../helpers/recording-db'
import { seedSearchFixtures } from '../../helpers/search-fixtures'

/**
 * What every per-isolate cache may hold together: with the isolate's own baseline (code, the
 * renderer; about 12 MB measured) the heap stays under 64 MB, half the Workers memory limit.
 */
const ISOLATE_CACHES_MAX_BYTES = 48 * 1024 * 1024

const listed = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]

function search(db: D1Database, body: Record<string, unknown>) {
  return searchProducts(db, planSearch({ entityType: 'product', body: { ...body, size: 5 } }))
}

describe('engine caches on the memo', () => {
  it('lists the vocabulary, facet index, result sets and documents with their bounds, all versioned', async () => {
    await search(env.DB, {
      query: { bool: { must: [{ match: { name: 'silk' } }], filter: { bool: { must: listed } } } },
      aggs: { color: { terms: { field: 'color_options', size: 10 } } },
    })
    const table = new Map(memoTable().map((m) => [m.name, m]))
    const results = table.get('search result sets')
    expect(results).toMatchObject({ maxEntries: RESULT_CACHE_MAX_ENTRIES, maxBytes: RESULT_CACHE_MAX_BYTES })
    expect(results).toMatchObject({ versioned: true, entries: 1 })
    expect(table.get('search documents')).toMatchObject({ maxBytes: DOC_CACHE_MAX_BYTES, versioned: true })
    expect(table.get('search documents')?.entries).toBeGreaterThan(0)
    expect(table.get('search vocabulary')).toMatchObject({ maxBytes: VOCABULARY_MAX_BYTES, entries: 1 })
    expect(table.get('search vocabulary')?.versioned).toBe(true)
    // One entry per aggregated field, within the facet budget.
    expect(table.get('search facet index')).toMatchObject({ maxBytes: FACET_INDEX_MAX_BYTES, entries: 1 })
    expect(table.get('search fuzzy expansions')?.entries).toBeGreaterThan(0)
    // Every kept entry is counted: no cache that holds something reports zero bytes.
    for (const name of ['search result sets', 'search documents', 'search vocabulary', 'search facet index'])
      expect(table.get(name)?.bytes, name).toBeGreaterThan(0)
  })

  it('every cache of the isolate has a byte budget, and all of them together stay within the isolate budget', async () => {
    // Every module of the worker loaded (each memo registers when its module loads).
    expect(app).toBeDefined()
    const table = memoTable()
    for (const m of table) {
      expect(Number.isFinite(m.maxBytes), m.name).toBe(true)
      expect(m.bytes, m.name).toBeLessThanOrEqual(m.maxBytes)
    }
    for (const name of ['commerce reads', 'output pages', 'search fuzzy expansions'])
      expect(table.map((m) => m.name)).toContain(name)
    const total = table.filter((m) => !m.name.startsWith('test ')).reduce((n, m) => n + m.maxBytes, 0)
    expect(total).toBeLessThanOrEqual(ISOLATE_CACHES_MAX_BYTES)
  })

  it('reads the vocabulary once after a catalogue write, then reuses it', async () => {
    // A search without full text records the current index version; then the catalogue changes.
    await search(env.DB, { query: { bool: { filter: { bool: { must: listed } } } } })
    clearAllMemos()
    await env.DB.prepare("UPDATE search_meta SET value = value + 1 WHERE key = 'version'").run()
    const { db, seen } = recordingDb(env.DB)
    const first = await search(db, { query: { match: { name: 'silk' } } })
    const second = await search(db, { query: { match: { name: 'dress' } } })
    expect(first.total).toBeGreaterThan(0)
    expect(second.total).toBeGreaterThanOrEqual(0)
    expect(seen.batches).toBe(1)
  })

  it('a statement leaves out the page documents the isolate holds; after a catalogue write it reads them again', async () => {
    await seedSearchFixtures()
    clearAllMemos()
    const query = { bool: { filter: { bool: { must: listed } } } }
    const first = await search(env.DB, { query })
    const id = first.hits[0]?.id as number
    // The stored document changes without a catalogue write: only a read of it would show the change.
    const renamed = "UPDATE products SET doc = json_set(doc, '$.name', 'Renamed') WHERE id = ?"
    await env.DB.prepare(renamed).bind(id).run()
    // Another query (no cached result set) with the same first hit: its document is the one held.
    const again = await search(env.DB, { query, min_score: 0 })
    expect(again.hits[0]?.id).toBe(id)
    expect(again.hits[0]?.source.name).toBe(first.hits[0]?.source.name)
    // Every other field of the answer is what a statement reading every document returns.
    const { db } = recordingDb(env.DB)
    clearAllMemos()
    noteIndexVersion(
      (await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first<{ value: number }>())
        ?.value as number,
    )
    const read = await search(db, { query, min_score: 0 })
    expect(read.hits.map((h) => h.id)).toEqual(again.hits.map((h) => h.id))
    expect(read.hits[0]?.source.name).toBe('Renamed')
    // A catalogue write (the document and the version): the held one is of the old version, and the
    // next query reads the new one.
    await env.DB.batch([
      env.DB.prepare("UPDATE products SET doc = json_set(doc, '$.name', 'Restored') WHERE id = ?").bind(id),
      env.DB.prepare("UPDATE search_meta SET value = value + 1 WHERE key = 'version'"),
    ])
    const after = await search(env.DB, { query, min_score: -1 })
    expect(after.hits[0]?.source.name).toBe('Restored')
    await seedSearchFixtures()
  })
})
