import { describe, expect, it } from 'vitest'
import { MAX_REDIRECT_LENGTH, sameOriginPath } from '../../../../shared/domain/safe-redirect'

const SHOP = 'https://shop.example'
const DEV = 'http://localhost:8787'

describe('sameOriginPath: paths', () => {
  it.each([
    ['a path', '/sale', '/sale'],
    ['query and fragment kept', '/sale?page=2#top', '/sale?page=2#top'],
    ['a path ending in two slashes', '/sale//', '/sale//'],
    ['two slashes inside a path', '/women//tops', '/women//tops'],
    ['dot segments resolved', '/women/../sale', '/sale'],
  ])('%s', (_name, candidate, expected) => {
    expect(sameOriginPath(candidate, SHOP)).toBe(expected)
  })

  it.each([
    ['empty', ''],
    ['not a string', 42],
    ['no leading slash', 'sale'],
    ['protocol-relative to another host', '//evil.example/sale'],
    ['protocol-relative even to the shop itself', '//shop.example/sale'],
  ])('refuses %s', (_name, candidate) => {
    expect(sameOriginPath(candidate, SHOP)).toBeNull()
  })

  it('accepts a target of exactly the maximum length and refuses one character more', () => {
    const longest = `/${'a'.repeat(MAX_REDIRECT_LENGTH - 1)}`
    expect(sameOriginPath(longest, SHOP)).toBe(longest)
    expect(sameOriginPath(`${longest}a`, SHOP)).toBeNull()
  })
})

describe('sameOriginPath: absolute URLs only when allowed, and only on the origin', () => {
  it.each([
    ['https on the shop', 'https://shop.example/sale?x=1', SHOP, '/sale?x=1'],
    ['upper-case scheme', 'HTTPS://shop.example/sale', SHOP, '/sale'],
    ['http on a plain-http origin (local development)', 'http://localhost:8787/sale', DEV, '/sale'],
  ])('%s', (_name, candidate, origin, expected) => {
    expect(sameOriginPath(candidate, origin, { allowAbsolute: true })).toBe(expected)
    expect(sameOriginPath(candidate, origin)).toBeNull()
  })

  it.each([
    ['another host', 'https://evil.example/sale'],
    ['another scheme on the same host', 'http://shop.example/sale'],
    ['credentials in the URL', 'https://user:pass@shop.example/sale'],
    ['a relative target that contains a URL', 'sale?next=https://shop.example/'],
    ['a scheme that merely ends in https', 'xhttps://shop.example/sale'],
  ])('refuses %s', (_name, candidate) => {
    expect(sameOriginPath(candidate, SHOP, { allowAbsolute: true })).toBeNull()
  })
})
