// The engine's per-isolate result-set cache: a query's ordered matches, total and aggregations are
// kept per index version, and later pages / later requests of the same query read only their page.
// Every answer served from it must equal the answer of a fresh statement; stock stays live; a
// catalogue write (new index version) must be seen at once.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import { clearResultCache, keepResult, resultKey, resultSetAt } from '../../../worker/search/held/result-sets'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import { compileProductSearch } from '../../../worker/search/sql/compile-sql'

const listed = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]
const aggs = {
  color: { terms: { field: 'color_options', size: 50 } },
  price: { range: { field: 'price', ranges: [{ to: 2000 }, { from: 2000, to: 5000 }, { from: 5000 }] } },
  lo: { min: { field: 'final_price' } },
}

const QUERIES: Record<string, Record<string, unknown>> = {
  'listing, newest first': {
    query: { bool: { filter: { bool: { must: listed } } } },
    aggs,
    sort: [{ created_at: 'desc' }],
  },
  'listing, cheapest first': {
    query: { bool: { filter: { bool: { must: listed } } } },
    aggs,
    sort: [{ price: 'asc' }],
  },
  'full text, by score': {
    query: { bool: { must: [{ match: { name: 'silk' } }], filter: { bool: { must: listed } } } },
  },
}

async function search(body: Record<string, unknown>, from: number, size = 7) {
  const res = await searchProducts(
    env.DB,
    planSearch({ entityType: 'product', body: { ...body, from, size } }),
  )
  return {
    total: res.total,
    maxScore: res.maxScore,
    aggregations: res.aggregations,
    hits: res.hits.map((h) => ({ id: h.id, score: h.score, stock: (h.source as { stock?: unknown }).stock })),
  }
}

async function fresh(body: Record<string, unknown>, from: number, size = 7) {
  clearResultCache()
  return search(body, from, size)
}

beforeEach(() => clearResultCache())

describe('result-set cache', () => {
  for (const [name, body] of Object.entries(QUERIES)) {
    it(`${name}: pages served from the cache equal fresh answers`, async () => {
      const first = await search(body, 0)
      expect(first.total).toBeGreaterThan(7)
      // Pages 2 and 3 and page 1 again, read from the cached result set…
      const cached = [await search(body, 7), await search(body, 14), await search(body, 0)]
      // …equal the same pages computed by a fresh statement each.
      expect(cached).toEqual([await fresh(body, 7), await fresh(body, 14), first])
      const ids = cached.flatMap((p) => p.hits.map((h) => h.id))
      expect(new Set(ids.slice(0, 14)).size).toBe(14)
    })
  }

  it('keeps stock live: an inventory change shows on a cached page without a new index version', async () => {
    const body = QUERIES['listing, newest first'] as Record<string, unknown>
    const before = await search(body, 0, 24)
    const target = before.hits.find((h) => (h.stock as { qty?: number })?.qty) as { id: number }
    const { sku } = (await env.DB.prepare('SELECT sku FROM products WHERE id = ?').bind(target.id).first<{
      sku: string
    }>()) as { sku: string }
    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE sku = ?1 OR parent_sku = ?1').bind(sku).run()
    const after = await search(body, 0, 24)
    expect(after.hits.find((h) => h.id === target.id)?.stock).toMatchObject({ qty: 0, is_in_stock: false })
  })

  it('sees a catalogue write at once (the cached set belongs to the old index version)', async () => {
    const body = QUERIES['listing, cheapest first'] as Record<string, unknown>
    const before = await search(body, 0)
    const cheapest = before.hits[0] as { id: number }
    // Hide the cheapest product: the next answer must drop it and count one fewer.
    const row = await env.DB.prepare('SELECT doc FROM products WHERE id = ?').bind(cheapest.id).first<{
      doc: string
    }>()
    const doc = { ...JSON.parse(row?.doc ?? '{}'), status: 2 }
    await env.DB.batch([
      env.DB.prepare('UPDATE products SET doc = ?, status = 2 WHERE id = ?').bind(
        JSON.stringify(doc),
        doc.id,
      ),
      ...indexProductStatements(env.DB, doc),
    ])
    const after = await search(body, 0)
    expect(after.total).toBe(before.total - 1)
    expect(after.hits.map((h) => h.id)).not.toContain(cheapest.id)
    expect(after).toEqual(await fresh(body, 0))
  })

  it("hands out the set's aggregations frozen: changing one answer fails, and the next is the same", async () => {
    const body = QUERIES['listing, newest first'] as Record<string, unknown>
    const first = await search(body, 0)
    const buckets = (first.aggregations.color as { buckets: unknown[] }).buckets
    const count = buckets.length
    expect(() => {
      buckets.length = 0
    }).toThrow(TypeError)
    const again = await search(body, 0)
    expect((again.aggregations.color as { buckets: unknown[] }).buckets).toHaveLength(count)
    // Every page of the set answers with the same object (what is built from it can be kept by it).
    expect((await search(body, 7)).aggregations).toBe(again.aggregations)
  })

  it('a page past the matches a cached set ranked runs the statement, and answers as a fresh one', async () => {
    const body = QUERIES['listing, cheapest first'] as Record<string, unknown>
    const first = await search(body, 0)
    expect(first.total).toBeGreaterThan(30)
    const key = resultKey(planSearch({ entityType: 'product', body: { ...body, from: 0, size: 7 } }))
    const set = resultSetAt(key)
    expect(set?.ids.length).toBe(first.total)
    // As a statement that ranked only the first 10 matches (a large catalogue) would have kept it.
    if (set) keepResult(key, { ...set, ids: set.ids.slice(0, 10), scores: set.scores.slice(0, 10) })
    // Within the ranked matches, and past them (a page straddling the edge, one beyond it).
    const pages = [await search(body, 0), await search(body, 7), await search(body, 21)]
    expect(pages).toEqual([await fresh(body, 0), await fresh(body, 7), await fresh(body, 21)])
    expect(pages[2]?.hits).toHaveLength(7)
  })

  it('keeps at most the result window of ordered ids, while the total counts every match', async () => {
    const plan = planSearch({
      entityType: 'product',
      body: { ...QUERIES['listing, cheapest first'], size: 3 },
    })
    const { sql, params } = compileProductSearch(plan, new Map(), { js: [], load: [] }, { fullOrder: 5 })
    const row = await env.DB.prepare(sql)
      .bind(...params)
      .first<{ ord: string; total: string; hits: string }>()
    const ord = JSON.parse(row?.ord ?? '[]') as [number, number, number][]
    const [total] = JSON.parse(row?.total ?? '[0]') as [number]
    expect(ord.map((o) => o[0]).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5])
    expect(total).toBeGreaterThan(5)
    // The ranked ids start with the page the statement returned.
    const page = (JSON.parse(row?.hits ?? '[]') as [number, number][])
      .sort((a, b) => a[0] - b[0])
      .map((h) => h[1])
    expect(
      ord
        .sort((a, b) => a[0] - b[0])
        .slice(0, 3)
        .map((o) => o[1]),
    ).toEqual(page)
  })
})
