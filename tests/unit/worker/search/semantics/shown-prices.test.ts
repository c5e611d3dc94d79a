import { afterEach, describe, expect, it } from 'vitest'
import { configureCurrencies, parseCurrencyRates } from '../../../../../shared/config/store'
import type { TaxRuleFields } from '../../../../../shared/domain/tax-rules'
import { shownPriceField, shownPriceFieldPrefix } from '../../../../../worker/search/semantics/shown-prices'

afterEach(() => configureCurrencies('INR'))

const rules = [
  {
    id: 1,
    code: 'GST',
    tax_rates_ids: [1, 2],
    product_tax_class_ids: [2],
    customer_tax_class_ids: [3],
    rates: [
      { id: 1, code: 'IN', tax_country_id: 'IN', rate: 5 },
      { id: 2, code: 'US', tax_country_id: 'US', rate: 7 },
    ],
  },
] as unknown as TaxRuleFields[]

describe('shown-price fields', () => {
  it('name new fields when the currency table changes, for the same rules object', () => {
    const before = shownPriceFieldPrefix(rules)
    // Asked again under the same table: the same name (it is kept with the rules object).
    expect(shownPriceFieldPrefix(rules)).toBe(before)
    configureCurrencies('INR', parseCurrencyRates('USD=0.02'))
    const after = shownPriceFieldPrefix(rules)
    expect(after).not.toBe(before)
    expect(shownPriceField(rules, 'US', 'USD').startsWith(after)).toBe(true)
    configureCurrencies('INR')
    expect(shownPriceFieldPrefix(rules)).toBe(before)
  })

  it('name the same fields for equal rules read again as a new object', () => {
    const again = JSON.parse(JSON.stringify(rules)) as TaxRuleFields[]
    expect(shownPriceField(again, 'US', 'USD')).toBe(shownPriceField(rules, 'US', 'USD'))
    expect(shownPriceField(again, 'IN', 'INR')).toBe(shownPriceField(rules, 'IN', 'INR'))
  })
})
