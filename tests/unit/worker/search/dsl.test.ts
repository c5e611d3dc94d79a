import { describe, expect, it } from 'vitest'
import { MAX_QUERY_DEPTH, SearchError } from '../../../../worker/search/dsl'
import { searchDocsInMemory, toJsDocs } from '../../../../worker/search/memory/search-docs'
import { parseAggs } from '../../../../worker/search/request/parse-aggs'
import { parseQuery } from '../../../../worker/search/request/parse-query'
import { parseSort } from '../../../../worker/search/request/parse-sort'
import { normalizeFrom, normalizeSize, planSearch } from '../../../../worker/search/request/plan'
import { filterSource } from '../../../../worker/search/request/source-filter'
import { resolveMinimumShouldMatch } from '../../../../worker/search/semantics/text'

describe('DSL parser', () => {
  it('parses the VSF listing shape into an AST', () => {
    const ast = parseQuery({
      bool: {
        filter: {
          bool: {
            must: [{ terms: { visibility: [2, 3, 4] } }, { range: { final_price: { gte: 0, lte: 100 } } }],
          },
        },
      },
    })
    expect(ast).toMatchObject({
      kind: 'bool',
      filter: [
        {
          kind: 'bool',
          must: [
            { kind: 'terms', field: 'visibility', values: [2, 3, 4] },
            { kind: 'range', field: 'final_price', gte: 0, lte: 100 },
          ],
        },
      ],
    })
  })

  it('normalises term, match, match_phrase, multi_match boosts and .keyword fields', () => {
    expect(parseQuery({ term: { 'sku.keyword': { value: 'A', boost: 2 } } })).toEqual({
      kind: 'terms',
      field: 'sku',
      values: ['A'],
      boost: 2,
    })
    expect(parseQuery({ multi_match: { query: 'x', fields: ['name^4', 'sku'] } })).toMatchObject({
      kind: 'match',
      fields: [
        { field: 'name', boost: 4 },
        { field: 'sku', boost: 1 },
      ],
    })
    expect(parseQuery({ match_phrase: { sku: { query: 'A-1', boost: 1 } } })).toEqual({
      kind: 'phrase',
      field: 'sku',
      query: 'A-1',
      boost: 1,
    })
  })

  it('sets bool minimum_should_match like ES (1 without must/filter, else 0)', () => {
    expect(parseQuery({ bool: { should: [{ match_all: {} }] } })).toMatchObject({ minimumShouldMatch: 1 })
    expect(parseQuery({ bool: { must: [{ match_all: {} }], should: [{ match_all: {} }] } })).toMatchObject({
      minimumShouldMatch: 0,
    })
    expect(resolveMinimumShouldMatch('75%', 4, 1)).toBe(3)
  })

  it('inside a filter, a bool with must and should still needs one should (Elasticsearch 5/6)', () => {
    const inner = { bool: { must: [{ match_all: {} }], should: [{ match_all: {} }] } }
    const bool = (q: unknown) =>
      q as { filter: { minimumShouldMatch: number; must: { minimumShouldMatch: number }[] }[] }
    expect(bool(parseQuery({ bool: { filter: inner } })).filter[0]).toMatchObject({ minimumShouldMatch: 1 })
    expect(bool(parseQuery({ constant_score: { filter: inner } })).filter[0]).toMatchObject({
      minimumShouldMatch: 1,
    })
    const nested = bool(parseQuery({ bool: { filter: { bool: { must: [inner] } } } })).filter[0]
    expect(nested?.must[0]).toMatchObject({ minimumShouldMatch: 1 })
    expect(parseQuery({ bool: { must: [inner], filter: [] } })).toMatchObject({
      must: [{ minimumShouldMatch: 0 }],
    })
    expect(resolveMinimumShouldMatch(-1, 4, 1)).toBe(3)
  })

  it.each([
    [{ wildcard: { name: 'x*' } }, 'Unsupported query clause: wildcard'],
    [{ terms: { color: 49 } }, 'terms on color needs an array of values'],
    [{ terms: { 'a;b': [1] } }, 'Invalid field name in terms'],
    [{ range: { price: { gte: true } } }, 'range bound gte on price must be a number or string'],
    [{ bool: { must: [], nope: [] } }, 'Unsupported bool option: nope'],
    [{ terms: { a: [1] }, term: { b: 1 } }, 'A clause must have one key'],
    [{ function_score: { script_score: {} } }, 'Unsupported function_score option: script_score'],
  ])('rejects %j', (q, message) => {
    expect(() => parseQuery(q)).toThrow(SearchError)
    expect(() => parseQuery(q)).toThrow(message)
  })

  it(`rejects nesting deeper than ${MAX_QUERY_DEPTH}`, () => {
    let q: unknown = { match_all: {} }
    for (let i = 0; i <= MAX_QUERY_DEPTH; i++) q = { bool: { must: q } }
    expect(() => parseQuery(q)).toThrow('nested too deeply')
  })

  it('parses aggregations with ES range keys', () => {
    expect(
      parseAggs({ r: { range: { field: 'price', ranges: [{ from: 0, to: 50 }, { from: 150 }] } } }),
    ).toEqual([
      {
        name: 'r',
        kind: 'range',
        field: 'price',
        ranges: [
          { key: '0.0-50.0', from: 0, to: 50 },
          { key: '150.0-*', from: 150, to: undefined },
        ],
      },
    ])
    expect(() => parseAggs({ x: { terms: { field: 'color' }, aggs: {} } })).toThrow(
      'sub-aggregations are not supported',
    )
  })

  it('parses URI and body sorts', () => {
    expect(parseSort('updated_at:desc,position')).toEqual([
      { field: 'updated_at', order: 'desc' },
      { field: 'position', order: 'asc' },
    ])
    expect(parseSort([{ final_price: { order: 'desc' } }, 'name', '_score'])).toEqual([
      { field: 'final_price', order: 'desc' },
      { field: 'name', order: 'asc' },
      { field: '_score', order: 'desc' },
    ])
    expect(() => parseSort('price:sideways')).toThrow('Sort order must be asc or desc')
  })

  it('normalises size and from (size not above 0 → 24, from negative → 0)', () => {
    expect(normalizeSize(undefined)).toBe(24)
    expect(normalizeSize('0')).toBe(24)
    expect(normalizeSize(-4)).toBe(24)
    expect(normalizeSize('4000')).toBe(4000)
    expect(() => normalizeSize('4001')).toThrow('size must be at most 4000')
    expect(() => normalizeSize('ten')).toThrow('size must be a whole number')
    expect(normalizeFrom('-3')).toBe(0)
    expect(planSearch({ entityType: 'product', body: { size: 5 }, size: '7' }).size).toBe(7)
  })
})

describe('in-memory evaluation', () => {
  const docs = toJsDocs(
    [
      { id: 1, name: 'Red Saree', color: 49, price: 10, stock: { is_in_stock: true }, tags: ['a', 'b'] },
      { id: 2, name: 'Blue Kurta', color: 50, price: 60, stock: { is_in_stock: false } },
      { id: 3, name: 'Red Kurta', color: 49, price: 200 },
    ],
    'generic',
  )
  const run = (body: Record<string, unknown>) =>
    searchDocsInMemory(docs, planSearch({ entityType: 'category', body }))

  it('evaluates filters, exists on objects, must_not and min_score', () => {
    expect(run({ query: { terms: { color: ['49'] } } }).hits.map((h) => h.id)).toEqual([1, 3])
    expect(run({ query: { exists: { field: 'stock' } } }).total).toBe(2)
    expect(run({ query: { bool: { must_not: { terms: { 'stock.is_in_stock': [false] } } } } }).total).toBe(2)
    expect(run({ query: { match: { name: 'red kurta' } }, min_score: 3 }).hits.map((h) => h.id)).toEqual([3])
  })

  it('computes function_score with weights and score modes', () => {
    const res = run({
      query: {
        function_score: {
          query: { match: { name: 'kurta' } },
          functions: [{ filter: { terms: { color: [49] } }, weight: 3 }, { weight: 2 }],
          score_mode: 'sum',
          boost_mode: 'replace',
        },
      },
    })
    expect(res.hits.map((h) => [h.id, h.score])).toEqual([
      [3, 5],
      [2, 2],
    ])
  })
})

describe('source filtering', () => {
  const doc = {
    sku: 'A',
    name: 'N',
    stock: { qty: 1, is_in_stock: true },
    configurable_children: [{ sku: 'A-1', price: 5 }],
    media_gallery: [{ image: 'x' }],
  }
  it('includes nested paths through arrays and excludes with wildcards', () => {
    expect(filterSource(doc, ['sku', 'configurable_children.sku', 'stock.qty'], [])).toEqual({
      sku: 'A',
      stock: { qty: 1 },
      configurable_children: [{ sku: 'A-1' }],
    })
    expect(filterSource(doc, [], ['media_*', 'stock', 'configurable_children.price'])).toEqual({
      sku: 'A',
      name: 'N',
      configurable_children: [{ sku: 'A-1' }],
    })
    expect(filterSource(doc, ['*'], ['name', 'stock', 'configurable_children', 'media_gallery'])).toEqual({
      sku: 'A',
    })
  })
})
