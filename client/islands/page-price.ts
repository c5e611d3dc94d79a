/**
 * Money as the page shows it. Catalogue amounts are kept in the base currency (INR) and shown in
 * the page's display currency, converted and rounded to its step exactly as they are charged;
 * amounts the server already computed in a currency (cart totals, orders) are shown as they are.
 */
import { rulesFromGstMap, type TilePricing } from '@shared/components/catalog/tile-price'
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

let pricing: TilePricing | null = null

/** Records who this page's prices are for (the browsing country and GST rates the server sent). */
export function setPagePricing(p: { country: string; gstRates: Record<string, number> }): void {
  pricing = { country: p.country, taxRules: rulesFromGstMap(p.gstRates) }
}

/** The pricing for tiles built in the browser: what the page sent, else the browsing country alone. */
export function pageTilePricing(): TilePricing {
  return pricing ?? { country: pageCountry() }
}

/** The browsing country the server rendered into <html data-country> (IN when absent). */
function pageCountry(): string {
  return (typeof document !== 'undefined' && document.documentElement.dataset.country) || 'IN'
}

/** The line under prices for the browsing country ('Inclusive of all taxes' in India). */
export function pagePriceNote(): string {
  return destinationTax(pageCountry()).note
}
