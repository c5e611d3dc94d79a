/**
 * Tax as rules (vue-storefront-api's `taxrule` entity, extended): which rule taxes a product, the
 * rates it names for a country, and the rate a piece of a given value pays.
 *
 * - A rule lists product tax classes and, optionally, HSN code prefixes (`hsn_prefixes`: chapters
 *   such as '61', or longer headings). The rule taxing a product is the first that lists its tax
 *   class and whose prefixes (when it names any) start the product's `hsn_code`: without prefixes
 *   in any rule this is vue-storefront-api's "first rule listing the class".
 * - A rule's rates for a country are those with its `tax_country_id` that apply in every region of
 *   it (no region, '*', or region id 0): prices are decided per country, before any address.
 * - Slabs: a rate may carry `max_value`, the highest sale value of ONE piece (its value without this
 *   tax, in the base currency) it applies to. The rates of a country are tried from the lowest
 *   bound up, an unbounded rate last (rates with equal bounds keep their order); the first whose
 *   bound holds is the rate. India's GST on apparel is two rates: 5 % up to 2,500, 18 % above.
 * - A value that includes the tax (a catalogue price inclusive of GST) is tested as its value
 *   without that rate's tax: the first rate r whose bound holds for value / (1 + r/100). A value no
 *   slab holds pays the top rate, so tax is never under-stated.
 */

/** One rate of a rule (Magento's tax rate, with an optional slab bound). */
export interface TaxRateFields {
  rate: number
  tax_country_id: string
  region_name?: string | null
  tax_region_id?: number | null
  /** Highest sale value of one piece (without this tax, base currency) this rate applies to; none = no bound. */
  max_value?: number | null
}

/** A tax rule: the product classes (and HSN prefixes) it taxes and its rates per country. */
export interface TaxRuleFields {
  product_tax_class_ids: readonly number[]
  /** HSN code prefixes the rule is limited to; absent or empty = every product of its classes. */
  hsn_prefixes?: readonly string[] | null
  rates: readonly TaxRateFields[]
}

/** What decides which rule taxes a product. */
export interface TaxedFields {
  tax_class_id?: number | null
  hsn_code?: string | number | null
}

/** The rule that taxes a product: the first listing its class whose HSN prefixes, if any, match. */
export function taxRuleOf(
  product: TaxedFields,
  rules: readonly TaxRuleFields[] | null | undefined,
): TaxRuleFields | null {
  const taxClass = product.tax_class_id
  if (!taxClass || taxClass <= 0 || !rules) return null
  const hsn = String(product.hsn_code ?? '')
  return (
    rules.find(
      (r) =>
        r.product_tax_class_ids.includes(taxClass) &&
        (!r.hsn_prefixes?.length || r.hsn_prefixes.some((p) => p !== '' && hsn.startsWith(p))),
    ) ?? null
  )
}

const bound = (r: TaxRateFields) => r.max_value ?? Number.POSITIVE_INFINITY

/**
 * A rule's rates for a country, lowest slab bound first, unbounded last. Prices are decided per
 * country, before any address: a rate limited to one region (a state) does not apply; one for every
 * region (no region, '*', or region id 0) does.
 */
export function countryRates(
  rule: TaxRuleFields | null | undefined,
  country: string | null | undefined,
): TaxRateFields[] {
  const code = country?.trim().toUpperCase()
  const matching = (rule?.rates ?? []).filter(
    (r) =>
      r.tax_country_id.toUpperCase() === code &&
      (!r.region_name || r.region_name === '*' || r.tax_region_id === 0),
  )
  // A stable sort: rates with the same bound keep the rule's order (the first one wins).
  return matching.sort((a, b) => bound(a) - bound(b))
}

/** Hundredths, so a value computed in floating point is compared with a bound as money. */
const cents = (x: number) => Math.round(x * 100)

/**
 * The rate (percent) a piece of `value` pays: the first slab whose bound holds for the value
 * without its tax — the value itself, or, when it includes the tax, value / (1 + rate/100). A value
 * above every bound pays the top rate; no rates, no tax.
 */
export function slabRate(rates: readonly TaxRateFields[], value: number, includesTax: boolean): number {
  const hit = rates.find((r) => cents(includesTax ? value / (1 + r.rate / 100) : value) <= cents(bound(r)))
  return (hit ?? rates[rates.length - 1])?.rate ?? 0
}

/** The rules with only the rates of the given countries (what a page sends for its browsing country). */
export function rulesForCountries(
  rules: readonly TaxRuleFields[] | null | undefined,
  countries: readonly string[],
): TaxRuleFields[] {
  const wanted = new Set(countries.map((c) => c.toUpperCase()))
  return (rules ?? []).map((r) => ({
    product_tax_class_ids: r.product_tax_class_ids,
    ...(r.hsn_prefixes?.length ? { hsn_prefixes: r.hsn_prefixes } : {}),
    rates: r.rates
      .filter((rate) => wanted.has(rate.tax_country_id.toUpperCase()))
      .map((rate) => ({
        rate: rate.rate,
        tax_country_id: rate.tax_country_id,
        ...(rate.region_name ? { region_name: rate.region_name } : {}),
        ...(rate.tax_region_id != null ? { tax_region_id: rate.tax_region_id } : {}),
        ...(typeof rate.max_value === 'number' ? { max_value: rate.max_value } : {}),
      })),
  }))
}
