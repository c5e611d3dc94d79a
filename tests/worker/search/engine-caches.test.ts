// The engine's four per-isolate caches live on the one memo: each is listed in the caches table with
// its bound and is tied to the catalogue index version; the vocabulary is stamped with the version
// it was read at, so a catalogue write costs one vocabulary read, not one per later search.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { clearAllMemos, memoTable } from '../../../worker/platform/memo'
import { planSearch } from '../../../worker/search/plan'
import { searchProducts } from '../../../worker/search/product-search'
import {
  DOC_CACHE_MAX_BYTES,
  RESULT_CACHE_MAX_ENTRIES,
  RESULT_CACHE_MAX_IDS,
} from '../../../worker/search/result-cache'

const listed = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]

function search(db: D1Database, body: Record<string, unknown>) {
  return searchProducts(db, planSearch({ entityType: 'product', body: { ...body, size: 5 } }))
}

/** The database, counting the batches sent (only the vocabulary read batches). */
function countingBatches(db: D1Database) {
  const seen = { batches: 0 }
  const wrapped = new Proxy(db, {
    get(target, key) {
      if (key === 'batch')
        return (statements: D1PreparedStatement[]) => {
          seen.batches++
          return target.batch(statements)
        }
      const v = Reflect.get(target, key)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return { db: wrapped, seen }
}

describe('engine caches on the memo', () => {
  it('lists the vocabulary, facet index, result sets and documents with their bounds, all versioned', async () => {
    await search(env.DB, {
      query: { bool: { must: [{ match: { name: 'silk' } }], filter: { bool: { must: listed } } } },
      aggs: { color: { terms: { field: 'color_options', size: 10 } } },
    })
    const table = new Map(memoTable().map((m) => [m.name, m]))
    const results = table.get('search result sets')
    expect(results).toMatchObject({ maxEntries: RESULT_CACHE_MAX_ENTRIES, versioned: true })
    // The id budget, counted in bytes (an id and a score per match).
    expect((results?.maxBytes ?? 0) / RESULT_CACHE_MAX_IDS).toBe(12)
    expect(results?.entries).toBe(1)
    expect(table.get('search documents')).toMatchObject({ maxBytes: DOC_CACHE_MAX_BYTES, versioned: true })
    expect(table.get('search documents')?.entries).toBeGreaterThan(0)
    expect(table.get('search vocabulary')).toMatchObject({ maxEntries: 1, entries: 1, versioned: true })
    expect(table.get('search facet index')).toMatchObject({ maxEntries: 1, entries: 1, versioned: true })
  })

  it('reads the vocabulary once after a catalogue write, then reuses it', async () => {
    // A search without full text records the current index version; then the catalogue changes.
    await search(env.DB, { query: { bool: { filter: { bool: { must: listed } } } } })
    clearAllMemos()
    await env.DB.prepare("UPDATE search_meta SET value = value + 1 WHERE key = 'version'").run()
    const { db, seen } = countingBatches(env.DB)
    const first = await search(db, { query: { match: { name: 'silk' } } })
    const second = await search(db, { query: { match: { name: 'dress' } } })
    expect(first.total).toBeGreaterThan(0)
    expect(second.total).toBeGreaterThanOrEqual(0)
    expect(seen.batches).toBe(1)
  })
})
