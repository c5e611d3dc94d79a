import { describe, expect, it } from 'vitest'
import { urlMappingProblem } from '../../../../scripts/catalogue/import/url-mappings'
import { mappingKey, mappingToResult } from '../../../../worker/platform/dispatcher/lookups'

const product = { type: 'product', sku: 'VS1001', slug: 'ruby-silk-saree' }

describe('URL mappings at import', () => {
  it('takes the documented mapping shapes', () => {
    for (const [key, value] of [
      ['women/sarees/ruby-silk-saree-vs1001', product],
      ['sarees', { type: 'category', slug: 'sarees' }],
      ['about', { type: 'cms_page', identifier: 'about-us' }],
      ['old/sale', { type: 'redirect', to: '/c/sale', status: 301 }],
      ['old/new', { type: 'redirect', to: '/c/new?sort=price-asc' }],
    ] as const)
      expect(urlMappingProblem(key, value), key).toBeNull()
  })

  it.each([
    ['a tab in the key', 'women\tsarees', product, /^key may not hold tabs/],
    ['a line break in the key', 'women\nsarees', product, /^key may not hold tabs/],
    ['a carriage return in the key', 'women/sarees\r', product, /^key may not hold tabs/],
    ['a NUL in the key', 'women\u0000', product, /^key may not hold tabs/],
    ['a backslash in the key', 'women\\sarees', product, /^key may not hold/],
    ['a zero-width space in the key', 'wo\u200bmen', product, /^key may not hold/],
    [
      'a tab in a redirect target',
      'old',
      { type: 'redirect', to: '/\t/evil.example' },
      /^to may not hold tabs/,
    ],
    [
      'a line break in a redirect target',
      'old',
      { type: 'redirect', to: '/sale\n' },
      /^to may not hold tabs/,
    ],
    ['a newline in a sku', 'p', { ...product, sku: 'VS\n1001' }, /^sku may not hold tabs/],
    ['a tab in a slug', 'c', { type: 'category', slug: 'sa\trees' }, /^slug may not hold tabs/],
    ['another host', 'old', { type: 'redirect', to: '//evil.example/x' }, /same-origin path/],
    [
      'dot segments out to another host',
      'old',
      { type: 'redirect', to: '/..//evil.example' },
      /same-origin path/,
    ],
    ['an absolute URL', 'old', { type: 'redirect', to: 'https://evil.example/' }, /same-origin path/],
    ['a status that is no redirect', 'old', { type: 'redirect', to: '/sale', status: 200 }, /301 or 302/],
    ['a leading slash', '/women', product, /without a leading slash/],
    ['an array value', 'women', [product], /value must be an object/],
  ])('refuses %s', (_name, key, value, reason) => {
    expect(urlMappingProblem(key, value)).toMatch(reason)
  })

  it('takes a redirect exactly when the dispatcher would follow it', () => {
    const origin = 'https://shop.example'
    for (const to of [
      '/sale',
      '/c/new?x=1',
      '/\t/evil.example',
      '//evil.example',
      '/..//evil.example',
      '/sale\n',
      '/\\evil.example',
    ]) {
      const value = { type: 'redirect', to }
      expect(urlMappingProblem('old', value) === null, JSON.stringify(to)).toBe(
        mappingToResult(value, null, origin) !== null,
      )
    }
    // A key the import takes is the key a visit to that path looks up.
    expect(mappingKey('/women/sarees/ruby-silk-saree-vs1001/')).toBe('women/sarees/ruby-silk-saree-vs1001')
  })
})
