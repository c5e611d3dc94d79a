// Bad input to the catalogue search: always a 400 envelope with a clear message, never a 500.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { searchGet, searchPost } from '../../helpers/search-fixtures'

function expect400(
  res: { status: number; json: { code?: number; result?: unknown } },
  message: RegExp | string,
) {
  expect(res.status).toBe(400)
  expect(res.json.code).toBe(400)
  expect(String(res.json.result)).toMatch(message)
}

const LISTING = { query: { bool: { filter: { bool: { must: [{ terms: { visibility: [2, 3, 4] } }] } } } } }

describe('catalogue search: bad input', () => {
  it('rejects malformed JSON in ?request= and in a POST body', async () => {
    expect400(await searchGet('product', '{"query": {"bool": '), /Malformed JSON in the request parameter/)
    expect400(await searchPost('product', '{not json'), /Malformed JSON in the request body/)
    expect400(await searchGet('product', '[1,2]'), /must be a JSON object/)
  })

  it("rejects unknown entity types with 'No entity type registered'", async () => {
    expect400(await searchGet('widget', {}), /^No entity type registered for widget$/)
    expect400(await searchGet('cms_hierarchy', {}), /No entity type registered/)
  })

  it('rejects unknown indices and operations', async () => {
    expect400(
      await searchGet('product', {}, {}, 'some_other_index'),
      /Unknown catalogue index: some_other_index/,
    )
    expect((await searchGet('product', {}, {}, 'vue_storefront_catalog_de')).status).toBe(200)
    const res = await SELF.fetch(
      'https://shop.test/api/catalog/vue_storefront_catalog/product/_delete_by_query',
    )
    expect(res.status).toBe(400)
  })

  it('rejects a non-numeric size and a size above 4000; a negative size means the default 24', async () => {
    expect400(await searchGet('product', LISTING, { size: 'abc' }), /size must be a whole number/)
    expect400(await searchGet('product', LISTING, { size: '2.5' }), /size must be a whole number/)
    expect400(await searchGet('product', LISTING, { size: '100000' }), /size must be at most 4000/)
    expect400(await searchPost('product', { ...LISTING, size: '1e9' }), /size must be a whole number/)
    const negative = await searchGet('product', LISTING, { size: '-10' })
    expect(negative.status).toBe(200)
    expect(negative.json.hits.hits).toHaveLength(24)
    expect400(await searchGet('product', LISTING, { from: 'x' }), /from must be a whole number/)
    expect400(
      await searchGet('product', LISTING, { from: '9990', size: '24' }),
      /from \+ size must not exceed 10000/,
    )
  })

  it('treats SQL injection in values and text as data, and rejects it in field names, sorts and includes', async () => {
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM products').first<{ n: number }>()
    const evil = "1' OR '1'='1'); DROP TABLE products; --"
    const asData = [
      { query: { terms: { color: [evil] } } },
      { query: { term: { sku: evil } } },
      { query: { match: { name: evil } } },
      { query: { match_phrase: { name: evil } } },
      { query: { multi_match: { query: evil, fields: ['name^4', 'sku^2'], fuzziness: 2 } } },
      { query: { range: { created_at: { gte: evil } } } },
    ]
    for (const body of asData) {
      const res = await searchGet('product', body)
      expect(res.status, JSON.stringify(body)).toBe(200)
      // Exact-value clauses match nothing; text clauses match only products sharing a word with it.
      if ('terms' in body.query || 'term' in body.query)
        expect(res.json.hits.total, JSON.stringify(body)).toBe(0)
      else if ('range' in body.query)
        expect(res.json.hits.total).toBe(before?.n) // every '2026-…' date sorts after "1'…"
      else expect(res.json.hits.total, JSON.stringify(body)).toBeLessThan(before?.n ?? 0)
    }
    const rejected: [unknown, Record<string, string>, RegExp][] = [
      [{ query: { terms: { [`color${evil}`]: [1] } } }, {}, /Invalid field name in terms/],
      [{ query: { exists: { field: evil } } }, {}, /Invalid field name in exists/],
      [
        { query: { multi_match: { query: 'x', fields: [`name^4${evil}`] } } },
        {},
        /Invalid field name in multi_match/,
      ],
      [{ aggs: { x: { terms: { field: evil } } } }, {}, /Invalid field name in aggregation x/],
      [{ aggs: { [evil]: { terms: { field: 'color' } } } }, {}, /Invalid aggregation name/],
      [{}, { sort: `name:asc,${evil}` }, /Invalid field name in sort|Malformed sort/],
      [{}, { sort: 'price:desc; DROP TABLE products' }, /Sort order must be asc or desc/],
      [{ sort: [{ [evil]: 'asc' }] }, {}, /Invalid field name in sort/],
      [{}, { _source_include: `sku,${evil}` }, /Invalid field name in _source_include/],
      [{}, { _source_exclude: "name')--" }, /Invalid field name in _source_exclude/],
      [{ _source: [evil] }, {}, /Invalid field name in _source/],
    ]
    for (const [body, params, message] of rejected)
      expect400(await searchGet('product', body, params), message)
    const after = await env.DB.prepare('SELECT COUNT(*) AS n FROM products').first<{ n: number }>()
    expect(after?.n).toBe(before?.n)
    expect(after?.n).toBeGreaterThan(0)
  })

  it('rejects deep nesting', async () => {
    let q: unknown = { terms: { color: [49] } }
    for (let i = 0; i < 40; i++) q = { bool: { must: [q] } }
    expect400(await searchPost('product', { query: q }), /nested too deeply/)
  })

  it('rejects unsupported clauses, aggregations and options by name', async () => {
    expect400(
      await searchGet('product', { query: { wildcard: { name: 'ku*' } } }),
      /Unsupported query clause: wildcard/,
    )
    expect400(
      await searchGet('product', { query: { bool: { must: [{ regexp: { sku: '.*' } }] } } }),
      /Unsupported query clause: regexp/,
    )
    expect400(
      await searchGet('product', { aggs: { h: { histogram: { field: 'price', interval: 50 } } } }),
      /Unsupported aggregation type: histogram/,
    )
    expect400(
      await searchGet('product', { post_filter: { term: { color: 49 } } }),
      /Unsupported search request option: post_filter/,
    )
    expect400(
      await searchGet('product', {
        query: { function_score: { query: { match_all: {} }, random_score: {} } },
      }),
      /Unsupported function_score option: random_score/,
    )
    expect400(
      await searchGet('product', { query: { match: { name: { query: 'x', fuzzy_rewrite: 'y' } } } }),
      /Unsupported option in match: fuzzy_rewrite/,
    )
    expect400(
      await searchGet('product', {}, { q: 'name:(saree OR kurta)' }),
      /Unsupported q syntax: parentheses and ranges/,
    )
    expect400(
      await searchGet('product', {}, { request_format: 'graphql' }),
      /Unsupported request_format: graphql/,
    )
    expect400(
      await searchGet('category', { query: { geo_distance: {} } }),
      /Unsupported query clause: geo_distance/,
    )
  })

  it('answers a query with more distinct values than one statement binds, and rejects one too large for it', async () => {
    const should = Array.from({ length: 120 }, (_, i) => ({ terms: { [`f${i}`]: [i] } }))
    const many = await searchGet('product', { query: { bool: { should } } })
    expect(many.status).toBe(200)
    expect(many.json.hits.total).toBe(0)
    const exists = Array.from({ length: 127 }, (_, i) => ({ exists: { field: `f${i}` } }))
    expect400(
      await searchPost('product', { query: { bool: { should: exists, minimum_should_match: 2 } } }),
      /Query is too complex \(it compiles to more than 65536 bytes of SQL/,
    )
  })
})
