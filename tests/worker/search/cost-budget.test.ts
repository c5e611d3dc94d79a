// What one catalogue search may cost: the estimate made before the statement runs refuses the
// searches whose work over the catalogue is over the budget (a 400 saying what to narrow), lets
// the shop's own listings, searches and panel through at 100,000 products, and keeps hostile
// input bounded (real D1 in workerd; timings are in the bench, never here).
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { DEFAULT_FILTERS, PRICE_RANGES, SORT_OPTIONS } from '../../../shared/config/catalog'
import {
  buildCatalogQuery,
  type CatalogQuery,
  catalogSearchQueryString,
  catalogSearchRequest,
} from '../../../shared/domain/search-query'
import { MAX_QUERY_DEPTH, MAX_RANGE_BUCKETS, MAX_TERMS_VALUES } from '../../../worker/search/dsl'
import { checkSearchCost, estimateSearchCost, SEARCH_COST_BUDGET } from '../../../worker/search/request/cost'
import { planSearch } from '../../../worker/search/request/plan'
import { compileProductRequest, searchProducts } from '../../../worker/search/results/product-search'
import { nestedChain } from '../../helpers/nested-search.mjs'
import { searchGet, searchPost } from '../../helpers/search-fixtures'

/**
 * Makes the search index hold `total` products: the seeded catalogue plus bare index rows (no
 * document, so they never show as hits) numbered from 1,000,000. Every statement visits them.
 */
async function indexSize(total: number) {
  await env.DB.prepare('DELETE FROM search_docs WHERE product_id >= 1000000').run()
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM search_docs').first<{ n: number }>()
  const missing = total - Number(row?.n ?? 0)
  if (missing <= 0) return
  await env.DB.prepare(
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?1)
     INSERT INTO search_docs (product_id, sku, type_id) SELECT 1000000 + i, 'BULK-' || i, 'simple' FROM k`,
  )
    .bind(missing)
    .run()
}

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i)

/** A request as wide as the limits allow: nesting at the depth limit, many should tests, every aggregation and sort field. */
function widestSearch(): Record<string, unknown> {
  const chain = nestedChain(MAX_QUERY_DEPTH)
  return {
    query: {
      bool: {
        filter: [{ terms: { category_ids: ids(MAX_TERMS_VALUES) } }],
        must: [chain],
        should: [
          ...ids(2).map((k) => ({
            multi_match: {
              query: 'silk saree with zari border',
              fields: ['name^4', 'sku^2', 'category.name', 'description', 'color', 'size'],
              fuzziness: 'AUTO',
              boost: k,
            },
          })),
          ...ids(16).map((i) => ({ exists: { field: `attr_${i}` } })),
        ],
        minimum_should_match: 2,
      },
    },
    aggs: {
      ...Object.fromEntries(ids(20).map((i) => [`t${i}`, { terms: { field: `attr_${i}`, size: 1000 } }])),
      r: {
        range: {
          field: 'price',
          ranges: ids(MAX_RANGE_BUCKETS, 0).map((i) => ({ from: i * 500, to: i * 500 + 1000 })),
        },
      },
    },
    sort: ['_score', { final_price: 'desc' }, 'position', 'name', { type_id: 'asc' }],
  }
}

/** The widest listing the shop's own pages build: every filter (100 values each), in stock only, a price band, every facet. */
function widestListing(sort: { field: string; order: 'asc' | 'desc' } | undefined): CatalogQuery {
  const filters = Object.fromEntries(
    DEFAULT_FILTERS.filter((f) => f !== 'price').map((f, i) => [f, ids(100, 1000 * (i + 1))]),
  )
  return {
    categoryIds: ids(20),
    filters,
    price: PRICE_RANGES[1],
    inStockOnly: true,
    aggregations: DEFAULT_FILTERS,
    ...(sort ? { sort } : {}),
  }
}

async function shopSearch(params: CatalogQuery) {
  const res = await SELF.fetch(
    `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?${catalogSearchQueryString(catalogSearchRequest(params))}`,
  )
  return { status: res.status, text: await res.text() }
}

describe('the cost budget', () => {
  it('refuses the widest search on a 10,000-product catalogue with a 400 that says what to narrow', async () => {
    await indexSize(10_000)
    const res = await searchPost('product', widestSearch())
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(400)
    expect(res.json.code).toBe(400)
    const message = String(res.json.result)
    expect(message).toContain('Search is too costly for this catalogue')
    expect(message).toContain('over 10,000 products')
    expect(message).toMatch(/most of it is its (query|aggregations|sort): /)
  })

  it('names the aggregations when they weigh most, and the sort when it does', async () => {
    await indexSize(10_000)
    const buckets = ids(MAX_RANGE_BUCKETS, 0).map((i) => ({ from: i * 100, to: i * 100 + 200 }))
    await indexSize(50_000)
    const aggs = await searchPost('product', {
      query: { bool: { filter: ids(2).map((i) => ({ exists: { field: `attr_${i}` } })) } },
      aggs: {
        ...Object.fromEntries(ids(31).map((i) => [`t${i}`, { terms: { field: `attr_${i}` } }])),
        r: { range: { field: 'price', ranges: buckets } },
      },
    })
    expect(aggs.status).toBe(400)
    expect(String(aggs.json.result)).toContain('most of it is its aggregations: ask for fewer aggregations')
    const sort = await searchPost('product', {
      query: { terms: { visibility: [4] } },
      sort: ['position', 'name', 'sku', 'type_id', 'designer'],
    })
    expect(sort.status).toBe(400)
    expect(String(sort.json.result)).toContain('most of it is its sort: sort on fewer fields')
  })

  it('counts an exists test the postings do not answer at its measured cost: 40 of them are refused at 10,000 products', async () => {
    // 40 exists tests on scored should clauses took 0.3–0.65 s of statement time at 10,000
    // products, while their estimate (2 units each) let the search through unchecked.
    await indexSize(10_000)
    const should = ids(40).map((i) => ({ exists: { field: `attr_${i}` } }))
    const res = await searchPost('product', { query: { bool: { should } } })
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(400)
    expect(String(res.json.result)).toContain('most of it is its query')
    const few = await searchPost('product', { query: { bool: { should: should.slice(0, 4) } } })
    expect(few.status).toBe(200)
  })

  it('answers the same widest search on the demo catalogue, where its work is small', async () => {
    await indexSize(0)
    const res = await searchPost('product', widestSearch())
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(200)
  })

  it("never refuses the shop's own listings, searches and panel at 100,000 products", async () => {
    await indexSize(100_000)
    for (const sort of [undefined, ...SORT_OPTIONS.filter((s) => s.field !== '_score')]) {
      const res = await shopSearch(widestListing(sort && { field: sort.field, order: sort.order }))
      expect(res.status, res.text.slice(0, 300)).toBe(200)
    }
    const text = await shopSearch({ ...widestListing(undefined), text: 'red silk saree with zari border' })
    expect(text.status, text.text.slice(0, 300)).toBe(200)
    const suggest = await SELF.fetch('https://shop.test/search/suggest?q=kurta')
    expect(suggest.status).toBe(200)
    const listing = buildCatalogQuery({ categoryIds: [3, 4, 5], aggregations: DEFAULT_FILTERS })
    const viaGet = await searchGet('product', listing.body, { size: '24', sort: listing.sort })
    expect(viaGet.status, JSON.stringify(viaGet.json).slice(0, 300)).toBe(200)
  })
})

/** The database, with every statement the engine prepares recorded. */
function recorded(): { db: D1Database; statements: string[] } {
  const statements: string[] = []
  const db = new Proxy(env.DB, {
    get(target, key) {
      if (key === 'prepare')
        return (sql: string) => {
          statements.push(sql)
          return target.prepare(sql)
        }
      const v = Reflect.get(target, key)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return { db, statements }
}

/** The engine's answer to a product request: 'ok', or the SearchError's message. */
async function outcome(db: D1Database, req: Parameters<typeof planSearch>[0]): Promise<string> {
  try {
    await searchProducts(db, planSearch(req))
    return 'ok'
  } catch (err) {
    if (err instanceof Error && err.name === 'SearchError') return err.message
    throw err
  }
}

/** The request measured as the worst single one: a depth-12 chain, five attribute sorts, size 4,000. */
const chainWithSorts = {
  query: { bool: { should: [nestedChain(MAX_QUERY_DEPTH)], minimum_should_match: 1 } },
  sort: ['color', 'size', 'designer', 'name', 'sku'],
}

describe('the page counts: size and from are inside the budget', () => {
  it('refuses a page whose documents could not travel in one answer, before the search statement runs', async () => {
    await indexSize(0)
    for (const req of [
      { entityType: 'product', size: 1000 },
      { entityType: 'product', size: 4000, body: chainWithSorts },
      { entityType: 'product', from: 6000, size: 4000 },
    ]) {
      const { db, statements } = recorded()
      const message = await outcome(db, req)
      expect(message).toMatch(/^A page of \d+ hits may hold up to [\d,]+ bytes of product documents/)
      expect(message).toContain('ask for fewer hits at a time (a smaller size)')
      // One read of the catalogue's figures, and nothing else: no statement, no document read.
      expect(statements).toHaveLength(1)
      expect(statements[0]).not.toMatch(/^WITH|json\(|p\.doc/)
    }
    // Through the route: a readable 400, never the database's own "too big".
    const res = await searchGet('product', {}, { size: '2000' })
    expect(res.status).toBe(400)
    expect(String(res.json.result)).toContain('ask for fewer hits at a time')
  })

  it("counts each hit's rank, id and score around its document: documents that fit alone but not wrapped are refused", async () => {
    await indexSize(0)
    // Every document made the same size, about 1,850,000 bytes in all: under what one value
    // carries, but not once 4,000 hits each wrap theirs in up to 48 bytes.
    await env.DB.prepare('CREATE TABLE wrap_backup AS SELECT id, doc FROM products').run()
    try {
      const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM products').first<{ n: number }>()
      const each = Math.floor(1_850_000 / Number(count?.n))
      await env.DB.prepare(
        "UPDATE products SET doc = json_object('id', id, 'pad', substr(hex(zeroblob(?1)), 1, ?1 - 20 - length(id)))",
      )
        .bind(each)
        .run()
      const { db } = recorded()
      const message = await outcome(db, { entityType: 'product', size: 4000 })
      expect(message).toMatch(
        /^A page of 4000 hits may hold up to 1,8[45]\d,\d{3} bytes of product documents/,
      )
      expect(message).toContain('more than one answer carries (1,807,998)')
    } finally {
      await env.DB.prepare(
        'UPDATE products SET doc = (SELECT doc FROM wrap_backup b WHERE b.id = products.id)',
      ).run()
      await env.DB.prepare('DROP TABLE wrap_backup').run()
    }
  })

  it("answers a page of 100 of the demo catalogue's documents, which fit one answer", async () => {
    await indexSize(0)
    const res = await searchGet('product', {}, { size: '100' })
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(200)
    expect(res.json.hits.hits).toHaveLength(100)
  })

  it('counts the page of a costly query: a larger page or a window further down can take it over the budget', async () => {
    const query = { query: { terms: { visibility: [4] } }, sort: ['position', 'name', 'sku', 'type_id'] }
    const perProduct = estimateSearchCost(planSearch({ entityType: 'product', body: query })).perProduct
    // A catalogue where the query alone is 60,000 work under the budget: a page of one hit fits,
    // 50 hits of the catalogue's largest documents, or a window ending at 10,000 (9,000 entries of
    // the kept order past the first 1,000), do not.
    await indexSize(Math.floor((SEARCH_COST_BUDGET - 60_000) / perProduct))
    const { db } = recorded()
    expect(await outcome(db, { entityType: 'product', body: query, size: 1 })).toBe('ok')
    for (const page of [{ size: 50 }, { size: 1, from: 9999 }]) {
      const message = await outcome(db, { entityType: 'product', body: query, ...page })
      expect(message, JSON.stringify(page)).toContain('Search is too costly for this catalogue')
    }
    expect(await outcome(db, { entityType: 'product', body: query, size: 50 })).toContain(
      'most of it is its sort',
    )
  })

  it("counts a light query's aggregations once its page is counted", async () => {
    // A listing-like query with many facets: light (no catalogue read at a page of 50 or fewer).
    const faceted = {
      query: { match_all: {} },
      aggs: {
        ...Object.fromEntries(ids(20).map((i) => [`t${i}`, { terms: { field: `attr_${i}`, size: 100 } }])),
        r: { range: { field: 'price', ranges: ids(MAX_RANGE_BUCKETS, 0).map((i) => ({ from: i * 500 })) } },
      },
    }
    const est = estimateSearchCost(planSearch({ entityType: 'product', body: faceted }))
    expect(est.perProduct).toBeLessThanOrEqual(100)
    const page = 51
    const row = await env.DB.prepare(
      'SELECT SUM(b) AS b FROM (SELECT length(CAST(doc AS BLOB)) AS b FROM products ORDER BY b DESC LIMIT ?1)',
    )
      .bind(page)
      .first<{ b: number }>()
    const docBytes = Number(row?.b)
    // A catalogue where the page's documents fit the budget, and the aggregations over every
    // product take it over.
    await indexSize(Math.ceil((SEARCH_COST_BUDGET - docBytes) / est.aggs) + 1000)
    // The check alone (the statements themselves are not what is tested here).
    const check = async (body: Record<string, unknown>, size: number) => {
      try {
        await checkSearchCost(env.DB, planSearch({ entityType: 'product', body, size }))
        return 'ok'
      } catch (err) {
        return (err as Error).message
      }
    }
    expect(await check({ query: faceted.query }, page)).toBe('ok')
    expect(await check(faceted, 50)).toBe('ok')
    const message = await check(faceted, page)
    expect(message).toContain('Search is too costly for this catalogue')
    expect(message).toContain('most of it is its aggregations')
    await indexSize(0)
  })

  it('refuses the worst measured request (a depth-12 chain, five attribute sorts, size 4,000) at 10,000 products with one read', async () => {
    await indexSize(10_000)
    const { db, statements } = recorded()
    expect(await outcome(db, { entityType: 'product', size: 4000, body: chainWithSorts })).toContain(
      'ask for fewer hits',
    )
    expect(statements).toHaveLength(1)
  })
})

describe('hostile search input stays bounded', () => {
  it('answers pathological bodies with 200 or a 400 naming what was wrong, never a 5xx', async () => {
    await indexSize(10_000)
    const metachars = [
      '%',
      '_',
      '*',
      '.*',
      '[a-z]*',
      '\\',
      "'; DROP TABLE products; --",
      '?1',
      'a|b',
      '^$',
      '(?i)x',
      '**/*',
    ]
    const bodies: unknown[] = [
      // Every wildcard and regular-expression metacharacter as a value: matched literally.
      { query: { terms: { sku: metachars } } },
      { query: { prefix: { sku: '%' } } },
      { query: { match: { name: '.* % _ [^a] \\d+' } } },
      { query: { bool: { should: metachars.map((m) => ({ prefix: { name: m } })) } } },
      // Thousands of filter values.
      { query: { terms: { id: ids(MAX_TERMS_VALUES) } } },
      { query: { terms: { id: ids(MAX_TERMS_VALUES + 1) } } },
      {
        query: { bool: { filter: ids(5).map((k) => ({ terms: { id: ids(MAX_TERMS_VALUES, k * 2000) } })) } },
      },
      // Nesting past the depth limit.
      ids(MAX_QUERY_DEPTH + 2).reduce<unknown>((q) => ({ bool: { must: [q] } }), { match_all: {} }),
      // Wide: every should an exists test.
      {
        query: {
          bool: { should: ids(120).map((i) => ({ exists: { field: `f${i}` } })), minimum_should_match: 3 },
        },
      },
      widestSearch(),
    ]
    for (const body of bodies) {
      const res = await searchPost('product', body)
      expect([200, 400], JSON.stringify(res.json).slice(0, 300)).toContain(res.status)
      if (res.status === 400) expect(String(res.json.result).length).toBeGreaterThan(10)
    }
    const literal = await searchPost('product', { query: { terms: { sku: metachars } } })
    expect(literal.status).toBe(200)
    expect(literal.json.hits.total).toBe(0)
  })

  it('reads an exists test on a full-text field through the product index, not by scanning every word', async () => {
    const { sql, params } = await compileProductRequest(env.DB, {
      entityType: 'product',
      body: {
        query: { bool: { should: [{ exists: { field: 'description' } }, { exists: { field: 'name' } }] } },
      },
    })
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>()
    const scans = results.map((r) => r.detail).filter((d) => /SCAN search_tokens/.test(d))
    expect(scans).toEqual([])
  })
})
