import { describe, expect, it } from 'vitest'
import { type DispatchResult, resolveUrl } from '../../worker/dispatcher'
import { mappingKey, mappingToResult } from '../../worker/dispatcher/lookups'

const rewrite = (path: string, routeName = 'x'): DispatchResult => ({ kind: 'rewrite', path, routeName })

describe('resolveUrl', () => {
  it('tries the stored mapping, then a product, then a category, and stops at the first hit', async () => {
    const calls: string[] = []
    const step = (name: string, hit: DispatchResult | null) => async () => {
      calls.push(name)
      return hit
    }
    const result = await resolveUrl('/women/sarees', {
      mapping: step('mapping', null),
      product: step('product', rewrite('/p/A/a')),
      category: step('category', rewrite('/c/sarees')),
    })
    expect(result).toEqual(rewrite('/p/A/a'))
    expect(calls).toEqual(['mapping', 'product'])
  })

  it('lets a stored mapping beat a product with the same url_path', async () => {
    const result = await resolveUrl('/x', {
      mapping: async () => rewrite('/c/mapped'),
      product: async () => rewrite('/p/B/b'),
    })
    expect(result).toEqual(rewrite('/c/mapped'))
  })

  it('is not-found when nothing matches', async () => {
    expect(await resolveUrl('/nothing', { mapping: async () => null, category: async () => null })).toEqual({
      kind: 'not-found',
    })
  })
})

describe('stored mappings', () => {
  it('normalises paths to KV keys', () => {
    expect(mappingKey('/women/sarees/')).toBe('women/sarees')
    expect(mappingKey('/caf%C3%A9')).toBe('café')
    expect(mappingKey('/%E0%A4%A')).toBe('%E0%A4%A')
  })

  it('maps a product to its {type_id}-product route with parentSku, slug and childSku', () => {
    expect(
      mappingToResult(
        { type: 'product', sku: 'VS1', slug: 'ruby-saree', type_id: 'configurable' },
        'VS1-RED-M',
      ),
    ).toEqual({
      kind: 'rewrite',
      path: '/p/VS1/ruby-saree/VS1-RED-M',
      routeName: 'configurable-product',
    })
    expect(mappingToResult({ type: 'category', slug: 'sarees' })).toEqual({
      kind: 'rewrite',
      path: '/c/sarees',
      routeName: 'category',
    })
  })

  it('accepts only same-origin redirect targets and ignores malformed values', () => {
    expect(mappingToResult({ type: 'redirect', to: '/sale' })).toEqual({
      kind: 'redirect',
      location: '/sale',
      status: 301,
    })
    for (const to of ['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)'])
      expect(mappingToResult({ type: 'redirect', to })).toBeNull()
    for (const v of [null, 'x', 42, { type: 'product' }, { type: 'nope' }])
      expect(mappingToResult(v)).toBeNull()
  })
})
