/**
 * Store, currency and locale configuration.
 * Everything here is plain data; domain functions take it as an argument.
 */

export type CurrencyCode = 'INR' | 'USD' | 'GBP'
export type PricingCountry = 'IN' | 'US' | 'GB' | 'ROW'

export interface CurrencyConfig {
  code: CurrencyCode
  /** Sign shown with amounts (shown with the value). */
  sign: string
  /** Conversion rate from the base currency (INR). */
  rate: number
  /** Whole amounts are shown without decimals (INR: '₹2,499'); others always show 2 ('$35.00'). */
  trimWholeDecimals?: boolean
}

/** "Currencies: INR (symbol ₹, rate 1, default), USD ($, 0.01429), GBP (£, 0.01111)." */
export const CURRENCIES: readonly CurrencyConfig[] = [
  { code: 'INR', sign: '₹', rate: 1, trimWholeDecimals: true },
  { code: 'USD', sign: '$', rate: 0.01429 },
  { code: 'GBP', sign: '£', rate: 0.01111 },
]

export const DEFAULT_CURRENCY: CurrencyCode = 'INR'
/** "Default country IN, language EN, locale en-US." */
export const DEFAULT_COUNTRY = 'IN'
/**
 * Store time zone as a UTC offset (India, UTC+05:30). Used so 'today' in the
 * estimated delivery date is the shopper's day in the default market, on any server clock.
 */
export const STORE_UTC_OFFSET_MINUTES = 330
/** currencySignPlacement: 'append' puts the sign after the amount; anything else prefixes it. */
export const CURRENCY_SIGN_PLACEMENT: 'append' | 'prefix' = 'prefix'

/** "Country for pricing is IN, US or GB. Anything else is ROW." */
const PRICING_COUNTRIES = ['IN', 'US', 'GB'] as const

/** Cookie names the worker and the islands share. */
export const COOKIE_CURRENCY = 'currency'
export const COOKIE_COUNTRY = 'country'

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === 'string' && CURRENCIES.some((c) => c.code === value)
}

/** Returns the currency configuration for a code, falling back to the default currency. */
export function currencyConfig(code: string | undefined): CurrencyConfig {
  return CURRENCIES.find((c) => c.code === code) ?? (CURRENCIES[0] as CurrencyConfig)
}

/** Maps any ISO country code to the pricing country: IN, US, GB, else ROW. */
export function pricingCountry(country: string | undefined | null): PricingCountry {
  const upper = (country ?? '').trim().toUpperCase()
  return (PRICING_COUNTRIES as readonly string[]).includes(upper) ? (upper as PricingCountry) : 'ROW'
}
