/**
 * Money as the page shows it. Catalogue amounts are kept in the base currency (INR) and shown in
 * the page's display currency, converted and rounded to its step exactly as they are charged;
 * amounts the server already computed in a currency (cart totals, orders) are shown as they are.
 */
import { destinationTax } from '@shared/config/store'
import { formatMinor, formatPrice, toChargeMinor } from '@shared/domain/currency'
import { pageCurrency } from './page-currency'

/** Formats an amount in the base currency (INR) in the page's display currency (exact conversion, for balances). */
export function formatPagePrice(amount: number): string {
  return formatPrice(amount, pageCurrency())
}

/** A line's charge: the unit price (INR) rounded as charged in the page's currency, × qty. */
export function formatPageLine(unitInBase: number, qty: number): string {
  const currency = pageCurrency()
  return formatMinor(toChargeMinor(unitInBase, currency) * qty, currency)
}

/** The unit price (INR) of a line in minor units of the page's currency, as charged. */
export function pageUnitMinor(unitInBase: number): number {
  return toChargeMinor(unitInBase, pageCurrency())
}

/** Formats an amount that is already in `currency` (the page's when not given), without conversion. */
export function formatPageAmount(amount: number, currency: string = pageCurrency()): string {
  return formatPrice(amount, currency, { convert: false })
}

/** The browsing country the server rendered into <html data-country> (IN when absent). */
export function pageCountry(): string {
  return (typeof document !== 'undefined' && document.documentElement.dataset.country) || 'IN'
}

/** The line under prices for the browsing country ('Inclusive of all taxes' in India). */
export function pagePriceNote(): string {
  return destinationTax(pageCountry()).note
}
