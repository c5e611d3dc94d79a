import { describe, expect, it } from 'vitest'
import { allocateMinor, creditToApplyMinor, includedTaxMinor } from '../../../../shared/domain/money'

describe('includedTaxMinor: the tax inside a tax-inclusive amount', () => {
  it('is amount × rate / (100 + rate), rounded to a minor unit', () => {
    // ₹5,299 at 12 %: 529,900 × 12 / 112 = 56,775.0 paise.
    expect(includedTaxMinor(529_900, 12)).toBe(56_775)
    expect(includedTaxMinor(100_000, 12)).toBe(10_714)
    expect(includedTaxMinor(120_000, 20)).toBe(20_000)
  })
  it('is 0 for a zero rate, a negative rate or a zero amount', () => {
    expect(includedTaxMinor(500_000, 0)).toBe(0)
    expect(includedTaxMinor(500_000, -5)).toBe(0)
    expect(includedTaxMinor(0, 12)).toBe(0)
  })
})

describe('allocateMinor: split so the parts sum to the whole', () => {
  it('splits in proportion when it divides evenly', () => {
    expect(allocateMinor(35_000, [200_000, 150_000])).toEqual([20_000, 15_000])
  })
  it('gives the units left by flooring to the largest remainders', () => {
    // 10 % of three lines of ₹333.33: 100 paise over equal weights → 34, 33, 33.
    expect(allocateMinor(100, [33_333, 33_333, 33_333])).toEqual([34, 33, 33])
    expect(allocateMinor(7, [1, 1, 5])).toEqual([1, 1, 5])
  })
  it('always sums exactly, for awkward totals and weights', () => {
    const cases: [number, number[]][] = [
      [1, [3, 3, 3]],
      [99_999, [1, 2, 3, 4, 5, 6, 7]],
      [12_345, [529_900, 1_000, 77_777]],
      [0, [5, 5]],
    ]
    for (const [total, weights] of cases) {
      const parts = allocateMinor(total, weights)
      expect(parts.reduce((s, p) => s + p, 0)).toBe(total)
      for (const p of parts) expect(Number.isInteger(p) && p >= 0).toBe(true)
    }
  })
  it('gives nothing to zero weights and all zeros when every weight is 0', () => {
    expect(allocateMinor(10, [0, 5, 0])).toEqual([0, 10, 0])
    expect(allocateMinor(0, [0, 0])).toEqual([0, 0])
  })
})

describe('creditToApplyMinor: the store credit an order spends', () => {
  it('spends the balance, never more than the total and never less than nothing', () => {
    expect(creditToApplyMinor(200_000, 1_043_820)).toBe(200_000)
    expect(creditToApplyMinor(2_000_000, 1_043_820)).toBe(1_043_820)
    expect(creditToApplyMinor(0, 500)).toBe(0)
    expect(creditToApplyMinor(-5, 500)).toBe(0)
  })
})
