import { describe, expect, it } from 'vitest'
import { lineUnitPrice } from '../../../../shared/domain/cart-line'

describe('lineUnitPrice', () => {
  it('takes the final price, else the regular price, else the server line price', () => {
    expect(lineUnitPrice({ finalPriceInclTax: 80, priceInclTax: 100, price: 90 })).toBe(80)
    expect(lineUnitPrice({ priceInclTax: 100, price: 90 })).toBe(100)
    expect(lineUnitPrice({ price: 90 })).toBe(90)
  })
  it('skips prices that are not finite numbers, and is 0 without any', () => {
    expect(
      lineUnitPrice({ finalPriceInclTax: Number.NaN, priceInclTax: Number.POSITIVE_INFINITY, price: 7 }),
    ).toBe(7)
    expect(lineUnitPrice({ finalPriceInclTax: '80' as unknown as number })).toBe(0)
    expect(lineUnitPrice({})).toBe(0)
  })
  it('a final price of 0 is a price (the add rule decides whether 0 may be added)', () => {
    expect(lineUnitPrice({ finalPriceInclTax: 0, priceInclTax: 100 })).toBe(0)
  })
})
