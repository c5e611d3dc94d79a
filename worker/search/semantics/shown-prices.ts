/**
 * The price a shopper is shown, as the search index holds it, so that a price band in the
 * shopper's currency selects exactly the products whose tile shows a price inside it.
 *
 * A tile's price depends on the shopper's pricing country (its tax on each piece) and display
 * currency (conversion and rounding to its step): `listingPriceView(doc).view.unitMinor` (a grouped
 * set's cheapest piece, as its tile shows "from"). Countries whose tax
 * rules give every product the same rates share a **price zone**: the home country is its own
 * zone; the countries the rules name are grouped by their rates (the zone is named by the first of
 * them); every country the rules do not name is the zone `ROW` (no tax). For each zone and each
 * display currency the index holds one number per priced product, the shown unit price in major
 * units of that currency, under the field `sp.<rules>.<zone>.<currency>`.
 *
 * `<rules>` is a digest of the tax rules, the currency table and the listing rule (LISTING_RULE)
 * the numbers were computed with: a change of any of them names new fields, so a number computed under old rules or rates is never read
 * (builds/shown-prices.ts writes the new ones and deletes the old).
 */

import { listingPriceView } from '@shared/components/catalog/tile-price'
import { baseCurrency, CURRENCIES, currencyConfig, HOME_COUNTRY } from '@shared/config/store'
import { countryRates, type TaxRuleFields } from '@shared/domain/tax-rules'

/** The first characters of every shown-price field. */
export const SHOWN_PRICE_PREFIX = 'sp.'

/** The listing price rule's name: a new one when listingPriceView changes what a listing shows. */
const LISTING_RULE = 'grouped-from-cheapest-piece'

/** The zone of every country the tax rules do not name (no country has this code). */
const UNNAMED_ZONE = 'ROW'

/**
 * What the zones and the digest of one set of tax rules are (memoised per rules array: the rules a
 * request reads are one shared object per version of the tax rules, never mutated).
 */
interface PricingZones {
  /** The currency table and base the digest was computed under. */
  table: string
  digest: string
  /** Country → zone, for the countries the rules name and the home country. */
  zones: Map<string, string>
  /** Each zone, named by a country priced as it (`ROW` prices as a country no rule names). */
  priced: string[]
}

const zonesMemo = new WeakMap<readonly TaxRuleFields[], PricingZones>()

/** FNV-1a of a string as a field name part: 'r' and 7 base-36 digits at most. */
function digestOf(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return `r${(h >>> 0).toString(36)}`
}

/** The tax rules' zones and their digest with the currency table in force. */
function pricingZones(rules: readonly TaxRuleFields[]): PricingZones {
  const currencies = CURRENCIES.map((c) => currencyConfig(c.code))
  // The rules are digested once per rules object and currency table, not on every request.
  const table = JSON.stringify([currencies, baseCurrency()])
  const held = zonesMemo.get(rules)
  if (held && held.table === table) return held
  const digest = digestOf(JSON.stringify([rules, currencies, baseCurrency(), HOME_COUNTRY, LISTING_RULE]))
  const named = new Set<string>()
  for (const rule of rules)
    for (const r of rule.rates ?? []) named.add(String(r.tax_country_id).toUpperCase())
  named.delete(HOME_COUNTRY)
  const zones = new Map<string, string>([[HOME_COUNTRY, HOME_COUNTRY]])
  const byRates = new Map<string, string>()
  for (const country of [...named].sort()) {
    const key = JSON.stringify(rules.map((rule) => countryRates(rule, country)))
    // A country whose rules name no rate for the whole country is taxed like an unnamed one.
    const untaxed = rules.every((rule) => countryRates(rule, country).length === 0)
    const zone = untaxed ? UNNAMED_ZONE : (byRates.get(key) ?? country)
    byRates.set(key, zone)
    zones.set(country, zone)
  }
  const priced = [...new Set([HOME_COUNTRY, ...zones.values(), UNNAMED_ZONE])]
  const out = { table, digest, zones, priced }
  zonesMemo.set(rules, out)
  return out
}

/** The field holding the price shown to a shopper of `country` in `currency`. */
export function shownPriceField(rules: readonly TaxRuleFields[], country: string, currency: string): string {
  const { digest, zones } = pricingZones(rules)
  const zone = zones.get(country.trim().toUpperCase()) ?? UNNAMED_ZONE
  return `${SHOWN_PRICE_PREFIX}${digest}.${zone}.${currencyConfig(currency).code}`
}

/** The first characters of every field written under these rules and rates. */
export function shownPriceFieldPrefix(rules: readonly TaxRuleFields[]): string {
  return `${SHOWN_PRICE_PREFIX}${pricingZones(rules).digest}.`
}

/**
 * A product's shown prices under `rules`: one [field, major units] per zone and display currency.
 * None for a document without a price (the tile shows none; the price filter never lists it).
 */
export function shownPriceNumbers(
  doc: Record<string, unknown>,
  rules: readonly TaxRuleFields[],
  now: number,
): [string, number][] {
  if (typeof doc.final_price !== 'number') return []
  const { priced } = pricingZones(rules)
  const prefix = shownPriceFieldPrefix(rules)
  const out: [string, number][] = []
  for (const zone of priced) {
    for (const { code } of CURRENCIES) {
      const { view } = listingPriceView(doc as Parameters<typeof listingPriceView>[0], {
        now,
        currency: code,
        taxRules: rules,
        country: zone,
      })
      out.push([`${prefix}${zone}.${code}`, view.unitMinor / 100])
    }
  }
  return out
}
