import { afterEach, describe, expect, it } from 'vitest'
import {
  baseCurrency,
  configureCurrencies,
  currencyConfig,
  currencyTableJson,
  parseCurrencyRates,
} from '../../../../shared/config/store'
import { formatUnitPrice, toBaseCurrency, toChargeMinor } from '../../../../shared/domain/currency'

afterEach(() => configureCurrencies('INR'))

describe('base currency from configuration', () => {
  it('prices a USD catalogue in dollars and converts to rupees at the configured rate', () => {
    configureCurrencies('USD', parseCurrencyRates('INR=83'))
    expect(baseCurrency()).toBe('USD')
    expect(formatUnitPrice(39, 'USD')).toBe('$39.00')
    expect(toChargeMinor(39, 'USD')).toBe(3900)
    expect(toChargeMinor(39, 'INR')).toBe(323_700)
    expect(formatUnitPrice(39, 'INR')).toBe('₹3,237')
    expect(toBaseCurrency(3237, 'INR')).toBe(39)
    // A currency the configuration leaves out keeps the default rate, re-expressed from the base.
    expect(currencyConfig('GBP').rate).toBeCloseTo(0.01111 / 0.01429, 10)
    // An unknown code falls back to the base currency, not to rupees.
    expect(currencyConfig('XYZ').code).toBe('USD')
  })

  it('keeps the INR defaults when nothing is configured', () => {
    expect(baseCurrency()).toBe('INR')
    expect(currencyConfig('USD').rate).toBe(0.01429)
    expect(formatUnitPrice(2499, 'INR')).toBe('₹2,499')
  })

  it.each([
    ['XYZ=1', /XYZ=1/],
    ['USD=-1', /USD=-1/],
    ['USD=0', /USD=0/],
    ['USD=abc', /USD=abc/],
    ['USD 0.5', /USD 0.5/],
  ])('refuses the rate %s and names it', (text, named) => {
    expect(() => parseCurrencyRates(text)).toThrow(named)
  })

  it('reads spaced and lower-case configuration', () => {
    expect(parseCurrencyRates(' usd = 0.012 , GBP:0.0095 ,')).toEqual({ USD: 0.012, GBP: 0.0095 })
  })
})

describe('the currency table a page carries', () => {
  it('is kept while the same rates are configured, and follows other rates at once', () => {
    const rates = parseCurrencyRates('USD=0.02')
    configureCurrencies('INR', rates)
    const first = currencyTableJson()
    expect(JSON.parse(first).find((c: { code: string }) => c.code === 'USD').rate).toBe(0.02)
    configureCurrencies('INR', rates)
    expect(currencyTableJson()).toBe(first)
    configureCurrencies('INR', parseCurrencyRates('USD=0.03'))
    expect(JSON.parse(currencyTableJson()).find((c: { code: string }) => c.code === 'USD').rate).toBe(0.03)
    configureCurrencies('USD', rates)
    expect(JSON.parse(currencyTableJson()).find((c: { code: string }) => c.code === 'USD').rate).toBe(1)
  })
})
