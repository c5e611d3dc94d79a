import { describe, expect, it } from 'vitest'
import { cartHash, hashString, isSyncRequired, stableStringify } from '../../../../shared/domain/cart-hash'

describe('stableStringify / hashString', () => {
  it('is independent of key order and drops undefined', () => {
    expect(stableStringify({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
    )
  })
  it('gives 16 hex chars, stable across calls, different for different input', () => {
    const h = hashString('hello')
    expect(h).toMatch(/^[0-9a-f]{16}$/)
    expect(hashString('hello')).toBe(h)
    expect(hashString('hellp')).not.toBe(h)
    expect(hashString('')).not.toBe(hashString(' '))
  })
})

describe('cartHash', () => {
  const items = [{ sku: 'A', qty: 1, stock: { qty: 5 }, totals: { row_total: 10 } }]
  it('ignores stock, totals and messages but not qty or the cart token', () => {
    const h = cartHash(items, 'c1')
    expect(cartHash([{ sku: 'A', qty: 1, stock: { qty: 1 }, info: { stock: 'In stock!' } }], 'c1')).toBe(h)
    expect(cartHash([{ sku: 'A', qty: 2 }], 'c1')).not.toBe(h)
    expect(cartHash([{ sku: 'A', qty: 1 }], 'c2')).not.toBe(h)
  })
})

describe('isSyncRequired', () => {
  it.each([
    [{ currentHash: 'h', storedHash: null, lastSyncAt: 1 }, true],
    [{ currentHash: 'h', storedHash: 'g', lastSyncAt: 1 }, true],
    [{ currentHash: 'h', storedHash: 'h', lastSyncAt: null }, true],
    [{ currentHash: 'h', storedHash: 'h', lastSyncAt: 1 }, false],
  ])('%o → %s', (state, expected) => {
    expect(isSyncRequired(state)).toBe(expected)
  })
})
