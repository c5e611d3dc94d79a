import { describe, expect, it } from 'vitest'
import { parseQuery } from '../../../../../worker/search/request/parse-query'
import { queryStringToDsl } from '../../../../../worker/search/request/query-string'

const fields = ['name^4', 'sku^2', 'category.name^1']

describe('q= (URI query syntax)', () => {
  it.each([
    ['kurta', { multi_match: { query: 'kurta', fields } }],
    ['sku:WS01', { match: { sku: 'WS01' } }],
    ['name:"silk kurta"', { match_phrase: { name: 'silk kurta' } }],
    ['sku:WS0*', { prefix: { sku: 'WS0' } }],
    ['', { match_all: {} }],
    [
      'silk kurta',
      {
        bool: {
          should: [{ multi_match: { query: 'silk', fields } }, { multi_match: { query: 'kurta', fields } }],
        },
      },
    ],
    [
      '+status:1 -color:49 kurta',
      {
        bool: {
          must: [{ match: { status: '1' } }],
          should: [{ multi_match: { query: 'kurta', fields } }],
          must_not: [{ match: { color: '49' } }],
        },
      },
    ],
    [
      'type_id:simple AND color:49',
      { bool: { must: [{ match: { type_id: 'simple' } }, { match: { color: '49' } }] } },
    ],
    ['color:49 OR color:50', { bool: { should: [{ match: { color: '49' } }, { match: { color: '50' } }] } }],
    ['NOT color:49', { bool: { must: [{ match_all: {} }], must_not: [{ match: { color: '49' } }] } }],
  ])('%j', (q, expected) => {
    const dsl = queryStringToDsl(q)
    expect(dsl).toEqual(expected)
    expect(() => parseQuery(dsl)).not.toThrow()
  })

  it.each([
    ['(a OR b)', /parentheses/],
    ['price:[1 TO 5]', /parentheses and ranges/],
    ['kurta~2', /fuzzy/],
    ['name:ku*ta', /wildcards/],
    ['name:kurt?', /wildcards/],
    ['kurta*', /prefix without a field/],
    ['name:/ku.*/', /regular expressions/],
    ['"unclosed', /unclosed quote/],
    ['x'.repeat(513), /longer than 512/],
    [Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '), /more than 16 parts/],
  ])('%s answers a search error', (q, message) => {
    expect(() => queryStringToDsl(q)).toThrow(message)
  })
})
