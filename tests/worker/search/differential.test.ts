// Differential fuzzing of the SQL backend against the in-memory backend (an independent evaluator
// of the same semantics) on the hand-made fixture catalogue: generated valid queries — nested,
// wide, tall enough to need shared intermediate values, with every score mode — must give the same
// hits, order, scores, totals and aggregations.
import { env } from 'cloudflare:test'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { clearAllMemos } from '../../../worker/platform/memo'
import { facetPostingsStatements } from '../../../worker/search/builds/catalogue-build'
import { MAX_QUERY_DEPTH, SearchError } from '../../../worker/search/dsl'
import { bumpIndexVersionStatement } from '../../../worker/search/held/index-version'
import { searchDocsInMemory, toJsDocs } from '../../../worker/search/memory/search-docs'
import { planSearch } from '../../../worker/search/request/plan'
import { compileProductRequest, searchProducts } from '../../../worker/search/results/product-search'
import { compileProductSearch } from '../../../worker/search/sql/compile-sql'
import { FIXTURE_PRODUCTS, seedSearchFixtures } from '../../helpers/search-fixtures'
import { generatedRuns, generatedTimeout } from './generated-runs'

beforeAll(async () => {
  await seedSearchFixtures()
})

const docs = toJsDocs(FIXTURE_PRODUCTS as unknown as Record<string, unknown>[], 'product')

const boost = fc.option(fc.constantFrom(0.5, 1, 2, 4), { nil: undefined })
const termsField = fc.constantFrom(
  'visibility',
  'status',
  'type_id',
  'color',
  'color_options',
  'category_ids',
  'category.category_id',
  'configurable_children.sku',
  'stock.is_in_stock',
  'sku',
)
const value = fc.constantFrom(
  1,
  2,
  4,
  20,
  22,
  23,
  49,
  50,
  52,
  53,
  '49',
  true,
  false,
  'configurable',
  'simple',
  'SAR-001-49-10',
  'KUR-010',
)
const text = fc.constantFrom(
  'saree',
  'kurta',
  'kurat',
  'silk saree',
  'lehnga set',
  'emerald',
  'sar-001',
  'KURTA',
)
const textField = fc.constantFrom('name', 'sku', 'category.name', 'name^4', 'sku^2', 'type_id', 'color')

/** Exact-value leaves (most of them), then the full-text ones (a query holds at most 8 of those). */
const exact = fc.oneof(
  fc.record({
    terms: fc
      .tuple(termsField, fc.array(value, { minLength: 1, maxLength: 3 }))
      .map(([f, v]) => ({ [f]: v })),
  }),
  fc
    .tuple(
      fc.constantFrom('price', 'final_price', 'position'),
      fc.integer({ min: 0, max: 500 }),
      fc.integer({ min: 0, max: 500 }),
    )
    .map(([f, a, b]) => ({ range: { [f]: { gte: Math.min(a, b), lt: Math.max(a, b) + 1 } } })),
  fc.constantFrom('2026-01-05', '2026-01-09 10:00:00').map((d) => ({ range: { created_at: { gt: d } } })),
  fc.constantFrom('color', 'color_options', 'category', 'nothing').map((f) => ({ exists: { field: f } })),
  fc.constantFrom({ match_all: {} }, { match_all: { boost: 2 } }, { match_none: {} }),
  fc
    .tuple(
      fc.constantFrom('sku', 'name', 'type_id', 'configurable_children.sku', 'url_key', 'category.name'),
      fc.constantFrom('S', 'SAR', 'sar-0', 'K', 'Ku', 'emer', 'Silk', 'conf', 'x', 'KUR-010'),
    )
    .map(([f, p]) => ({ prefix: { [f]: p } })),
)
const fullText = fc.oneof(
  fc.tuple(text, boost).map(([q, b]) => ({ match: { name: { query: q, fuzziness: 'AUTO', boost: b } } })),
  fc
    .tuple(text, fc.constantFrom('sku', 'name', 'configurable_children.sku'))
    .map(([q, f]) => ({ match_phrase: { [f]: q } })),
  fc
    .tuple(
      text,
      fc.uniqueArray(textField, { minLength: 1, maxLength: 6 }),
      fc.constantFrom(0, 0.3, 1),
      fc.constantFrom('or', 'and'),
    )
    .map(([q, fields, tie_breaker, operator]) => ({
      multi_match: { query: q, fields, fuzziness: 2, tie_breaker, operator },
    })),
)
const leaf = fc.oneof({ weight: 5, arbitrary: exact }, { weight: 1, arbitrary: fullText })

const { query } = fc.letrec<{ query: unknown }>((tie) => ({
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc
      .record({
        must: fc.array(tie('query'), { maxLength: 3 }),
        should: fc.array(tie('query'), { maxLength: 5 }),
        must_not: fc.array(tie('query'), { maxLength: 2 }),
        filter: fc.array(tie('query'), { maxLength: 2 }),
        msm: fc.option(fc.constantFrom(1, 2, 3, '50%', '-1'), { nil: undefined }),
        boost,
      })
      .map(({ msm, ...b }) => ({ bool: { ...b, minimum_should_match: msm } })),
    fc
      .record({
        query: tie('query'),
        functions: fc.array(
          fc.record({
            filter: fc.option(tie('query'), { nil: undefined }),
            weight: fc.constantFrom(0.5, 2, 3),
          }),
          { maxLength: 4 },
        ),
        score_mode: fc.constantFrom('multiply', 'sum', 'avg', 'first', 'max', 'min'),
        boost_mode: fc.constantFrom('multiply', 'replace', 'sum', 'avg', 'max', 'min'),
        max_boost: fc.option(fc.constantFrom(2, 10), { nil: undefined }),
        min_score: fc.option(fc.constantFrom(0.5, 1, 4), { nil: undefined }),
        boost,
      })
      .map((f) => ({ function_score: f })),
  ),
}))

/** Tall chains (near the depth limit) whose tests the compiler must share between passes. */
const tall = fc
  .tuple(fc.integer({ min: 8, max: MAX_QUERY_DEPTH - 1 }), leaf, leaf, fc.nat(5))
  .map(([levels, start, other, kind]) => {
    let q: unknown = start
    for (let i = 0; i < levels; i++) {
      q =
        kind % 3 === 0
          ? {
              bool: {
                should: [q, other, { terms: { color: [49 + (i % 4)] } }],
                minimum_should_match: 1 + (i % 2),
              },
            }
          : kind % 3 === 1
            ? {
                function_score: {
                  query: { match_all: {} },
                  min_score: 0,
                  score_mode: ['sum', 'avg', 'max', 'min'][i % 4],
                  functions: [
                    { filter: q, weight: 2 },
                    { filter: other, weight: 0.5 },
                  ],
                },
              }
            : { bool: { must: [q], should: [other], must_not: [{ terms: { visibility: [i % 3] } }] } }
    }
    return q
  })

const body = fc.record({
  query: fc.oneof({ weight: 3, arbitrary: query }, { weight: 1, arbitrary: tall }),
  sort: fc.constantFrom(undefined, ['_score', { price: 'desc' }], 'created_at:desc', [
    { final_price: 'asc' },
  ]),
  min_score: fc.constantFrom(undefined, 0.5, 2),
  aggs: fc.constantFrom(undefined, {
    c: { terms: { field: 'color', size: 3 } },
    o: { terms: { field: 'color_options' } },
    r: { range: { field: 'price', ranges: [{ to: 60 }, { from: 60, to: 150 }, { from: 150 }] } },
    m: { min: { field: 'final_price' } },
  }),
})

/** 300 generated requests through both backends: about 16–24 s on a 2-core machine. */
const GENERATED_TIMEOUT_MS = generatedTimeout(90_000)
/**
 * Generated requests per comparison in the default tier: a fixed-seed slice of what `npm run soak`
 * runs (the products, narrowing and limits tests cover each feature on fixed cases; these add
 * random combinations of them).
 */
const RUNS = 60

/**
 * Runs the generated requests through both backends and compares every answer; answers how many
 * were compared, needed shared values, and had their statement narrowed by held postings.
 */
async function compareGenerated(seed: number) {
  const runs = generatedRuns(RUNS, seed)
  let compared = 0
  let shared = 0
  let narrowed = 0
  await fc.assert(
    fc.asyncProperty(body, async (b) => {
      let plan: ReturnType<typeof planSearch>
      try {
        plan = planSearch({ entityType: 'product', body: JSON.parse(JSON.stringify({ ...b, size: 50 })) })
      } catch (err) {
        // Over a limit (e.g. too many clauses): the parser refused it for both backends.
        if (err instanceof SearchError) return
        throw err
      }
      const js = searchDocsInMemory(docs, plan)
      let sql: Awaited<ReturnType<typeof searchProducts>>
      try {
        sql = await searchProducts(env.DB, plan)
      } catch (err) {
        if (err instanceof SearchError && /too complex/.test(err.message)) return
        throw err
      }
      compared++
      if (compileProductSearch(plan, new Map()).sql.includes('s1 AS MATERIALIZED')) shared++
      if (
        (
          await compileProductRequest(env.DB, { entityType: 'product', body: JSON.parse(JSON.stringify(b)) })
        ).sql.match(/\bc[dg] AS\b/)
      )
        narrowed++
      const what = JSON.stringify(b).slice(0, 800)
      expect(sql.total, what).toBe(js.total)
      expect(
        sql.hits.map((h) => h.id),
        what,
      ).toEqual(js.hits.map((h) => h.id))
      for (const [i, h] of sql.hits.entries())
        expect(h.score, what).toBeCloseTo(js.hits[i]?.score as number, 6)
      expect(sql.aggregations, what).toEqual(js.aggregations)
    }),
    runs,
  )
  return { runs: runs.numRuns, compared, shared, narrowed }
}

describe('SQL backend against the in-memory backend', () => {
  it('scores a field listed twice in a multi_match as two fields, as the in-memory backend does', async () => {
    const plan = planSearch({
      entityType: 'product',
      body: {
        query: {
          multi_match: { query: 'saree', fields: ['name', 'name^4'], fuzziness: 2, tie_breaker: 0.3 },
        },
      },
    })
    const sql = await searchProducts(env.DB, plan)
    const js = searchDocsInMemory(docs, plan)
    expect(sql.hits.length).toBeGreaterThan(0)
    expect(sql.hits.map((h) => [h.id, h.score])).toEqual(js.hits.map((h) => [h.id, h.score]))
  })

  it(
    'agrees on generated queries',
    async () => {
      const { runs, compared, shared } = await compareGenerated(2026_11_24)
      // Most requests are compared, and many of them needed shared intermediate values.
      expect(compared).toBeGreaterThan((runs * 2) / 3)
      expect(shared).toBeGreaterThan(runs / 15)
    },
    GENERATED_TIMEOUT_MS,
  )

  it(
    'agrees on generated queries with the postings built (statements narrowed by them)',
    async () => {
      await env.DB.batch([...facetPostingsStatements(env.DB), bumpIndexVersionStatement(env.DB)])
      clearAllMemos()
      const { runs, compared, narrowed } = await compareGenerated(2026_11_25)
      expect(compared).toBeGreaterThan((runs * 2) / 3)
      expect(narrowed).toBeGreaterThan(runs / 20)
    },
    GENERATED_TIMEOUT_MS,
  )
})
