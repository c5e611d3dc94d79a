/**
 * The operator's shipping rules (docs/fulfilment.md): what shipping costs, when cash on delivery
 * is offered and what it costs, how long returns stay open and how sale pieces may come back, the
 * parcel the courier is booked for, and the delivery estimate when the courier cannot be asked.
 *
 * Amounts are whole rupees, the currency the label trades and the courier bills in (whatever the
 * catalogue's base currency is): a charge is converted into the currency shown at the configured
 * rates and rounded to its step (`toChargeMinor`), so the shipping line is an exact number of
 * minor units of the currency the order is charged in; a threshold is converted without rounding.
 */
import { toChargeMinor } from '../domain/currency'
import { currencyConfig, HOME_COUNTRY } from './store'

/** A shipping zone: the countries (or, at home, the PIN-code prefixes) it covers and its flat rate. */
interface ShippingZone {
  /** What the shopper reads beside the amount. */
  title: string
  /** Abroad: the two-letter countries of the zone; at home: PIN-code prefixes (empty: every other PIN). */
  match: readonly string[]
  rate: number
}

export const SHIPPING_RULES = {
  /** PIN codes that never get cash on delivery, whatever the courier or the PIN table says. */
  codBlockedPincodes: [] as readonly string[],
  /**
   * Shipping rates. At home an order whose subtotal (the lines as shown, before any coupon) is
   * above `freeAbove` ships free; below it pays its zone's rate, the first zone whose PIN-code
   * prefixes start the shipping PIN, else the last one. Abroad likewise by country.
   */
  rates: {
    domestic: {
      freeAbove: 2999,
      zones: [
        // North-east, Jammu and Kashmir, Ladakh, and the islands: the couriers charge these more.
        {
          title: 'Courier to the north-east, J&K and the islands',
          match: ['18', '19', '78', '79', '744', '6825'],
          rate: 249,
        },
        { title: 'Courier within India', match: [], rate: 149 },
      ] as readonly ShippingZone[],
    },
    abroad: {
      freeAbove: 24999,
      zones: [
        { title: 'International courier to the United Kingdom', match: ['GB'], rate: 1999 },
        { title: 'International courier to the United States', match: ['US'], rate: 2499 },
        { title: 'International courier', match: [], rate: 2999 },
      ] as readonly ShippingZone[],
    },
  },
  /**
   * Cash on delivery: a fee added to the order as its own totals line (part of the charge for
   * delivering the goods, so it carries GST like shipping does), and the highest order total
   * (goods and shipping, before the fee) the courier is asked to collect in cash. Pieces made to order
   * (the `made_to_order` table) and the PIN codes and phone numbers of `cod_blocklist` never get it.
   */
  cod: { fee: 49, maxOrderValue: 200000 },
  /** Days after delivery a return or exchange may be asked for. */
  returnWindowDays: 7,
  /** How pieces bought below their list price may come back (a product's own rule wins). */
  saleReturns: 'exchange_only' as 'none' | 'exchange_only' | 'store_credit_only' | 'any',
  /** The parcel every shipment is booked as. */
  parcel: { lengthCm: 30, breadthCm: 25, heightCm: 5, weightKg: 0.5 },
  /** Days to deliver within India when the courier cannot be asked. */
  fallbackDays: { domestic: 7 },
} as const

/** What shipping costs an order: its amount in minor units of the charge currency, and its title. */
interface ShippingQuote {
  amountMinor: number
  title: string
  free: boolean
}

/** The title of a free shipping line. */
const FREE_TITLE = 'Free shipping'
/** The title of the shipping line of an order that ships nothing. */
export const NO_SHIPPING_TITLE = 'No shipping'

/** The currency the rules' amounts are written in. */
const RULES_CURRENCY = 'INR'

/** A rules amount (rupees) in the base currency. */
function inBase(amount: number): number {
  return amount / currencyConfig(RULES_CURRENCY).rate
}

/** A rules amount in exact minor units of `currency` (a threshold: converted, not rounded to a step). */
function thresholdMinor(amount: number, currency: string): number {
  return Math.round(inBase(amount) * currencyConfig(currency).rate * 100)
}

/**
 * The shipping of an order to `country` (and, at home, `postcode`) whose subtotal is
 * `subtotalMinor` in `currency`: free above the threshold (judged on that same subtotal, in that
 * currency), else the rate of the destination's zone converted into `currency`. An order that ships
 * nothing (gift cards only) pays no shipping.
 */
export function shippingQuote(input: {
  ships: boolean
  country: string
  postcode?: string | null
  subtotalMinor: number
  currency: string
}): ShippingQuote {
  if (!input.ships) return { amountMinor: 0, title: NO_SHIPPING_TITLE, free: true }
  const country = input.country.trim().toUpperCase()
  const home = country === HOME_COUNTRY
  const rules = home ? SHIPPING_RULES.rates.domestic : SHIPPING_RULES.rates.abroad
  if (input.subtotalMinor > thresholdMinor(rules.freeAbove, input.currency)) {
    return { amountMinor: 0, title: FREE_TITLE, free: true }
  }
  const key = home ? (input.postcode ?? '').replace(/\s+/g, '') : country
  const zone = (rules.zones.find((z) => z.match.some((m) => (home ? key.startsWith(m) : key === m))) ??
    rules.zones.at(-1)) as ShippingZone
  return { amountMinor: toChargeMinor(inBase(zone.rate), input.currency), title: zone.title, free: false }
}

/** The cash-on-delivery fee in minor units of `currency` (cash on delivery is collected only in rupees). */
export function codFeeMinor(currency: string): number {
  return toChargeMinor(inBase(SHIPPING_RULES.cod.fee), currency)
}

/** The highest order total (goods and shipping) cash on delivery collects, in minor units of `currency`. */
export function codCapMinor(currency: string): number {
  return thresholdMinor(SHIPPING_RULES.cod.maxOrderValue, currency)
}
