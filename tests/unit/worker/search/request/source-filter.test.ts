// `_source` include/exclude patterns: Elasticsearch glob semantics, matched in linear time.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SearchError } from '../../../../../worker/search/dsl'
import {
  compileFieldPattern,
  filterSource,
  globMatches,
  MAX_SOURCE_PATTERN_LENGTH,
  MAX_SOURCE_PATTERNS,
  parsePatterns,
} from '../../../../../worker/search/request/source-filter'

const matches = (pattern: string, path: string) => globMatches(compileFieldPattern(pattern), path)

describe('field glob semantics', () => {
  it.each([
    // pattern, path, matches
    ['sku', 'sku', true],
    ['sku', 'skus', false],
    ['sku', 'a.sku', false],
    ['*', 'sku', true],
    ['*', 'stock.qty', true],
    ['media_*', 'media_gallery', true],
    ['media_*', 'media_gallery.image', true],
    ['media_*', 'media', false],
    ['*.sku', 'configurable_children.sku', true],
    ['*.sku', 'sku', false],
    ['*_price', 'final_price', true],
    ['*_price', 'price', false],
    ['stock.*', 'stock.qty', true],
    ['stock.*', 'stock', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['a**b', 'ab', true],
    ['*a*a*a*', 'aaa', true],
    ['*a*a*a*', 'aa', false],
    ['configurable_children.*.sku', 'configurable_children.x.sku', true],
    ['configurable_children.*.sku', 'configurable_children.sku', false],
  ])('%s against %s → %s', (pattern, path, expected) => {
    expect(matches(pattern, path)).toBe(expected)
  })

  it('agrees with a regular-expression reading of the glob on small inputs', () => {
    // The oracle: `*` is any run of characters (dots included), everything else is literal. Small
    // alphabets and lengths keep the backtracking regex cheap here.
    const oracle = (pattern: string, path: string) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((x) => x.replace(/\./g, '\\.'))
          .join('[\\s\\S]*')}$`,
      ).test(path)
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', '.', '*'), maxLength: 8 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '.'), maxLength: 12 }),
        (pattern, path) => matches(pattern, path) === oracle(pattern, path),
      ),
      { seed: 20261124, numRuns: 3000 },
    )
  })

  it('answers a pathological pattern in linear time', () => {
    // As a regular expression ^.*.*…x$ this backtracks exponentially on a path without an x; the
    // glob matcher reads the path once per literal.
    const pattern = `${'*'.repeat(60)}x${'*a'.repeat(30)}z`
    const path = `${'a'.repeat(5000)}.${'a.'.repeat(2000)}`
    const started = performance.now()
    for (let i = 0; i < 200; i++) expect(matches(pattern, path)).toBe(false)
    expect(performance.now() - started).toBeLessThan(2000)
  })
})

describe('source filtering', () => {
  const doc = {
    sku: 'A',
    name: 'N',
    final_price: 5,
    stock: { qty: 1, is_in_stock: true },
    configurable_children: [
      { sku: 'A-1', price: 5, stock: { qty: 0 } },
      { sku: 'A-2', price: 6, stock: { qty: 2 } },
    ],
    media_gallery: [{ image: 'x' }],
  }

  it('includes through arrays, brings whole subtrees and applies excludes after includes', () => {
    expect(filterSource(doc, ['configurable_children.s*'], [])).toEqual({
      configurable_children: [
        { sku: 'A-1', stock: { qty: 0 } },
        { sku: 'A-2', stock: { qty: 2 } },
      ],
    })
    expect(filterSource(doc, ['*price'], [])).toEqual({
      final_price: 5,
      configurable_children: [{ price: 5 }, { price: 6 }],
    })
    expect(filterSource(doc, ['stock', 'configurable_children'], ['*.qty'])).toEqual({
      stock: { is_in_stock: true },
      configurable_children: [
        { sku: 'A-1', price: 5, stock: {} },
        { sku: 'A-2', price: 6, stock: {} },
      ],
    })
    expect(filterSource(doc, ['nothing*'], [])).toEqual({})
    expect(filterSource(doc, [], [])).toBe(doc)
  })

  it('filters with a pathological pattern in bounded time', () => {
    // Twelve stars then a literal: as a regular expression it never answers on these paths.
    const wide = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`field_${i}_${'abcdefghij'.repeat(3)}`, { nested_value: i }]),
    )
    const started = performance.now()
    expect(filterSource(wide, [`${'*'.repeat(12)}x`], [`${'*'.repeat(12)}q`])).toEqual({})
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('rejects too many or too long patterns with a message naming the limit', () => {
    const err = (m: string) => new SearchError(m)
    const many = Array.from({ length: MAX_SOURCE_PATTERNS + 1 }, (_, i) => `f${i}`).join(',')
    expect(() => parsePatterns(many, '_source_include', err)).toThrow(
      `_source_include lists more than ${MAX_SOURCE_PATTERNS} fields`,
    )
    expect(parsePatterns(many.split(',').slice(1).join(','), '_source_include', err)).toHaveLength(
      MAX_SOURCE_PATTERNS,
    )
    expect(() => parsePatterns('a'.repeat(MAX_SOURCE_PATTERN_LENGTH + 1), '_source_exclude', err)).toThrow(
      `longer than ${MAX_SOURCE_PATTERN_LENGTH} characters`,
    )
    expect(() => parsePatterns(['sku', 'na(me'], '_source', err)).toThrow('Invalid field name in _source')
  })
})
