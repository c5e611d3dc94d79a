// The SQL compiler's size and the request limits: every accepted query compiles to a statement that
// grows linearly with the query, and every limit answers with a message that names it.
import { describe, expect, it } from 'vitest'
import { planSearch } from '../../../../../worker/search'
import {
  MAX_AGGREGATIONS,
  MAX_MULTI_MATCH_FIELDS,
  MAX_QUERY_CLAUSES,
  MAX_QUERY_DEPTH,
  MAX_QUERY_VALUES,
  MAX_RANGE_BUCKETS,
  MAX_SORT_FIELDS,
  MAX_TERMS_AGG_SIZE,
  MAX_TERMS_VALUES,
  MAX_TEXT_CLAUSES,
  MAX_TEXT_LENGTH,
  MAX_TEXT_WORD_FIELDS,
  MAX_VALUE_LENGTH,
  SearchError,
} from '../../../../../worker/search/dsl'
import { compileProductSearch } from '../../../../../worker/search/sql/compile-sql'
import { MAX_SQL_BYTES, MAX_SQL_PARAMS } from '../../../../../worker/search/sql/sql-expr'

const plan = (body: Record<string, unknown>) => planSearch({ entityType: 'product', body })
const compile = (body: Record<string, unknown>) => compileProductSearch(plan(body), new Map())

/** Nested shapes that used to double the SQL per level (and plain nestings for comparison). */
const SHAPES: Record<string, { levels: number; wrap: (q: unknown, i: number) => unknown }> = {
  'function_score filtered by the previous level (sum, min_score)': {
    levels: MAX_QUERY_DEPTH - 1,
    wrap: (q, i) => ({
      function_score: {
        query: { match_all: {} },
        min_score: 0,
        score_mode: 'sum',
        functions: [{ filter: q, weight: 2 + i }],
      },
    }),
  },
  'function_score with min_score inside bool.should': {
    levels: (MAX_QUERY_DEPTH - 1) >> 1,
    wrap: (q, i) => ({
      bool: {
        should: [
          {
            function_score: {
              query: q,
              min_score: 0.5,
              functions: [{ filter: { terms: { color: [i] } }, weight: 2 }],
            },
          },
        ],
        minimum_should_match: 1,
      },
    }),
  },
  'bool.should with minimum_should_match 2': {
    levels: MAX_QUERY_DEPTH - 1,
    wrap: (q, i) => ({
      bool: { should: [q, { terms: { size: [i] } }, { terms: { color: [i] } }], minimum_should_match: 2 },
    }),
  },
  'bool.should with minimum_should_match 1': {
    levels: MAX_QUERY_DEPTH - 1,
    wrap: (q, i) => ({ bool: { should: [q, { terms: { size: [i] } }], minimum_should_match: 1 } }),
  },
  'function_score avg over two filters': {
    levels: MAX_QUERY_DEPTH - 1,
    wrap: (q, i) => ({
      function_score: {
        query: q,
        score_mode: 'avg',
        boost_mode: 'max',
        min_score: 0.1,
        functions: [
          { filter: { terms: { color: [i] } }, weight: 2 },
          { filter: { range: { price: { gte: i } } }, weight: 3 },
        ],
      },
    }),
  },
}

/** Most SQL one nesting level may add (a clause's own text plus bounded repetitions). */
const LEVEL_BUDGET = 4096

describe('compiled SQL size', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it(`grows linearly with nesting: ${name}`, () => {
      let q: unknown = { terms: { color: [49] } }
      const sizes: number[] = []
      for (let level = 1; level <= shape.levels; level++) {
        q = shape.wrap(q, level % 7)
        const body = { query: q }
        // The body itself grows linearly, about a hundred bytes per level.
        expect(JSON.stringify(body).length).toBeLessThan(200 * level + 200)
        sizes.push(compile(body).sql.length)
      }
      for (let i = 1; i < sizes.length; i++) {
        expect(sizes[i] as number, `level ${i + 1} of ${sizes.join(', ')}`).toBeLessThan(
          (sizes[i - 1] as number) + LEVEL_BUDGET,
        )
      }
      expect(sizes[sizes.length - 1]).toBeLessThanOrEqual(MAX_SQL_BYTES)
    })
  }

  it('compiles the same query to the same statement whatever the width, in linear size', () => {
    const wide = (n: number) => ({
      query: {
        bool: {
          should: Array.from({ length: n }, (_, i) => ({ terms: { color: [i % 3] } })),
          minimum_should_match: 2,
        },
      },
    })
    const s50 = compile(wide(50)).sql.length
    const s100 = compile(wide(100)).sql.length
    expect(s100 - s50).toBeLessThan(1.2 * (s50 - compile(wide(0)).sql.length))
  })

  it('binds many distinct values through the last parameter (D1 binds at most 100)', () => {
    const body = {
      query: {
        bool: {
          should: Array.from({ length: 120 }, (_, i) => ({ terms: { [`f${i}`]: [`v${i}`] } })),
          minimum_should_match: 2,
        },
      },
    }
    const { sql, params } = compile(body)
    expect(params).toHaveLength(MAX_SQL_PARAMS)
    const overflow = JSON.parse(params[MAX_SQL_PARAMS - 1] as string) as unknown[]
    expect(overflow).toContain('v119')
    // Values never appear in the SQL text.
    expect(sql).not.toContain('v119')
    expect(sql).not.toContain(`?${MAX_SQL_PARAMS + 1}`)
  })

  it('answers a statement too large for the database with a 400 naming the limit', () => {
    const exists = (i: number) => ({ exists: { field: `f${i}` } })
    const body = {
      query: {
        bool: { should: Array.from({ length: 127 }, (_, i) => exists(i)), minimum_should_match: 2 },
      },
    }
    expect(() => compile(body)).toThrow(SearchError)
    expect(() => compile(body)).toThrow(`more than ${MAX_SQL_BYTES} bytes of SQL`)
    // The same clauses as plain filters fit.
    expect(() =>
      compile({ query: { bool: { filter: Array.from({ length: 127 }, (_, i) => exists(i)) } } }),
    ).not.toThrow()
  })
})

describe('request limits', () => {
  const deep = (levels: number) => {
    let q: unknown = { terms: { color: [1] } }
    for (let i = 0; i < levels; i++) q = { bool: { must: [q] } }
    return { query: q }
  }
  const cases: [string, Record<string, unknown>, string][] = [
    ['depth', deep(MAX_QUERY_DEPTH + 1), `nested too deeply (more than ${MAX_QUERY_DEPTH} levels)`],
    [
      'clauses',
      { query: { bool: { filter: Array.from({ length: MAX_QUERY_CLAUSES }, () => ({ match_all: {} })) } } },
      `too many clauses (more than ${MAX_QUERY_CLAUSES})`,
    ],
    [
      'function_score functions count as clauses',
      {
        query: {
          function_score: {
            functions: Array.from({ length: MAX_QUERY_CLAUSES }, () => ({ weight: 2 })),
          },
        },
      },
      `too many clauses (more than ${MAX_QUERY_CLAUSES})`,
    ],
    [
      'values per terms clause',
      { query: { terms: { sku: Array.from({ length: MAX_TERMS_VALUES + 1 }, (_, i) => i) } } },
      `too many values (at most ${MAX_TERMS_VALUES})`,
    ],
    [
      'values in the whole query',
      {
        query: {
          bool: {
            filter: Array.from({ length: 5 }, () => ({
              terms: { sku: Array.from({ length: MAX_QUERY_VALUES / 4 }, (_, i) => i) },
            })),
          },
        },
      },
      `too many terms values (more than ${MAX_QUERY_VALUES} in all)`,
    ],
    [
      'value length',
      { query: { term: { sku: 'x'.repeat(MAX_VALUE_LENGTH + 1) } } },
      `longer than ${MAX_VALUE_LENGTH} characters`,
    ],
    [
      'range bound length',
      { query: { range: { created_at: { gte: 'x'.repeat(MAX_VALUE_LENGTH + 1) } } } },
      `longer than ${MAX_VALUE_LENGTH} characters`,
    ],
    [
      'text length',
      { query: { match: { name: 'x'.repeat(MAX_TEXT_LENGTH + 1) } } },
      `at most ${MAX_TEXT_LENGTH} characters`,
    ],
    [
      'full-text clauses',
      {
        query: {
          bool: { should: Array.from({ length: MAX_TEXT_CLAUSES + 1 }, () => ({ match: { name: 'silk' } })) },
        },
      },
      `too many full-text clauses (more than ${MAX_TEXT_CLAUSES})`,
    ],
    [
      'words compared with the vocabulary',
      {
        query: {
          bool: {
            should: Array.from({ length: 2 }, (_, k) => ({
              multi_match: {
                query: Array.from({ length: 16 }, (_, i) => `w${k}x${i}`).join(' '),
                fields: ['name', 'category.name', 'description', 'title', 'content'],
              },
            })),
          },
        },
      },
      `more than ${MAX_TEXT_WORD_FIELDS} distinct word/field pairs`,
    ],
    [
      'multi_match fields',
      {
        query: {
          multi_match: {
            query: 'x',
            fields: Array.from({ length: MAX_MULTI_MATCH_FIELDS + 1 }, (_, i) => `f${i}`),
          },
        },
      },
      `too many fields (at most ${MAX_MULTI_MATCH_FIELDS})`,
    ],
    [
      'aggregations',
      {
        aggs: Object.fromEntries(
          Array.from({ length: MAX_AGGREGATIONS + 1 }, (_, i) => [`a${i}`, { max: { field: 'price' } }]),
        ),
      },
      `Too many aggregations (at most ${MAX_AGGREGATIONS})`,
    ],
    [
      'range buckets',
      {
        aggs: {
          a: { range: { field: 'price', ranges: Array.from({ length: 60 }, (_, i) => ({ from: i })) } },
          b: { range: { field: 'price', ranges: Array.from({ length: 60 }, (_, i) => ({ to: i })) } },
        },
      },
      `Too many range buckets (at most ${MAX_RANGE_BUCKETS} ranges`,
    ],
    [
      'terms aggregation size',
      { aggs: { a: { terms: { field: 'color', size: MAX_TERMS_AGG_SIZE + 1 } } } },
      `between 1 and ${MAX_TERMS_AGG_SIZE}`,
    ],
    [
      'sort fields',
      { sort: Array.from({ length: MAX_SORT_FIELDS + 1 }, (_, i) => `f${i}`) },
      `Too many sort fields (at most ${MAX_SORT_FIELDS})`,
    ],
  ]
  it.each(cases)('rejects a request over the %s limit, naming it', (_, body, message) => {
    expect(() => plan(body)).toThrow(SearchError)
    expect(() => plan(body)).toThrow(message)
  })

  it('accepts a request at every limit', () => {
    expect(() => plan(deep(MAX_QUERY_DEPTH))).not.toThrow()
    const atLimits = {
      query: {
        bool: {
          filter: [
            { terms: { sku: Array.from({ length: MAX_TERMS_VALUES }, (_, i) => `s${i}`) } },
            { term: { sku: 'x'.repeat(MAX_VALUE_LENGTH) } },
          ],
          should: Array.from({ length: MAX_TEXT_CLAUSES }, () => ({ match: { name: 'silk saree' } })),
        },
      },
      aggs: {
        r: {
          range: { field: 'price', ranges: Array.from({ length: MAX_RANGE_BUCKETS }, (_, i) => ({ to: i })) },
        },
        t: { terms: { field: 'color', size: MAX_TERMS_AGG_SIZE } },
      },
    }
    expect(() => compileProductSearch(plan(atLimits), new Map([['name', ['silk', 'saree']]]))).not.toThrow()
  })

  it('rejects boosts and weights outside the float range, and non-numbers', () => {
    expect(() => plan({ query: { match_all: { boost: 1e39 } } })).toThrow('boost must be a number')
    expect(() =>
      plan({ query: { multi_match: { query: 'x', fields: [`name^${'9'.repeat(400)}`] } } }),
    ).toThrow('Invalid field name in multi_match')
    expect(() => plan({ query: { function_score: { functions: [{ weight: 'NaN' }] } } })).toThrow(
      'weight must be a number',
    )
    expect(plan({ query: { function_score: { functions: [{ weight: '-0' }] } } })).toBeTruthy()
  })
})
