// Narrowed statements: with the postings built, a query's terms filters are resolved in the isolate
// and the statement visits only the products they leave. Every answer must be the one the
// whole-index statement gives (and the in-memory evaluator): hits, order, scores, total and
// aggregations, whatever the postings' state (missing, dropped by a write, evicted, of an older
// version than the statement reads).
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { productStatements } from '../../../scripts/catalogue/seed/write'
import { buildCatalogQuery } from '../../../shared/domain/search-query'
import type { Product } from '../../../shared/schemas/catalog'
import { clearAllMemos } from '../../../worker/platform/memo'
import { facetPostingsStatements } from '../../../worker/search/builds/catalogue-build'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import type { SearchPlan } from '../../../worker/search/dsl'
import type { FacetPlan } from '../../../worker/search/held/facet-index'
import { type FieldPostings, postingsFor } from '../../../worker/search/held/facet-index'
import { type HotColumnValues, hotColumnsFor } from '../../../worker/search/held/hot-columns'
import { bumpIndexVersionStatement, noteIndexVersion } from '../../../worker/search/held/index-version'
import { loadVocabulary } from '../../../worker/search/held/vocabulary'
import { wordPostingsFor } from '../../../worker/search/held/word-postings'
import { searchDocsInMemory, toJsDocs } from '../../../worker/search/memory/search-docs'
import { bitSetWords } from '../../../worker/search/narrow/bit-sets'
import {
  MAX_RESOLVED_CLAUSES,
  narrowingFields,
  narrowingHotFields,
  narrowingWords,
  type SearchShape,
} from '../../../worker/search/narrow/leaves'
import { type Narrowing, narrowQuery } from '../../../worker/search/narrow/narrow-query'
import { bitGroups, idsWithBits, MAX_BIT_GROUPS } from '../../../worker/search/narrow/visit-list'
import { planSearch } from '../../../worker/search/request/plan'
import { compileProductRequest, searchProducts } from '../../../worker/search/results/product-search'
import { runSearchStatement } from '../../../worker/search/results/statement'
import { effectiveSort } from '../../../worker/search/semantics/results'
import { compileProductSearch } from '../../../worker/search/sql/compile-sql'
import { recordingDb } from '../../helpers/recording-db'
import { FIXTURE_PRODUCTS, seedSearchFixtures } from '../../helpers/search-fixtures'

type Doc = Record<string, unknown> & { id: number }

const FACETS = {
  c: { terms: { field: 'color', size: 100 } },
  o: { terms: { field: 'color_options', size: 100 } },
  k: { terms: { field: 'category_ids', size: 100 } },
  r: { range: { field: 'price', ranges: [{ to: 60 }, { from: 60, to: 150 }, { from: 150 }] } },
}

/** The shop's listing (its own query builder): visibility and status, a category, colours on the product or its options. */
function listing(cats: number[], colours: number[], extra: Record<string, unknown> = {}) {
  const { body } = buildCatalogQuery({ categoryIds: cats, filters: { color: colours } })
  return { query: body.query, aggs: FACETS, ...extra }
}

const BODIES: Record<string, unknown> = {
  listing: listing([20, 21, 22], [49, 50]),
  'a value no product holds': listing([20, 987654], [49]),
  'only values no product holds': listing([987654], [49]),
  'sorted by price, a second page': {
    ...listing([21], [49, 50, 51, 52]),
    sort: [{ price: 'desc' }],
    from: 1,
    size: 2,
  },
  'terms under must_not, should and a function filter': {
    query: {
      function_score: {
        query: {
          bool: {
            must: [{ terms: { category_ids: [21, 25] } }],
            must_not: [{ terms: { color: [52] } }],
            should: [{ terms: { color_options: [50] } }, { match: { name: 'kurta' } }],
          },
        },
        functions: [{ filter: { terms: { category_ids: [22] } }, weight: 3 }],
        score_mode: 'sum',
      },
    },
    aggs: FACETS,
    sort: ['_score'],
  },
  'more terms clauses than resolved bits': {
    query: {
      bool: {
        filter: [{ terms: { category_ids: [21, 25] } }],
        should: Array.from({ length: MAX_RESOLVED_CLAUSES + 5 }, (_, i) => ({
          terms: { color: [49 + (i % 6)] },
        })),
        minimum_should_match: 1,
      },
    },
    aggs: FACETS,
  },
  "the shop's search (fuzzy words, child skus, sku phrases)": (() => {
    const { body } = buildCatalogQuery({ text: 'kurat', aggregations: ['color'] })
    return body
  })(),
  "the shop's search for a child sku": buildCatalogQuery({ text: 'SAR-001-49-S' }).body,
  'a search with every word required, in two fields': {
    query: {
      bool: {
        must: [
          {
            multi_match: {
              query: 'emerald kurta',
              fields: ['name^3', 'description'],
              operator: 'and',
              tie_breaker: 0.3,
            },
          },
        ],
      },
    },
    min_score: 0.5,
  },
  'a phrase and a keyword match under should, with a score function': {
    query: {
      function_score: {
        query: {
          bool: {
            should: [
              { match_phrase: { name: 'kurta' } },
              { match: { sku: 'KURTA' } },
              { match: { 'configurable_children.sku': 'KUR-002-49-M' } },
              { match: { name: { query: 'zzzzqq' } } },
            ],
          },
        },
        functions: [{ filter: { match: { name: 'cotton' } }, weight: 2 }],
        score_mode: 'sum',
      },
    },
    sort: ['_score'],
  },
  'a text search with a category filter': {
    query: {
      bool: {
        must: [{ match: { name: { query: 'saree', fuzziness: 2 } } }],
        filter: [{ terms: { category_ids: [20] } }],
      },
    },
  },
}

/** Searches whose clauses, sort keys and price buckets read the hot columns. */
const HOT_BODIES: Record<string, unknown> = {
  'visibility, status, type and a price range (bounds as strings), newest first': {
    query: {
      bool: {
        filter: [
          { terms: { category_ids: [20, 21, 22, 25] } },
          { terms: { visibility: ['2', '3', 4] } },
          { terms: { status: [1] } },
          { match: { type_id: 'configurable' } },
          { range: { final_price: { gte: '10', lt: 2000 } } },
        ],
      },
    },
    aggs: FACETS,
    sort: [{ created_at: 'desc' }],
  },
  'a price range under must_not and should, by price then newest': {
    query: {
      bool: {
        must: [{ terms: { category_ids: [20, 21, 22, 25] } }],
        must_not: [{ range: { price: { gt: 150 } } }],
        should: [{ terms: { visibility: [4] } }, { range: { price: { lte: 50 } } }],
        minimum_should_match: 1,
      },
    },
    aggs: FACETS,
    sort: [{ price: 'asc' }, { created_at: 'desc' }],
  },
  "the shop's listing with a moved price bound, oldest first, second page": {
    query: {
      bool: {
        must: [listing([20, 21, 22], [49, 50]).query],
        filter: [{ range: { final_price: { gte: -1.001 } } }],
      },
    },
    aggs: { ...FACETS, lo: { min: { field: 'price' } } },
    sort: [{ updated_at: 'asc' }],
    from: 2,
    size: 3,
  },
  "the shop's search with a type filter": (() => {
    const { body } = buildCatalogQuery({ text: 'kurta', aggregations: ['color'] })
    return { ...body, query: { bool: { must: [body.query], filter: [{ match: { type_id: 'simple' } }] } } }
  })(),
}

/** Searches that count nothing and sort by nothing but the score: ranked by their products' bits. */
const GROUPED_BODIES: Record<string, unknown> = {
  "the shop's search without facets": buildCatalogQuery({ text: 'kurat' }).body,
  'several words and a colour, least relevant first, over a minimum score': {
    query: {
      bool: {
        should: [{ match: { name: 'silk saree kurta lehenga' } }, { terms: { color: [49, 50] } }],
        filter: [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [1] } }],
        minimum_should_match: 1,
      },
    },
    sort: [{ _score: 'asc' }],
    min_score: 0.3,
  },
  'newest first, price buckets from bits, colours counted by the engine, a later page': {
    query: {
      bool: {
        filter: [{ terms: { visibility: [2, 3, 4] } }, { terms: { category_ids: [20, 21, 22, 25] } }],
      },
    },
    aggs: {
      c: { terms: { field: 'color', size: 100 } },
      r: { range: { field: 'price', ranges: [{ to: 60 }, { from: 60, to: 150 }, { from: 150 }] } },
    },
    sort: [{ created_at: 'desc' }],
  },
  'by price then newest, a price range filter, buckets on the final price': {
    query: {
      bool: {
        must: [{ terms: { category_ids: [20, 21, 22, 25] } }],
        filter: [{ range: { price: { gte: 10 } } }, { terms: { status: [1] } }],
      },
    },
    aggs: { r: { range: { field: 'final_price', ranges: [{ to: 100 }, { from: 100 }] } } },
    sort: [{ price: 'asc' }, { created_at: 'desc' }],
  },
  'filters alone, in id order': {
    query: {
      bool: {
        filter: [{ terms: { visibility: [2, 3, 4] } }, { terms: { category_ids: [20, 21, 22, 25] } }],
      },
    },
  },
}

function plan(body: unknown): SearchPlan {
  return planSearch({
    entityType: 'product',
    body: JSON.parse(JSON.stringify(body)) as Record<string, unknown>,
  })
}

async function documents(): Promise<Doc[]> {
  const { results } = await env.DB.prepare('SELECT doc FROM products').all<{ doc: string }>()
  return results.map((r) => JSON.parse(r.doc) as Doc)
}

/** What a caller sees of an answer (scores to 6 decimals, as floating point sums may differ last). */
function seen(r: Awaited<ReturnType<typeof searchProducts>>) {
  return {
    total: r.total,
    hits: r.hits.map((h) => [h.id, Math.round((h.score ?? 0) * 1e6) / 1e6]),
    aggregations: r.aggregations,
  }
}

async function rebuildPostings() {
  await env.DB.batch([...facetPostingsStatements(env.DB), bumpIndexVersionStatement(env.DB)])
}

/** The engine's answer to `p` is the in-memory evaluator's over `docs`: total, hits in order, aggregations. */
async function answersAsEvaluator(p: SearchPlan, docs: ReturnType<typeof toJsDocs>, name = '') {
  const answer = seen(await searchProducts(env.DB, p))
  const js = searchDocsInMemory(docs, p)
  expect(answer.total, name).toBe(js.total)
  expect(
    answer.hits.map((h) => h[0]),
    name,
  ).toEqual(js.hits.map((h) => h.id))
  expect(answer.aggregations, name).toEqual(js.aggregations)
}

/** The fixture catalogue with its postings built, and nothing held in the isolate. */
async function freshCatalogue() {
  await seedSearchFixtures()
  await rebuildPostings()
  clearAllMemos()
}

/** The plan's statement over the whole index and narrowed by `n` (ranking `fullOrder` matches), run side by side. */
async function wholeAndNarrowed(
  p: SearchPlan,
  vocab: Map<string, string[]>,
  n: Narrowing | null,
  fullOrder?: number,
  facets: FacetPlan = { js: [], load: [] },
) {
  const whole = compileProductSearch(p, vocab, facets, { fullOrder })
  const part = compileProductSearch(p, vocab, facets, { narrow: n, fullOrder })
  const [a, b] = await Promise.all([
    runSearchStatement(env.DB, whole.sql, whole.params),
    runSearchStatement(env.DB, part.sql, part.params),
  ])
  return { whole, part, a, b }
}

/** The catalogue version stored now. */
async function storedVersion(): Promise<number> {
  const row = await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first<{
    value: number
  }>()
  return row?.value as number
}

/** A fixture product's document, to import copies of. */
function fixture(id: number): Doc {
  return FIXTURE_PRODUCTS.find((d) => d.id === id) as unknown as Doc
}

/** A new simple product `id` (sku NEW-<id>) made from fixture 1, with `over` over it. */
function newProduct(id: number, over: Partial<Doc> = {}): Doc {
  const slug = `new-${id}`
  return {
    ...fixture(1),
    id,
    sku: `NEW-${id}`,
    url_path: `p/${slug}`,
    slug,
    configurable_children: [],
    ...over,
  }
}

/** The importer's write of one product: document and index rows, postings, then the version bump. */
async function importProduct(doc: Doc) {
  await env.DB.batch([
    ...productStatements(env.DB, doc as unknown as Product),
    ...facetPostingsStatements(env.DB),
    bumpIndexVersionStatement(env.DB),
  ])
}

/** The field postings as what the isolate holds (no word lists, no vocabulary). */
function held(fields: Map<string, FieldPostings>) {
  return { fields, words: new Map(), vocab: new Map() }
}

/** Whether the engine would narrow this plan's statement now (field postings, word lists, vocabulary). */
async function narrowed(p: SearchPlan, hot?: Map<string, HotColumnValues>, shape?: SearchShape) {
  const fields = narrowingFields(p.query)
  const postings = fields.length > 0 ? await postingsFor(env.DB, fields) : new Map()
  const vocab = (await loadVocabulary(env.DB)).vocab
  const refs = narrowingWords(p.query, postings, vocab)
  const words = refs.length > 0 ? await wordPostingsFor(env.DB, refs) : new Map()
  return narrowQuery(p.query, { fields: postings, words, vocab, hot }, undefined, shape)
}

/** The hot columns a plan could use, read now (the engine reads them for large visits only). */
async function hotFor(p: SearchPlan) {
  const shape = { sort: effectiveSort(p), aggs: p.aggs }
  return { shape, hot: await hotColumnsFor(env.DB, narrowingHotFields(p.query, shape)) }
}

describe('narrowed product statements', () => {
  beforeEach(freshCatalogue)

  it('answer as the in-memory evaluator and as the whole-index statement, for every case', async () => {
    const docs = toJsDocs(await documents(), 'product')
    for (const [name, body] of Object.entries(BODIES)) {
      const p = plan(body)
      const n = await narrowed(p)
      expect(n, name).not.toBeNull()
      await answersAsEvaluator(p, docs, name)
      // The same statement over the whole index: one row, equal in every column a caller reads.
      const vocab = (await loadVocabulary(env.DB)).vocab
      const { a, b } = await wholeAndNarrowed(p, vocab, n)
      for (const col of ['hits', 'total', 'inv', 'aterms', 'a0', 'a1', 'a2', 'a3'])
        expect(b?.[col], `${name}: ${col}`).toEqual(a?.[col])
    }
  })

  it('visit only the products the filters leave: no posting of a resolved filter is looked up', async () => {
    const { sql, params } = await compileProductRequest(env.DB, {
      entityType: 'product',
      body: {
        query: { bool: { filter: [{ terms: { category_ids: [20, 21] } }, { terms: { color: [49] } }] } },
      },
    })
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>()
    const plan = results.map((r) => r.detail)
    expect(plan.filter((d) => /search_terms/.test(d))).toEqual([])
    expect(plan.some((d) => /SCAN search_docs/.test(d))).toBe(false)
  })

  it('a full-text search visits the products its words match, not every product', async () => {
    const { sql, params } = await compileProductRequest(env.DB, {
      entityType: 'product',
      body: {
        query: {
          bool: {
            filter: [{ terms: { visibility: [3, 4] } }],
            must: [
              {
                bool: {
                  should: [
                    { multi_match: { query: 'kurat', fields: ['name^4', 'sku^2'], fuzziness: 2 } },
                    { match_phrase: { 'configurable_children.sku': 'kurat' } },
                  ],
                },
              },
            ],
          },
        },
      },
    })
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>()
    const plan = results.map((r) => r.detail)
    expect(plan).not.toContain('SCAN d')
    expect(plan).toContain('SEARCH d USING INTEGER PRIMARY KEY (rowid=?)')
    // The text match's own rows carry the visit: no index is built on them to join them back.
    expect(plan.filter((d) => /AUTOMATIC/.test(d))).toEqual([])
  })

  it('a filter on a field whose postings a write dropped is tested by the statement, and stays right', async () => {
    const p = plan(BODIES.listing)
    const before = seen(await searchProducts(env.DB, p))
    // A back-office style write of the terms (no rebuild): triggers drop every persisted posting.
    const doc = (await documents()).find((d) => d.id === 2) as Doc
    const changed = { ...doc, category_ids: [20, 21, 22], color: 49 }
    await env.DB.batch([
      env.DB.prepare('UPDATE products SET doc = ? WHERE id = ?').bind(JSON.stringify(changed), changed.id),
      ...indexProductStatements(env.DB, changed),
      bumpIndexVersionStatement(env.DB),
    ])
    const built = await env.DB.prepare('SELECT COUNT(*) AS n FROM search_posting_fields').first<{
      n: number
    }>()
    expect(built?.n).toBe(0)
    const after = seen(await searchProducts(env.DB, p))
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(after.total).toBe(js.total)
    expect(after.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
    expect(after.aggregations).toEqual(js.aggregations)
    expect(after).not.toEqual(before)
  })

  it('a field evicted from the facet index is read again from the persisted postings', async () => {
    const p = plan(BODIES.listing)
    const first = seen(await searchProducts(env.DB, p))
    clearAllMemos()
    expect(await narrowed(p)).not.toBeNull()
    clearAllMemos()
    expect(seen(await searchProducts(env.DB, p))).toEqual(first)
  })

  it('over the candidate limit the statement visits the whole index, with the same answer', async () => {
    const p = plan(BODIES.listing)
    const postings = await postingsFor(env.DB, narrowingFields(p.query))
    const n = narrowQuery(p.query, held(postings))
    expect(n).not.toBeNull()
    expect(narrowQuery(p.query, held(postings), (n?.count ?? 1) - 1)).toBeNull()
    expect(narrowQuery(p.query, held(postings), n?.count)).not.toBeNull()
  })

  it('a product added by an import between two requests is found by the next one', async () => {
    const p = plan(BODIES.listing)
    const before = seen(await searchProducts(env.DB, { ...p, from: 0 }))
    const added = newProduct(777, { category_ids: [22], color: 50 })
    await importProduct(added)
    const after = seen(await searchProducts(env.DB, p))
    expect(after.total).toBe(before.total + 1)
    expect(after.hits.map((h) => h[0])).toContain(777)
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(after.aggregations).toEqual(js.aggregations)
  })

  it('an import that lands after the postings were read: the answer is the new version’s', async () => {
    const p = plan(BODIES.listing)
    await searchProducts(env.DB, p)
    const oldVersion = await storedVersion()
    await importProduct(newProduct(778, { category_ids: [21], color: 49 }))
    // Another request of this isolate read the old version after the import landed: the postings
    // it holds are the old ones, and they look current.
    noteIndexVersion(oldVersion)
    const other = plan(listing([20, 21, 22], [49, 50], { sort: [{ price: 'asc' }] }))
    const answer = seen(await searchProducts(env.DB, other))
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), other)
    expect(answer.hits.map((h) => h[0])).toContain(778)
    expect(answer.total).toBe(js.total)
    expect(answer.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
    expect(answer.aggregations).toEqual(js.aggregations)
  })
})

describe('hot columns held in the isolate', () => {
  beforeEach(freshCatalogue)

  it('tests, sorts and counts them without reading the rows, with the answers of the whole-index statement', async () => {
    const docs = toJsDocs(await documents(), 'product')
    const vocab = (await loadVocabulary(env.DB)).vocab
    const used = { sorted: 0, counted: 0, rowless: 0, hotTests: 0 }
    for (const [name, body] of Object.entries({ ...BODIES, ...HOT_BODIES })) {
      const p = plan(body)
      const { shape, hot } = await hotFor(p)
      const n = await narrowed(p, hot, shape)
      expect(n, name).not.toBeNull()
      if (!n) continue
      const { whole, part, a, b } = await wholeAndNarrowed(p, vocab, n)
      // Every column a caller reads: page (order and scores), total, stock, every aggregation.
      expect(b, name).toEqual(a)
      if (n.sorted) used.sorted++
      if (n.aggBits.size > 0) used.counted++
      if (!part.sql.includes('CROSS JOIN search_docs d ON')) used.rowless++
      if (/h_(visibility|status|type_id|price|final_price)/.test(whole.sql) && !/d\.h_/.test(part.sql))
        used.hotTests++
      // The engine with the columns held answers as the in-memory evaluator.
      await answersAsEvaluator(p, docs, name)
    }
    // Each way of using the columns was taken by some of the cases.
    expect(used.sorted).toBeGreaterThanOrEqual(3)
    expect(used.counted).toBeGreaterThanOrEqual(3)
    expect(used.rowless).toBeGreaterThanOrEqual(3)
    expect(used.hotTests).toBeGreaterThanOrEqual(3)
  })

  it('a search ranked by its bits alone pages through its matches group by group, as the whole-index statement', async () => {
    const docs = toJsDocs(await documents(), 'product')
    const vocab = (await loadVocabulary(env.DB)).vocab
    let listed = 0
    for (const [name, body] of Object.entries(GROUPED_BODIES)) {
      const whole = plan(body)
      const { shape, hot } = await hotFor(whole)
      const n = await narrowed(whole, hot, shape)
      expect(n, name).not.toBeNull()
      if (!n) continue
      const { total } = searchDocsInMemory(docs, whole)
      expect(total, name).toBeGreaterThan(2)
      // Terms aggregations are counted by the engine (from the statement's ids or groups).
      const facets = { js: whole.aggs.flatMap((a) => (a.kind === 'terms' ? [a.field] : [])), load: [] }
      // Every page of one and two matches, ranking just enough matches for it or none: groups ranked
      // behind the page, and group members past it, must not change a column of the answer.
      for (let from = 0; from <= total; from++)
        for (const size of [1, 2])
          for (const fullOrder of [undefined, from + size]) {
            const p = { ...whole, from, size }
            const { part, a, b } = await wholeAndNarrowed(p, vocab, n, fullOrder, facets)
            expect(part.sql, name).toContain('cg AS MATERIALIZED')
            const what = `${name}: from ${from}, size ${size}, ranking ${fullOrder}`
            // The engine lists the products of the matching groups for its facet counts.
            if (typeof b?.idbits === 'string') {
              const { idbits, ...rest } = b
              const ids = idsWithBits(n, JSON.parse(idbits)).sort((x, y) => x - y)
              expect(ids, what).toEqual((JSON.parse(String(a?.ids)) as number[]).sort((x, y) => x - y))
              expect({ ...rest, ids: a?.ids }, what).toEqual(a)
              listed++
            } else expect(b, what).toEqual(a)
          }
      await answersAsEvaluator(whole, docs, name)
    }
    expect(listed).toBeGreaterThan(0)
  })

  it('lists products by their bits up to the group limit, the first of each group only; past it one by one', () => {
    const width = 12
    const listed = (groups: number, products: number): Narrowing => ({
      bits: new Map(),
      slots: new Map(),
      width,
      list: Array.from({ length: products }, (_, id) => id * 2 ** width + (id % groups)),
      count: products,
      versions: [],
      sorted: false,
      aggBits: new Map(),
      indexed: true,
    })
    const grouped = JSON.parse(bitGroups(listed(MAX_BIT_GROUPS, 3 * MAX_BIT_GROUPS + 5), 2) ?? 'null')
    expect(grouped).toHaveLength(MAX_BIT_GROUPS)
    // Group 1: products 1, 1 + MAX_BIT_GROUPS, … (four of them), the first two listed.
    expect(grouped[1]).toEqual([1, 4, [1, 1 + MAX_BIT_GROUPS]])
    expect(grouped[MAX_BIT_GROUPS - 1]).toEqual([
      MAX_BIT_GROUPS - 1,
      3,
      [MAX_BIT_GROUPS - 1, 2 * MAX_BIT_GROUPS - 1],
    ])
    expect(bitGroups(listed(MAX_BIT_GROUPS + 1, 2 * MAX_BIT_GROUPS), 2)).toBeNull()
  })

  it('a column with a product that has no single value there is left to the statement', async () => {
    // Visibility as a list: the hot column holds NULL for this product, search_terms its values.
    const doc = (await documents()).find((d) => d.id === 2) as Doc
    await importProduct({ ...doc, visibility: [1, 4] })
    clearAllMemos()
    const p = plan(HOT_BODIES['visibility, status, type and a price range (bounds as strings), newest first'])
    const { shape, hot } = await hotFor(p)
    expect(hot.get('visibility')?.nulls).toBe(1)
    const n = await narrowed(p, hot, shape)
    const part = compileProductSearch(p, new Map(), { js: [], load: [] }, { narrow: n })
    expect(part.sql).toContain('d.h_visibility')
    const answer = seen(await searchProducts(env.DB, p))
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(answer.total).toBe(js.total)
    expect(answer.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
    expect(answer.aggregations).toEqual(js.aggregations)
  })

  it('columns read at an older version are read again; an import is seen by the next search', async () => {
    const p = plan(HOT_BODIES['a price range under must_not and should, by price then newest'])
    await hotFor(p)
    const before = seen(await searchProducts(env.DB, p))
    await importProduct(newProduct(779, { category_ids: [21], price: 1, final_price: 1 }))
    // The columns held are the old version's; the statement reads the new one and the engine runs again.
    const after = seen(await searchProducts(env.DB, p))
    expect(after.total).toBe(before.total + 1)
    expect(after.hits[0]?.[0]).toBe(779)
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(after.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
    expect(after.aggregations).toEqual(js.aggregations)
  })

  it('an index write without a rebuild drops the stored columns; a tampered part is not used', async () => {
    const p = plan(HOT_BODIES['visibility, status, type and a price range (bounds as strings), newest first'])
    const shape = { sort: effectiveSort(p), aggs: p.aggs }
    const fields = narrowingHotFields(p.query, shape)
    expect(fields.sort()).toEqual(['created_at', 'final_price', 'price', 'status', 'type_id', 'visibility'])
    // A back-office style write of one product's index rows: the triggers empty every stored part.
    const doc = { ...((await documents()).find((d) => d.id === 3) as Doc), price: 1 }
    await env.DB.batch([
      env.DB.prepare('UPDATE products SET doc = ? WHERE id = ?').bind(JSON.stringify(doc), doc.id),
      ...indexProductStatements(env.DB, doc),
      bumpIndexVersionStatement(env.DB),
    ])
    const stored = await env.DB.prepare('SELECT COUNT(*) AS n FROM search_hot').first<{ n: number }>()
    expect(stored?.n).toBe(0)
    expect((await hotColumnsFor(env.DB, fields)).size).toBe(0)
    const js = () => searchDocsInMemory(toJsDocs(documentsNow, 'product'), p)
    let documentsNow = await documents()
    let answer = seen(await searchProducts(env.DB, p))
    expect(answer.hits.map((h) => h[0])).toEqual(js().hits.map((h) => h.id))
    // Rebuilt, then one part's count no longer matches its ids: that field is not used, the others are.
    await rebuildPostings()
    clearAllMemos()
    await env.DB.prepare("UPDATE search_hot SET n = n + 1 WHERE field = 'price'").run()
    const read = await hotColumnsFor(env.DB, fields)
    expect(read.has('price')).toBe(false)
    expect(read.has('created_at')).toBe(true)
    documentsNow = await documents()
    answer = seen(await searchProducts(env.DB, p))
    expect(answer.hits.map((h) => h[0])).toEqual(js().hits.map((h) => h.id))
    expect(answer.aggregations).toEqual(js().aggregations)
  })

  it('hold what search_docs holds: numbers exactly, dates as ranks in text order, terms by value', async () => {
    const { results } = await env.DB.prepare(
      'SELECT product_id, h_price, h_created_at, h_type_id FROM search_docs ORDER BY product_id',
    ).all<{ product_id: number; h_price: number; h_created_at: string; h_type_id: string }>()
    const hot = await hotColumnsFor(env.DB, ['price', 'created_at', 'type_id', 'not_a_hot_field'])
    expect([...hot.keys()].sort()).toEqual(['created_at', 'price', 'type_id'])
    const price = hot.get('price') as HotColumnValues
    const created = hot.get('created_at') as HotColumnValues
    const type = hot.get('type_id') as HotColumnValues
    for (const r of results) {
      expect(price.values[r.product_id]).toBe(r.h_price)
      expect(type.dict[type.values[r.product_id] as number]).toBe(r.h_type_id)
    }
    for (const x of results)
      for (const y of results) {
        const byText = x.h_created_at < y.h_created_at ? -1 : x.h_created_at > y.h_created_at ? 1 : 0
        const byRank = Math.sign(
          (created.values[x.product_id] as number) - (created.values[y.product_id] as number),
        )
        expect(byRank).toBe(byText)
      }
    // An id with no index row has no value.
    const missing = Math.max(...results.map((r) => r.product_id)) - 1
    if (!results.some((r) => r.product_id === missing)) expect(price.values[missing]).toBeNaN()
  })
})

describe('hot columns of a catalogue too large for their budget', () => {
  beforeEach(freshCatalogue)

  it('are not read, nor asked again at that version, and searches answer from the statement', async () => {
    // A product id far past what a column of the budget can index (4 MiB at 8 bytes an id).
    const big = { ...fixture(1), id: 900_000, sku: 'BIG-900000', url_path: 'p/big', slug: 'big' }
    await importProduct({ ...big, category_ids: [21], configurable_children: [] })
    clearAllMemos()
    const rec = recordingDb(env.DB)
    const hotReads = () => rec.sql.filter((q) => q.includes('search_hot')).length
    const p = plan(HOT_BODIES['a price range under must_not and should, by price then newest'])
    const shape = { sort: effectiveSort(p), aggs: p.aggs }
    const fields = narrowingHotFields(p.query, shape)
    expect(await hotColumnsFor(rec.db, fields)).toEqual(new Map())
    expect(await hotColumnsFor(rec.db, fields)).toEqual(new Map())
    expect(hotReads()).toBe(1)
    // Fewer columns (fewer bytes an id) are worth asking for once.
    expect((await hotColumnsFor(rec.db, ['price'])).size).toBe(0)
    expect(hotReads()).toBe(2)
    const answer = seen(await searchProducts(env.DB, p))
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(answer.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
    expect(answer.aggregations).toEqual(js.aggregations)
  })
})

describe('full-text clauses resolved from word lists', () => {
  beforeEach(freshCatalogue)

  const search = (text: string) => plan(buildCatalogQuery({ text, aggregations: ['color'] }).body)

  it('a product holding several expansions of one word scores by the best of them, as the statement does', async () => {
    // 'kurta' matches itself exactly and 'kurti' as a one-letter typo expansion (a lower weight).
    await importProduct(newProduct(781, { name: 'Kurti and kurta set' }))
    clearAllMemos()
    const p = search('kurta')
    const n = await narrowed(p)
    expect(n?.slots.size).toBeGreaterThan(0)
    const vocab = (await loadVocabulary(env.DB)).vocab
    const { a, b } = await wholeAndNarrowed(p, vocab, n)
    expect(b).toEqual(a)
    expect(String(b?.hits)).toContain('"id":781')
    await answersAsEvaluator(p, toJsDocs(await documents(), 'product'))
  })

  it('the statement visits only the products the words leave, tested by their bits', async () => {
    const { sql } = await compileProductRequest(env.DB, {
      entityType: 'product',
      body: buildCatalogQuery({ text: 'kurat' }).body,
    })
    // The visit list carries the text score's number: no token join and no sku lookup remain (only
    // the visibility and status tests' fallback for a product without their hot column).
    expect(sql).toContain('cd AS')
    expect(sql).not.toMatch(/search_tokens/)
    expect(sql).not.toMatch(/AND value = \?/)
  })

  it('reads each word list once per catalogue version, and a field of few values never word by word', async () => {
    const rec = recordingDb(env.DB)
    const wordReads = () =>
      rec.sql.filter((q) => q.includes('FROM search_tokens WHERE token = c.word')).length
    await searchProducts(rec.db, search('kurta'))
    expect(wordReads()).toBe(1)
    // Another query with the same words (a filter more): the lists are held.
    const more = search('kurta')
    await searchProducts(rec.db, { ...more, from: 0, minScore: 0.001 })
    expect(wordReads()).toBe(1)
    // Postings dropped by a back-office write: a colour (a field of few values) is left to the
    // statement rather than read value by value; the answer stays the evaluator's.
    const doc = (await documents()).find((d) => d.id === 3) as Doc
    await env.DB.batch([...indexProductStatements(env.DB, doc), bumpIndexVersionStatement(env.DB)])
    const p = plan(listing([20, 21, 22], [49, 50]))
    const answer = seen(await searchProducts(rec.db, p))
    expect(wordReads()).toBe(1)
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(answer.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
  })

  it('one request reads at most its allowance of ids; the lists past it stay unread and unknown', async () => {
    const p = search('kurta saree silk cotton')
    const vocab = (await loadVocabulary(env.DB)).vocab
    const fields = await postingsFor(env.DB, narrowingFields(p.query))
    const refs = narrowingWords(p.query, fields, vocab)
    const all = await wordPostingsFor(env.DB, refs)
    const sizes = [...all.values()].map((w) => w.ids?.length ?? 0)
    expect(sizes.filter((n) => n > 0).length).toBeGreaterThan(1)
    clearAllMemos()
    const allowance = Math.max(...sizes)
    const some = await wordPostingsFor(env.DB, refs, allowance)
    const read = [...some.values()].reduce((n, w) => n + (w.ids?.length ?? 0), 0)
    expect(read).toBeLessThanOrEqual(allowance)
    expect(some.size).toBeLessThan(all.size)
    // A search whose lists were not all read is left to the statement, and answers the same.
    const answer = seen(await searchProducts(env.DB, p))
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(answer.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
  })

  it('a word list too long to keep leaves its clause to the statement, with the same answer', async () => {
    const p = search('kurta')
    const real = await narrowed(p)
    expect(real).not.toBeNull()
    const vocab = (await loadVocabulary(env.DB)).vocab
    const fields = await postingsFor(env.DB, narrowingFields(p.query))
    const refs = narrowingWords(p.query, fields, vocab)
    const words = await wordPostingsFor(env.DB, refs)
    expect(narrowQuery(p.query, { fields, words, vocab })).not.toBeNull()
    // A list over MAX_WORD_POSTINGS products is held as "too long" (no ids).
    const tooLong = new Map([...words].map(([k, w]) => [k, k.includes('kurta') ? { ...w, ids: null } : w]))
    // Inside a disjunction, a clause not resolved leaves it open to any product: no narrowing.
    expect(narrowQuery(p.query, { fields, words: tooLong, vocab })).toBeNull()
    const answer = seen(await searchProducts(env.DB, p))
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), p)
    expect(answer.total).toBe(js.total)
    expect(answer.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
  })

  it('a product an import adds after the words were read is found by the next search', async () => {
    const p = search('kurta')
    const before = seen(await searchProducts(env.DB, p))
    const oldVersion = await storedVersion()
    await importProduct(newProduct(779, { name: 'Saffron Kurta' }))
    // Another request of this isolate read the old version after the import: the word lists it
    // holds are the old ones, and they look current.
    noteIndexVersion(oldVersion)
    const after = seen(await searchProducts(env.DB, { ...p, size: 50 }))
    const js = searchDocsInMemory(toJsDocs(await documents(), 'product'), { ...p, size: 50 })
    expect(after.total).toBe(before.total + 1)
    expect(after.hits.map((h) => h[0])).toContain(779)
    expect(after.hits.map((h) => h[0])).toEqual(js.hits.map((h) => h.id))
  })

  it('words no product holds narrow to no product, with bit sets of no words', async () => {
    // A bit set of ids 0 to maxId; no id at all (maxId -1) must not become 2^27 words (512 MiB).
    expect([-1, 0, 31, 32, 1 << 21].map(bitSetWords)).toEqual([0, 1, 1, 2, (1 << 16) + 1])
    for (const text of ['zz', 'qqqq', 'xyzzyq script', '<script>alert(1)</script>']) {
      const p = search(text)
      const n = await narrowed(p)
      expect(n?.count, text).toBe(0)
      expect(n?.list, text).toEqual([])
      expect((await searchProducts(env.DB, p)).total, text).toBe(0)
    }
  })

  it('hostile words (quotes, wildcards, regex and LIKE characters, many words) answer as the evaluator', async () => {
    const docs = toJsDocs(await documents(), 'product')
    const many = Array.from({ length: 80 }, (_, i) => `w${i}`).join(' ')
    for (const text of [`kurta' OR 1=1 --`, 'kur%', 'k_rta', '*', '.*', '[a-z]+', '\\', '"kurta"', many]) {
      await answersAsEvaluator(search(text), docs, text)
    }
  })
})
