/**
 * Tax as rules: the rule that taxes a product (tax class, then HSN prefixes), a country's rates in
 * slab order, and the slab a piece's value falls in — whether the value is without the tax or
 * includes it (India's catalogue prices include GST).
 */
import { describe, expect, it } from 'vitest'
import { buildTaxRules } from '../../../../scripts/catalogue/seed/attributes'
import {
  countryRates,
  rulesForCountries,
  slabRate,
  type TaxRuleFields,
  taxRuleOf,
} from '../../../../shared/domain/tax-rules'

const apparelSlabs = [
  { rate: 18, tax_country_id: 'IN' },
  { rate: 5, tax_country_id: 'IN', max_value: 2500 },
  { rate: 20, tax_country_id: 'GB' },
]
const rules: TaxRuleFields[] = [
  { product_tax_class_ids: [2], hsn_prefixes: ['71'], rates: [{ rate: 3, tax_country_id: 'IN' }] },
  { product_tax_class_ids: [2], hsn_prefixes: ['61', '62', '63'], rates: apparelSlabs },
  { product_tax_class_ids: [2], rates: [{ rate: 18, tax_country_id: 'IN' }] },
  { product_tax_class_ids: [5], rates: [{ rate: 0, tax_country_id: 'IN' }] },
]

describe('the rule that taxes a product', () => {
  it.each([
    ['jewellery by its HSN chapter', { tax_class_id: 2, hsn_code: '71171900' }, 0],
    ['woven apparel', { tax_class_id: 2, hsn_code: '6204' }, 1],
    ['knitted apparel, the code given as a number', { tax_class_id: 2, hsn_code: 61091000 }, 1],
    ['made-ups', { tax_class_id: 2, hsn_code: '630492' }, 1],
    ['a bag: no prefix matches, the catch-all rule of its class', { tax_class_id: 2, hsn_code: '4202' }, 2],
    ['no HSN code: the rule without prefixes', { tax_class_id: 2 }, 2],
    ['another class', { tax_class_id: 5, hsn_code: '6204' }, 3],
  ])('%s', (_name, product, index) => {
    expect(taxRuleOf(product, rules)).toBe(rules[index])
  })
  it('no class, class 0, an unknown class or no rules: no rule', () => {
    expect(taxRuleOf({ hsn_code: '6204' }, rules)).toBeNull()
    expect(taxRuleOf({ tax_class_id: 0 }, rules)).toBeNull()
    expect(taxRuleOf({ tax_class_id: 9 }, rules)).toBeNull()
    expect(taxRuleOf({ tax_class_id: 2 }, null)).toBeNull()
  })
})

describe("a country's rates, lowest slab first", () => {
  it('orders bounded rates up and the unbounded one last; keeps only the country', () => {
    expect(countryRates(rules[1], 'in').map((r) => r.rate)).toEqual([5, 18])
    expect(countryRates(rules[1], 'GB').map((r) => r.rate)).toEqual([20])
    expect(countryRates(rules[1], 'US')).toEqual([])
    expect(countryRates(null, 'IN')).toEqual([])
  })
  it('takes the rates for every region of the country (none, "*" or region id 0), not one region\'s', () => {
    const rule = {
      product_tax_class_ids: [2],
      rates: [
        { rate: 7, tax_country_id: 'US', region_name: 'CA', tax_region_id: 12 },
        { rate: 6, tax_country_id: 'US', region_name: 'NY', tax_region_id: 43 },
        { rate: 1, tax_country_id: 'US', region_name: '*', tax_region_id: 0 },
      ],
    }
    expect(countryRates(rule, 'US').map((r) => r.rate)).toEqual([1])
    expect(countryRates({ ...rule, rates: rule.rates.slice(0, 2) }, 'US')).toEqual([])
  })
})

describe('GST slabs on apparel: 5 % up to ₹2,500 a piece, 18 % above', () => {
  const inRates = countryRates(rules[1], 'IN')
  it.each([
    [2500, 5],
    [2500.004, 5],
    [2500.01, 18],
    [2501, 18],
    [0, 5],
  ])('a piece worth %d before GST pays %d %%', (value, rate) => {
    expect(slabRate(inRates, value, false)).toBe(rate)
  })
  it.each([
    // The threshold is on the value before GST: ₹2,625 is ₹2,500 + 5 %.
    [2500, 5],
    [2501, 5],
    [2625, 5],
    [2626, 18],
    // ₹2,800 has no consistent rate (2,666.67 at 5 % is above the slab, 2,372.88 at 18 % below):
    // the higher rate, so tax is never under-stated.
    [2800, 18],
    [2951, 18],
  ])('a GST-inclusive piece of ₹%d carries %d %% GST', (value, rate) => {
    expect(slabRate(inRates, value, true)).toBe(rate)
  })
  it('no rates: no tax', () => {
    expect(slabRate([], 100, false)).toBe(0)
    expect(slabRate([], 100, true)).toBe(0)
  })
  it('a value above every bound pays the top rate', () => {
    const bounded = [{ rate: 5, tax_country_id: 'IN', max_value: 1000 }]
    expect(slabRate(bounded, 5000, false)).toBe(5)
  })
})

describe('what a page sends its islands', () => {
  it('keeps only the rates of the named countries, and the HSN prefixes and slabs', () => {
    const sent = rulesForCountries(rules, ['IN', 'us'])
    expect(sent[1]).toEqual({
      product_tax_class_ids: [2],
      hsn_prefixes: ['61', '62', '63'],
      rates: [
        { rate: 18, tax_country_id: 'IN' },
        { rate: 5, tax_country_id: 'IN', max_value: 2500 },
      ],
    })
    expect(sent[2]).toEqual({ product_tax_class_ids: [2], rates: [{ rate: 18, tax_country_id: 'IN' }] })
  })
})

describe("the demo shop's rules: GST as in force since 22 September 2025", () => {
  const demo = buildTaxRules()
  const rateIn = (product: { tax_class_id: number; hsn_code?: string }, value: number) =>
    slabRate(countryRates(taxRuleOf(product, demo), 'IN'), value, true)
  it.each([
    ['a kurta of ₹2,499', { tax_class_id: 2, hsn_code: '62063000' }, 2499, 5],
    ['a lehenga of ₹24,999', { tax_class_id: 2, hsn_code: '62045290' }, 24_999, 18],
    ['a tee of ₹1,299', { tax_class_id: 2, hsn_code: '61091000' }, 1299, 5],
    ['a coaster set (a made-up) of ₹899', { tax_class_id: 2, hsn_code: '63049260' }, 899, 5],
    ['jhumkas of ₹3,499', { tax_class_id: 2, hsn_code: '71171900' }, 3499, 3],
    ['a potli bag of ₹2,499', { tax_class_id: 2, hsn_code: '42022210' }, 2499, 18],
    ['a gift card', { tax_class_id: 5 }, 5000, 0],
  ])('%s', (_name, product, value, rate) => {
    expect(rateIn(product, value)).toBe(rate)
  })
  it('adds UK VAT of 20 % to every good, and names no other country', () => {
    for (const rule of demo.filter((r) => r.product_tax_class_ids.includes(2)))
      expect(countryRates(rule, 'GB').map((r) => r.rate)).toEqual([20])
    for (const country of ['US', 'FR'])
      expect(
        demo.flatMap((rule) => countryRates(rule, country)),
        country,
      ).toEqual([])
  })
})
