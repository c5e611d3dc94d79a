import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cartHash, hashString, hashValue, stableStringify } from '../../../../shared/domain/cart-hash'

/**
 * The oracle for stableStringify: JSON.stringify of every leaf, object keys in code-unit order.
 * (Rebuilding a sorted object and calling JSON.stringify would not do: integer-like keys always
 * come first in a JavaScript object.)
 */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>
    const keys = Object.keys(obj).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(obj[k])}`).join(',')}}`
  }
  return JSON.stringify(value)
}

describe('stableStringify: JSON with sorted keys', () => {
  it('equals JSON.stringify of the key-sorted value and parses back to an equal value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = stableStringify(value)
        expect(text).toBe(sortedJson(value))
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
      }),
      { numRuns: 400, seed: 15 },
    )
  })

  it('does not depend on the order keys were inserted in', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse())
        expect(stableStringify(reversed)).toBe(stableStringify(obj))
      }),
      { numRuns: 200, seed: 15 },
    )
  })

  const fn = () => 1
  it.each([
    ['null', null, 'null'],
    ['a null field', { a: null }, '{"a":null}'],
    ['undefined', undefined, 'null'],
    ['a function', fn, 'null'],
    ['a symbol', Symbol('s'), 'null'],
    ['non-JSON values inside an array (as JSON does)', [undefined, fn, Symbol('s'), 1], '[null,null,null,1]'],
    ['undefined and function fields dropped (as JSON does)', { a: undefined, f: fn, b: 2 }, '{"b":2}'],
    [
      'non-finite numbers',
      [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
      '[null,null,null]',
    ],
  ])('%s', (_name, value, expected) => {
    expect(stableStringify(value)).toBe(expected)
  })
})

describe('hashString: 64-bit, same output in every runtime and every release', () => {
  // These digests are persisted: they key the catalogue cache in IndexedDB, and the cart's last
  // synced hash and the order double-submit guard are stored between visits. A release or a
  // runtime that computed different values would orphan every stored entry, so they are pinned.
  it.each([
    ['', '506d5216c1275f75'],
    ['a', '6e36b21ffa550024'],
    ['hello', '8c5bde9ea9902819'],
    ['The quick brown fox jumps over the lazy dog', '5e20b7d98518f6bd'],
    ['₹2,499 कुर्ता 👗', '589f71115f29bb2b'],
  ])('%j → %s', (text, digest) => {
    expect(hashString(text)).toBe(digest)
  })

  it('is always 16 lower-case hex digits', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        expect(hashString(text)).toMatch(/^[0-9a-f]{16}$/)
      }),
      { numRuns: 2000, seed: 15 },
    )
  })

  it('gives 20,000 distinct short inputs 20,000 distinct digests, and each half varies', () => {
    const seen = new Set<string>()
    const highs = new Set<string>()
    const lows = new Set<string>()
    for (let i = 0; i < 20_000; i++) {
      const h = hashString(`sku-${i}`)
      seen.add(h)
      highs.add(h.slice(0, 8))
      lows.add(h.slice(8))
    }
    expect(seen.size).toBe(20_000)
    expect(highs.size).toBe(20_000)
    expect(lows.size).toBe(20_000)
  })

  it('changes about half of its 64 bits when one character changes', () => {
    const bits = (hex: string) => BigInt(`0x${hex}`)
    let flipped = 0
    let pairs = 0
    for (let i = 0; i < 500; i++) {
      const a = hashString(`cart-${i}-a`)
      const b = hashString(`cart-${i}-b`)
      flipped += (bits(a) ^ bits(b)).toString(2).replace(/0/g, '').length
      pairs++
    }
    const mean = flipped / pairs
    expect(mean).toBeGreaterThan(28)
    expect(mean).toBeLessThan(36)
  })
})

describe('cartHash: what the server should see', () => {
  const line = { sku: 'KURTA-RED-S', qty: 2, product_option: { color: 49 }, server_item_id: 11 }
  const base = cartHash([line], 'cart-1')

  it.each([
    ['stock', { qty: 1, is_in_stock: true }],
    ['totals', { row_total: 2998 }],
    ['info', { stock: 'In stock!' }],
    ['errors', { stock: 'Out of stock' }],
    ['prev_qty', 1],
    ['onlineStockCheckid', 'abc'],
  ])('ignores the volatile field %s', (field, value) => {
    expect(cartHash([{ ...line, [field]: value }], 'cart-1')).toBe(base)
  })

  it.each([
    ['qty', 3],
    ['sku', 'KURTA-RED-M'],
    ['product_option', { color: 50 }],
    ['server_item_id', 12],
    ['price', 1499],
  ])('changes with %s', (field, value) => {
    expect(cartHash([{ ...line, [field]: value }], 'cart-1')).not.toBe(base)
  })

  it('changes with the cart token, and treats a missing token as empty', () => {
    expect(cartHash([line], 'cart-2')).not.toBe(base)
    const none = cartHash([line], '')
    expect(cartHash([line], null)).toBe(none)
    expect(cartHash([line], undefined)).toBe(none)
    expect(none).not.toBe(base)
  })

  it('depends on the order of lines but not on the order of fields', () => {
    const other = { sku: 'SAREE', qty: 1 }
    expect(cartHash([line, other], 'c')).not.toBe(cartHash([other, line], 'c'))
    const reordered = Object.fromEntries(Object.entries(line).reverse())
    expect(cartHash([reordered], 'cart-1')).toBe(base)
    expect(hashValue({ a: 1, b: 2 })).toBe(hashValue({ b: 2, a: 1 }))
  })
})
