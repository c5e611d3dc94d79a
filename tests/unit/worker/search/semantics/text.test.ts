import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseQuery } from '../../../../../worker/search/request/parse-query'
import { fieldTokens, tokenize } from '../../../../../worker/search/semantics/facts'
import {
  allowedEdits,
  combineFieldScores,
  EXACT_TOKEN_WEIGHT,
  editDistance,
  expandToken,
  planTextMatch,
  tokenWeight,
} from '../../../../../worker/search/semantics/text'

describe('editDistance (optimal string alignment)', () => {
  it.each([
    ['kurta', 'kurta', 0],
    ['kurat', 'kurta', 1], // transposition
    ['lehnga', 'lehenga', 1], // insertion
    ['saree', 'sari', 2],
    ['kurta', 'shirt', 4],
    ['', 'abc', 3],
  ])('%s → %s = %i', (a, b, d) => {
    expect(editDistance(a, b, 5)).toBe(d)
  })

  it('stops at max + 1', () => {
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3)
  })

  it('is symmetric and bounded by the longer length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        const d = editDistance(a, b, 20)
        expect(editDistance(b, a, 20)).toBe(d)
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length))
        expect(d === 0).toBe(a === b)
      }),
    )
  })
})

describe('fuzziness and weights', () => {
  it('scales allowed edits like ES AUTO, capped by the requested fuzziness', () => {
    expect([
      allowedEdits('ab', 2),
      allowedEdits('abc', 2),
      allowedEdits('abcde', 2),
      allowedEdits('abcdef', 2),
    ]).toEqual([0, 1, 1, 2])
    expect(allowedEdits('abcdefgh', 1)).toBe(1)
    expect(allowedEdits('abcdefgh', 'auto')).toBe(2)
    expect(allowedEdits('abcdefgh', 0)).toBe(0)
  })

  it('weighs exact matches highest and penalises each edit', () => {
    expect(tokenWeight(0, 'kurta', 'kurta')).toBe(EXACT_TOKEN_WEIGHT)
    expect(tokenWeight(1, 'kurat', 'kurta')).toBeCloseTo(1.8)
    expect(tokenWeight(2, 'lehnga', 'lehengas')).toBeCloseTo(2 - 2 / 6)
    expect(tokenWeight(1, 'kurat', 'kurta')).toBeGreaterThan(tokenWeight(2, 'kurat', 'kurtas'))
  })

  it('expands a token to the closest vocabulary terms first, within max_expansions', () => {
    const vocab = ['kurta', 'kurtas', 'kurti', 'shirt', 'karta', 'curta']
    expect(expandToken('kurta', vocab, 2, 0, 50).map((e) => [e.token, e.edits])).toEqual([
      ['kurta', 0],
      ['curta', 1],
      ['karta', 1],
      ['kurtas', 1],
      ['kurti', 1],
    ])
    expect(expandToken('kurta', vocab, 2, 1, 2).map((e) => e.token)).toEqual(['kurta', 'karta'])
    expect(expandToken('ku', vocab, 2, 0, 50)).toEqual([
      { token: 'ku', edits: 0, weight: EXACT_TOKEN_WEIGHT },
    ])
  })

  it('combines field scores as best field plus tie_breaker times the rest', () => {
    expect(combineFieldScores([8, 2, 1], 0)).toBe(8)
    expect(combineFieldScores([8, 2, 1], 1)).toBe(11)
    expect(combineFieldScores([], 1)).toBe(0)
  })

  it('ranks name over sku over category name for the same word (boosts 4, 2, 1)', () => {
    const node = parseQuery({
      multi_match: { query: 'kurta', fields: ['name^4', 'sku^2', 'category.name^1'], fuzziness: 2 },
    })
    if (node.kind !== 'match') throw new Error('expected a match node')
    const plans = planTextMatch(node.fields, node.query, node.options, () => ['kurta'])
    const score = (field: string) => {
      const p = plans.find((x) => x.field === field)
      return (p?.tokens[0]?.expansions[0]?.weight ?? 0) * (p?.boost ?? 0)
    }
    expect(score('name')).toBeGreaterThan(score('sku'))
    expect(score('sku')).toBeGreaterThan(score('category.name'))
  })

  it('requires minimum_should_match of the query tokens (75% of 4 = 3)', () => {
    const node = parseQuery({
      match: { name: { query: 'red silk bridal saree', minimum_should_match: '75%' } },
    })
    if (node.kind !== 'match') throw new Error('expected a match node')
    expect(planTextMatch(node.fields, node.query, node.options, () => [])[0]?.required).toBe(3)
  })
})

describe('tokenizer', () => {
  it('lower-cases, folds accents and splits on punctuation', () => {
    expect(tokenize('Crêpe-de-Chine  SAREE, 2-pc')).toEqual(['crepe', 'de', 'chine', 'saree', '2', 'pc'])
  })
  it('keeps a sku as one token', () => {
    expect(fieldTokens('sku', ' SAR-001-RED ')).toEqual(['sar-001-red'])
  })
})
