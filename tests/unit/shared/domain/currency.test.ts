import { describe, expect, it } from 'vitest'
import {
  convertPrice,
  formatAmount,
  formatMinorIndian,
  formatPrice,
  roundPrice,
  toBaseCurrency,
} from '../../../../shared/domain/currency'

describe('convertPrice', () => {
  it.each([
    [1000, 'INR', 1000],
    [1000, 'USD', 14.29],
    [1000, 'GBP', 11.11],
    [1000, 'XXX', 1000],
  ])('%d INR in %s = %d', (amount, code, expected) => {
    expect(convertPrice(amount, code)).toBeCloseTo(expected, 6)
  })
  it('round-trips through toBaseCurrency', () => {
    expect(toBaseCurrency(convertPrice(2499, 'USD'), 'USD')).toBeCloseTo(2499, 6)
  })
})

describe('formatPrice', () => {
  it.each([
    [2499, 'INR', {}, '₹2,499'],
    [1234567.5, 'INR', {}, '₹1,234,567.50'],
    [0, 'INR', {}, '₹0'],
    [-1200, 'INR', {}, '-₹1,200'],
    [999.999, 'INR', {}, '₹1,000'],
    [2499, 'USD', {}, '$35.71'],
    [2800, 'USD', {}, '$40.01'],
    [100000, 'GBP', {}, '£1,111.00'],
    [-100000, 'USD', {}, '-$1,429.00'],
    [35, 'USD', { convert: false }, '$35.00'],
    [1200, 'INR', { placement: 'append' }, '1,200₹'],
    [-1200, 'INR', { placement: 'append' }, '-1,200₹'],
    [-0.001, 'INR', {}, '₹0'],
    [Number.NaN, 'INR', {}, ''],
  ] as const)('%d in %s %j → %s', (amount, code, opts, expected) => {
    expect(formatPrice(amount, code, opts)).toBe(expected)
  })
})

describe('formatAmount and roundPrice', () => {
  it.each([
    [1.005, false, '1.01'],
    [1000000, false, '1,000,000.00'],
    [12, true, '12'],
    [12.1, true, '12.10'],
  ] as const)('%d trim=%s → %s', (amount, trim, expected) => {
    expect(formatAmount(amount, trim)).toBe(expected)
  })
  it('keeps the decimals of whole amounts unless asked to trim them', () => {
    expect(formatAmount(12)).toBe('12.00')
    expect(formatAmount(-12.5)).toBe('12.50')
  })
  it.each([
    [1.005, 1.01],
    [-1.005, -1.01],
    [35.709999, 35.71],
  ])('roundPrice(%d) = %d', (amount, expected) => {
    expect(roundPrice(amount)).toBe(expected)
  })
})

describe('formatPrice properties', () => {
  it('parses back to the rounded amount for any currency and sign', async () => {
    const fc = await import('fast-check')
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.constantFrom('INR', 'USD', 'GBP'),
        (amount, code) => {
          const text = formatPrice(amount, code)
          const numeric = Number(text.replace(/[^0-9.-]/g, ''))
          expect(numeric).toBeCloseTo(roundPrice(convertPrice(amount, code)), 2)
          expect(/^-?[₹$£]\d{1,3}(,\d{3})*(\.\d{2})?$/.test(text)).toBe(true)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('formatMinorIndian: the Indian grouping, two decimals', () => {
  it('groups lakh and crore as en-IN writes them', () => {
    expect(formatMinorIndian(22_070_615, 'INR')).toBe('₹2,20,706.15')
    expect(formatMinorIndian(1_234_567_890_12, 'INR')).toBe('₹1,23,45,67,890.12')
    expect(formatMinorIndian(99_999, 'INR')).toBe('₹999.99')
    expect(formatMinorIndian(100_000, 'INR')).toBe('₹1,000.00')
    expect(formatMinorIndian(0, 'INR')).toBe('₹0.00')
    expect(formatMinorIndian(5, 'INR')).toBe('₹0.05')
  })
  it('puts a minus before the sign, never on zero', () => {
    expect(formatMinorIndian(-10_000_000, 'INR')).toBe('-₹1,00,000.00')
    expect(formatMinorIndian(-0, 'INR')).toBe('₹0.00')
  })
})
