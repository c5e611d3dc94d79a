// Every per-isolate cache is bounded by bytes: with a budget too small for an entry, the entry is
// not kept (or older ones are evicted), and answers stay exactly what they are with room to spare.
import { env } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { memoryPage, recentPage, rememberPage } from '../../../worker/platform/cache/memory'
import { clearAllMemos, memoTable, resizeMemo } from '../../../worker/platform/memo'
import { planSearch, type SearchCatalogRequest } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'

const NAMES = [
  'search facet index',
  'search vocabulary',
  'search documents',
  'search result sets',
  'search fuzzy expansions',
  'output pages',
]
const row = (name: string) => memoTable().find((m) => m.name === name)

const listed = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]
const facetRequest: SearchCatalogRequest = {
  entityType: 'product',
  size: 5,
  body: {
    query: { bool: { filter: { bool: { must: listed } } } },
    aggs: {
      c: { terms: { field: 'color_options', size: 200 } },
      s: { terms: { field: 'size_options', size: 200 } },
      k: { terms: { field: 'category_ids', size: 200 } },
    },
  },
}
const fuzzyRequest = (from = 0): SearchCatalogRequest => ({
  entityType: 'product',
  size: 3,
  from,
  body: {
    query: {
      bool: {
        must: [{ multi_match: { query: 'slik sare', fields: ['name^4', 'category.name'], fuzziness: 2 } }],
        filter: { bool: { must: listed } },
      },
    },
  },
})

async function answer(req: SearchCatalogRequest) {
  const res = await searchProducts(env.DB, planSearch(req))
  return {
    total: res.total,
    ids: res.hits.map((h) => h.id),
    docs: res.hits.map((h) => h.source),
    aggs: res.aggregations,
  }
}

/** The answer with every budget at its own size and empty caches (the reference). */
async function reference(req: SearchCatalogRequest) {
  clearAllMemos()
  const a = await answer(req)
  clearAllMemos()
  return a
}

describe('byte budgets of the per-isolate caches', () => {
  beforeEach(() => clearAllMemos())
  afterEach(() => {
    for (const n of NAMES) resizeMemo(n, undefined)
    clearAllMemos()
  })

  it('facet index: a field over the budget is not kept, older fields are evicted, counts stay right', async () => {
    const want = await reference(facetRequest)
    await answer(facetRequest)
    const full = row('search facet index')
    expect(full?.entries).toBe(3)
    // Room for about one field: the least recently used go, and the counts do not change.
    clearAllMemos()
    resizeMemo('search facet index', Math.ceil((full?.bytes ?? 0) / 2))
    expect(await answer(facetRequest)).toEqual(want)
    expect(row('search facet index')?.entries).toBeLessThan(3)
    expect(row('search facet index')?.bytes).toBeLessThanOrEqual(Math.ceil((full?.bytes ?? 0) / 2))
    // No room at all: nothing kept, every answer still counted right.
    clearAllMemos()
    resizeMemo('search facet index', 1)
    expect(await answer(facetRequest)).toEqual(want)
    expect(await answer({ ...facetRequest, from: 5 })).toEqual(await reference({ ...facetRequest, from: 5 }))
    expect(row('search facet index')?.entries).toBe(0)
  })

  it('vocabulary and fuzzy expansions: over the budget they are not kept, and typo searches answer the same', async () => {
    const want = await reference(fuzzyRequest())
    expect(want.total).toBeGreaterThan(0)
    resizeMemo('search vocabulary', 1)
    resizeMemo('search fuzzy expansions', 1)
    expect(await answer(fuzzyRequest())).toEqual(want)
    expect(row('search vocabulary')?.entries).toBe(0)
    expect(row('search fuzzy expansions')?.entries).toBe(0)
  })

  it('result sets and documents: over the budget they are not kept, and later pages equal fresh ones', async () => {
    const want = await reference(fuzzyRequest(3))
    resizeMemo('search result sets', 1)
    resizeMemo('search documents', 1)
    await answer(fuzzyRequest())
    expect(await answer(fuzzyRequest(3))).toEqual(want)
    expect(row('search result sets')?.entries).toBe(0)
    expect(row('search documents')?.entries).toBe(0)
  })

  it('documents: a small budget keeps the most recent ones only, within the budget', async () => {
    await answer({ ...fuzzyRequest(), size: 20 })
    const full = row('search documents')
    expect(full?.entries).toBeGreaterThan(2)
    resizeMemo('search documents', Math.ceil((full?.bytes ?? 0) / 2))
    expect(row('search documents')?.entries).toBeLessThan(full?.entries ?? 0)
    expect(row('search documents')?.bytes).toBeLessThanOrEqual(Math.ceil((full?.bytes ?? 0) / 2))
  })

  it('output pages: a page over the memory budget is not kept', () => {
    const page = memoryPage('<p>x</p>'.repeat(2000), new Headers({ 'content-type': 'text/html' }))
    expect(page).not.toBeNull()
    rememberPage('/small-budget', page as NonNullable<typeof page>, 1000)
    expect(recentPage('/small-budget', 1000)).toBeDefined()
    resizeMemo('output pages', 4096)
    expect(recentPage('/small-budget', 1000)).toBeUndefined()
    rememberPage('/small-budget', page as NonNullable<typeof page>, 1000)
    expect(recentPage('/small-budget', 1000)).toBeUndefined()
  })
})
