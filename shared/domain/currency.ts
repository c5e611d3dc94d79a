/**
 * Currency conversion and price formatting: ONE function used by SSR, AMP and
 * islands. Amounts use ',' as the thousands separator and '.' for decimals (locale en-US);
 * negatives are prefixed '-' before the sign ('-₹1,200'); the sign goes before the amount unless
 * the placement is 'append' ('1,200₹'), as VSF 1.12's price filter did.
 * Decimals: rounded to 2 places; a currency with `trimWholeDecimals` (INR) drops '.00' on whole
 * amounts ('₹2,499', but '₹2,499.50'); USD and GBP always show 2 decimals ('$35.71', '$40.00').
 * A catalogue price is shown with formatUnitPrice: converted and rounded to its currency's display
 * step exactly as it is charged (toChargeMinor), so a shown price is always a chargeable one.
 * Deliberately no Intl: tiny, and identical output in workerd, Node and every browser.
 */
import { CURRENCY_SIGN_PLACEMENT, type CurrencyConfig, currencyConfig, shopLocale } from '../config/store'

interface FormatPriceOptions {
  /** The amount is in the base currency and must be converted first (default true). */
  convert?: boolean
  /** Sign placement ('append' after the amount, anything else before it); default from config. */
  placement?: 'append' | 'prefix'
  /** Override the currency table (tests, store views). */
  currency?: CurrencyConfig
}

/** Converts an amount in the base currency into `currencyCode` using its configured rate. */
export function convertPrice(amountInBase: number, currencyCode: string): number {
  return amountInBase * currencyConfig(currencyCode).rate
}

/** Converts an amount in `currencyCode` back into the base currency. */
export function toBaseCurrency(amount: number, currencyCode: string): number {
  const { rate } = currencyConfig(currencyCode)
  return rate ? amount / rate : amount
}

/**
 * An amount in the base currency as integer minor units (paise, cents, pence) of `currencyCode`: converted with
 * the configured rate and rounded half up to the currency's display step. This rounded unit price
 * is what is charged, so unit × qty summed over lines is the subtotal exactly.
 */
export function toChargeMinor(amountInBase: number, currencyCode: string): number {
  const { rate, stepMinor } = currencyConfig(currencyCode)
  const step = stepMinor > 0 ? stepMinor : 1
  // Rounded to whole minor units first (removes float noise such as 5299.999999), then to the step.
  const minor = Math.round(amountInBase * rate * 100 + Math.sign(amountInBase) * 1e-6)
  return Math.round(minor / step) * step
}

/** Formats a catalogue unit price (base currency) as it is charged in `currencyCode`: converted, rounded to the step. */
export function formatUnitPrice(amountInBase: number, currencyCode: string): string {
  if (!Number.isFinite(amountInBase)) return ''
  return formatMinor(toChargeMinor(amountInBase, currencyCode), currencyCode)
}

/** Formats integer minor units of `currencyCode` exactly (no conversion, no step rounding). */
export function formatMinor(minor: number, currencyCode: string): string {
  return formatPrice(minor / 100, currencyCode, { convert: false })
}

/** Rounds to 2 decimals (half away from zero, cent-exact for typical prices). */
export function roundPrice(amount: number): number {
  const sign = amount < 0 ? -1 : 1
  return (sign * Math.round(Math.abs(amount) * 100 + Number.EPSILON * 100)) / 100
}

/** Groups an unsigned integer string with ',' every 3 digits: '1234567' → '1,234,567'. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/**
 * Groups an unsigned integer string the Indian way (en-IN): the last three digits, then pairs:
 * '22070615' → '2,20,70,615'.
 */
function groupIndian(digits: string): string {
  if (digits.length <= 3) return digits
  const head = digits.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',')
  return `${head},${digits.slice(-3)}`
}

/**
 * Integer minor units with the Indian grouping and always two decimals, the way Indian tax
 * documents and the back office write amounts: 22,070,615 → '₹2,20,706.15' (sign of `currency`).
 */
export function formatMinorIndian(minor: number, currencyCode: string): string {
  const sign = currencyConfig(currencyCode).sign
  const abs = Math.abs(Math.round(minor))
  const text = `${sign}${groupIndian(String(Math.floor(abs / 100)))}.${String(abs % 100).padStart(2, '0')}`
  return minor < 0 && abs > 0 ? `-${text}` : text
}

/**
 * An amount as operators read it (the back office and its refusals): the Indian grouping and two
 * decimals (₹2,14,900.00) while the shop's locale is en-IN, the shop front's grouping otherwise.
 */
export function formatMinorForOperator(minor: number, currencyCode: string): string {
  return shopLocale() === 'en-IN' ? formatMinorIndian(minor, currencyCode) : formatMinor(minor, currencyCode)
}

/** Formats a number (no sign) with ',' thousands and 2 decimals, or none when whole and `trimWhole`. */
export function formatAmount(amount: number, trimWhole = false): string {
  const cents = Math.round(Math.abs(amount) * 100 + Number.EPSILON * 100)
  const whole = Math.floor(cents / 100)
  const fraction = cents % 100
  const grouped = groupThousands(String(whole))
  if (trimWhole && fraction === 0) return grouped
  return `${grouped}.${String(fraction).padStart(2, '0')}`
}

/** Formats a price for display in `currencyCode`: converted from the base currency unless `convert: false`. */
export function formatPrice(
  amountInBase: number,
  currencyCode: string,
  opts: FormatPriceOptions = {},
): string {
  if (!Number.isFinite(amountInBase)) return ''
  const currency = opts.currency ?? currencyConfig(currencyCode)
  const amount = opts.convert === false ? amountInBase : amountInBase * currency.rate
  const text = formatAmount(amount, currency.trimWholeDecimals === true)
  const placement = opts.placement ?? CURRENCY_SIGN_PLACEMENT
  const withSign = placement === 'append' ? `${text}${currency.sign}` : `${currency.sign}${text}`
  // '-' only when the rounded amount is non-zero (no '-₹0').
  const negative = amount < 0 && Math.round(Math.abs(amount) * 100) > 0
  return negative ? `-${withSign}` : withSign
}
