import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type DispatchResult, resolveUrl } from '../../../../worker/platform/dispatcher'
import { mappingKey, mappingToResult } from '../../../../worker/platform/dispatcher/lookups'

const ORIGIN = 'https://shop.example'

/** Where a browser ends up following `location` from a page of the shop (it strips tabs/newlines). */
function landsOn(location: string): string {
  return new URL(location, `${ORIGIN}/some/page`).origin
}

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
        ORIGIN,
      ),
    ).toEqual({
      kind: 'rewrite',
      path: '/p/VS1/ruby-saree/VS1-RED-M',
      routeName: 'configurable-product',
    })
    expect(mappingToResult({ type: 'category', slug: 'sarees' }, null, ORIGIN)).toEqual({
      kind: 'rewrite',
      path: '/c/sarees',
      routeName: 'category',
    })
  })

  it('accepts only same-origin redirect targets and ignores malformed values', () => {
    expect(mappingToResult({ type: 'redirect', to: '/sale' }, null, ORIGIN)).toEqual({
      kind: 'redirect',
      location: '/sale',
      status: 301,
    })
    for (const to of ['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)'])
      expect(mappingToResult({ type: 'redirect', to }, null, ORIGIN)).toBeNull()
    for (const v of [null, 'x', 42, { type: 'product' }, { type: 'nope' }])
      expect(mappingToResult(v, null, ORIGIN)).toBeNull()
  })
})

/** Targets a browser would follow off the shop although they look like local paths. */
const DISGUISED_OFFSITE = [
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '/\t\n/evil.example/sale',
  '\t//evil.example',
  '/\u0000/evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '/..//evil.example',
  '/.//evil.example',
  '/sale/..//evil.example',
  '/%2e%2e//evil.example',
  ' //evil.example',
  '//evil.example',
  '///evil.example',
  'https://evil.example/sale',
  'https://shop.example.evil.example/sale',
  'https://shop.example@evil.example/sale',
  'https://user:pw@shop.example/sale',
  'http://shop.example/sale',
  'http:evil.example',
  'javascript:alert(1)',
  '/\u200b/evil.example',
  '/\u2028/evil.example',
]

describe('stored redirects cannot leave the shop', () => {
  it.each(DISGUISED_OFFSITE)('refuses %j', (to) => {
    expect(mappingToResult({ type: 'redirect', to }, null, ORIGIN)).toBeNull()
  })

  it('keeps same-origin targets, normalised, including absolute URLs on the public origin', () => {
    const location = (to: string) => {
      const r = mappingToResult({ type: 'redirect', to, status: 302 }, null, ORIGIN)
      return r?.kind === 'redirect' ? `${r.status} ${r.location}` : null
    }
    expect(location('/sale?x=1#top')).toBe('302 /sale?x=1#top')
    expect(location('/women/./sarees/../lehengas')).toBe('302 /women/lehengas')
    expect(location(`${ORIGIN}/sale`)).toBe('302 /sale')
    expect(location('/café x')).toBe('302 /caf%C3%A9%20x')
  })

  it('never yields a location a browser would follow to another origin (property, seeded)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '/',
        '//',
        '\\',
        '\t',
        '\n',
        '\r',
        ' ',
        '.',
        '..',
        '%2f',
        '%5c',
        '%2e',
        ':',
        '@',
        '?',
        '#',
      ),
      fc.constantFrom('evil.example', 'shop.example', 'https:', 'http:', 'javascript:', 'sale'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'binary', maxLength: 3 }),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const r = mappingToResult({ type: 'redirect', to: parts.join('') }, null, ORIGIN)
        if (!r) return true
        if (r.kind !== 'redirect') return false
        return r.location.startsWith('/') && !r.location.startsWith('//') && landsOn(r.location) === ORIGIN
      }),
      { seed: 1507, numRuns: 3000 },
    )
  })
})
