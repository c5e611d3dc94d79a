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
  /** Conversion rate from the base currency (the catalogue's currency, BASE_CURRENCY). */
  rate: number
  /** Whole amounts are shown without decimals (INR: '₹2,499'); others always show 2 ('$35.00'). */
  trimWholeDecimals?: boolean
  /**
   * The display step in minor units a converted unit price is rounded to (100 = whole rupees,
   * dollars, pounds). The rounded unit price is the charged unit price.
   */
  stepMinor: number
  /**
   * The step when this is the base currency: the catalogue's own prices (and the tax a country adds
   * to them) keep their minor units — a $39.99 catalogue price is $39.99, 39 with 23 % VAT is
   * 47.97 — except rupees, which India pays whole.
   */
  baseStepMinor: number
}

/**
 * The display currencies and their rates when INR is the base and configuration names no rates:
 * "Currencies: INR (symbol ₹, rate 1, default), USD ($, 0.01429), GBP (£, 0.01111)."
 */
export const CURRENCIES: readonly CurrencyConfig[] = [
  { code: 'INR', sign: '₹', rate: 1, trimWholeDecimals: true, stepMinor: 100, baseStepMinor: 100 },
  { code: 'USD', sign: '$', rate: 0.01429, stepMinor: 100, baseStepMinor: 1 },
  { code: 'GBP', sign: '£', rate: 0.01111, stepMinor: 100, baseStepMinor: 1 },
]

export const DEFAULT_CURRENCY: CurrencyCode = 'INR'

/** The currency catalogue prices are in when configuration names none. */
const DEFAULT_BASE_CURRENCY: CurrencyCode = 'INR'

/**
 * The active currency configuration: the base currency catalogue prices, carts and orders are
 * kept in, and each display currency's rate from it. Set from the worker's configuration
 * (BASE_CURRENCY, CURRENCY_RATES) on every request and from the page in the browser.
 */
let active: { base: CurrencyCode; table: readonly CurrencyConfig[] } = {
  base: DEFAULT_BASE_CURRENCY,
  table: CURRENCIES,
}

/** The rates object the active table was made from, and the table's JSON once asked for. */
let activeRates: Partial<Record<CurrencyCode, number>> | null = null
let activeJson: string | null = null

/**
 * Reads configured rates ('USD=0.012, GBP=0.0095': units of each currency one unit of the base
 * buys). Unknown codes and non-positive or non-numeric rates are errors (the message names them).
 */
export function parseCurrencyRates(text: string): Partial<Record<CurrencyCode, number>> {
  const out: Partial<Record<CurrencyCode, number>> = {}
  for (const part of text.split(',')) {
    const item = part.trim()
    if (!item) continue
    const m = /^([A-Za-z]{3})\s*[=:]\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)$/.exec(item)
    const code = m?.[1]?.toUpperCase()
    const rate = Number(m?.[2])
    if (!m || !isCurrencyCode(code) || !(rate > 0) || !Number.isFinite(rate))
      throw new Error(
        `CURRENCY_RATES: '${item}' is not CODE=RATE with a known currency (${CURRENCIES.map((c) => c.code).join(', ')}) and a positive rate`,
      )
    out[code] = rate
  }
  return out
}

/**
 * Makes `base` the base currency. Each display currency's rate is the configured one, else the
 * default table's rates re-expressed from the base (so INR → USD stays 0.01429 whatever the base);
 * the base's own rate is always 1.
 */
export function configureCurrencies(base: CurrencyCode, rates: Partial<Record<CurrencyCode, number>> = {}) {
  // The same base and the same rates object (the server's parsed configuration, set on every
  // request) give the same table: the table and its JSON are kept.
  if (base === active.base && rates === activeRates) return
  activeRates = rates
  activeJson = null
  const fromBase = CURRENCIES.find((c) => c.code === base)?.rate ?? 1
  active = {
    base,
    table: CURRENCIES.map((c) =>
      c.code === base
        ? { ...c, rate: 1, stepMinor: c.baseStepMinor }
        : { ...c, rate: rates[c.code] ?? c.rate / fromBase },
    ),
  }
}

/** The active currency table (codes, signs, rates from the base) as JSON, for the page to carry. */
export function currencyTableJson(): string {
  activeJson ??= JSON.stringify(active.table)
  return activeJson
}

/**
 * In the browser: applies the currency configuration the page carries (html data-base-currency
 * and data-currencies, written by the server from baseCurrency and currencyTableJson), so prices
 * built in the browser use the server's base and rates.
 */
export function configureCurrenciesFromPage(): void {
  const page = document.documentElement.dataset
  if (page.currencies) {
    active = { base: page.baseCurrency as CurrencyCode, table: JSON.parse(page.currencies) }
    activeRates = null
    activeJson = null
  }
}

/** The base currency: what catalogue prices are in, and what carts and orders record as base. */
export function baseCurrency(): CurrencyCode {
  return active.base
}

/**
 * The shop's clock and number style for operators: the IANA time zone every date the back office
 * shows, filters, exports and counts as "today" is read in, and the locale its amounts are grouped
 * by ('en-IN': 2,20,706.15). Set from the worker's configuration (SHOP_TIME_ZONE, SHOP_LOCALE) on
 * every request, like the currency table.
 */
let shopClock = { timeZone: 'Asia/Kolkata', locale: 'en-IN' }

export function configureShopClock(timeZone: string, locale: string): void {
  shopClock = { timeZone, locale }
}

/** The shop's IANA time zone (Asia/Kolkata unless configured). */
export function shopTimeZone(): string {
  return shopClock.timeZone
}

/** The locale operators read numbers in (en-IN unless configured). */
export function shopLocale(): string {
  return shopClock.locale
}

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

/** Returns the currency configuration for a code (its rate from the base), falling back to the base currency. */
export function currencyConfig(code: string | undefined): CurrencyConfig {
  const { table, base } = active
  return (table.find((c) => c.code === code) ?? table.find((c) => c.code === base)) as CurrencyConfig
}

/** Maps any ISO country code to the pricing country: IN, US, GB, else ROW. */
export function pricingCountry(country: string | undefined | null): PricingCountry {
  const upper = (country ?? '').trim().toUpperCase()
  return (PRICING_COUNTRIES as readonly string[]).includes(upper) ? (upper as PricingCountry) : 'ROW'
}

/**
 * The label's own country. Catalogue prices include its tax (GST): a shopper there pays them as
 * they are; elsewhere that tax is taken out and the destination's, as the tax rules name it, put in.
 */
export const HOME_COUNTRY = 'IN'

/**
 * The currency a country's shoppers see before they choose one (the destination's currency from
 * the first tile); a country without its own offered currency sees US dollars.
 */
const COUNTRY_CURRENCY: Readonly<Record<PricingCountry, CurrencyCode>> = {
  IN: 'INR',
  GB: 'GBP',
  US: 'USD',
  ROW: 'USD',
}

/** The currency shown first to a shopper in `country`. */
export function currencyOfCountry(country: string | null | undefined): CurrencyCode {
  return COUNTRY_CURRENCY[pricingCountry(country)]
}

/** The country a currency is at home in (INR → IN, GBP → GB, USD → US). */
export function countryOfCurrency(code: string | null | undefined): string | null {
  const entry = Object.entries(COUNTRY_CURRENCY).find(([country, c]) => c === code && country !== 'ROW')
  return entry?.[0] ?? null
}

/** How the shop words the tax in prices for a destination. */
interface DestinationTax {
  /** Name of the tax in the totals breakdown ('GST', 'UK VAT'). */
  label: string
  /** The line under a price. */
  note: string
  /** The same, where space is tight (tiles). */
  shortNote: string
}

/** Which texts a destination gets: the home country's, or abroad's as the tax rules tax it or not. */
export type DestinationKind = 'home' | 'taxed' | 'untaxed'

const TEXTS: Readonly<Record<DestinationKind, DestinationTax>> = {
  home: { label: 'GST', note: 'Inclusive of all taxes', shortNote: 'Incl. taxes' },
  // Abroad, by whether the tax rules add a tax there.
  taxed: { label: 'Tax', note: 'Includes local taxes', shortNote: 'Incl. taxes' },
  untaxed: { label: 'Tax', note: 'Import duties and taxes not included', shortNote: 'Excl. duties' },
}

/** Where a country names its tax itself. */
const COUNTRY_TEXTS: Readonly<Record<string, Partial<Record<DestinationKind, Partial<DestinationTax>>>>> = {
  GB: { taxed: { label: 'UK VAT', note: 'Includes UK VAT', shortNote: 'Incl. VAT' } },
  US: { untaxed: { label: 'US sales tax', note: 'Import duties and sales tax not included' } },
}

/**
 * Which texts a destination gets. `taxed` says whether the tax rules add a tax there; when it is
 * not known, the United Kingdom is (UK VAT) and other countries abroad are not.
 */
export function kindOf(
  country: string | null | undefined,
  taxed?: boolean,
): { code: string; kind: DestinationKind } {
  const code = (country ?? '').trim().toUpperCase() || HOME_COUNTRY
  if (code === HOME_COUNTRY) return { code, kind: 'home' }
  return { code, kind: (taxed ?? pricingCountry(code) === 'GB') ? 'taxed' : 'untaxed' }
}

/** How prices for `country` are worded (see kindOf for `taxed`). */
export function destinationTax(country: string | null | undefined, taxed?: boolean): DestinationTax {
  const { code, kind } = kindOf(country, taxed)
  return { ...TEXTS[kind], ...COUNTRY_TEXTS[code]?.[kind] }
}
