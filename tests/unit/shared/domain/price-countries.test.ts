/**
 * The one price rule across countries and currencies: catalogue prices include Indian GST; India
 * pays them; elsewhere GST comes out and the destination's tax, as the tax rules name it, goes in;
 * converted prices are rounded to the currency's step and that rounded price is the charge.
 */
import { describe, expect, it } from 'vitest'
import { buildTaxRules } from '../../../../scripts/catalogue/seed/attributes'
import { formatMinor, formatUnitPrice, toChargeMinor } from '../../../../shared/domain/currency'
import { priceView } from '../../../../shared/domain/price'
import { bundleAcrossSlab } from '../../../helpers/priced-lines'

const NOW = Date.UTC(2027, 2, 15)
const taxRules = [
  {
    product_tax_class_ids: [2],
    rates: [
      { rate: 12, tax_country_id: 'IN' },
      { rate: 20, tax_country_id: 'GB' },
    ],
  },
  { product_tax_class_ids: [5], rates: [{ rate: 0, tax_country_id: 'IN' }] },
]
const kurta = { type_id: 'simple', price: 5299, tax_class_id: 2 }
const view = (product: object, currency: string, country: string, extra: object = {}) =>
  priceView(product, { now: NOW, currency, taxRules, country, ...extra })

describe('India: the catalogue price, GST inside', () => {
  it('₹5,299 is shown and charged as ₹5,299 with "Inclusive of all taxes"', () => {
    const v = view(kurta, 'INR', 'IN')
    expect(v.formatted.final).toBe('₹5,299')
    expect(v.unitMinor).toBe(529_900)
    expect(v.taxRate).toBe(12)
    expect(v.note).toBe('Inclusive of all taxes')
    expect(v.final).toBeCloseTo(5299 / 1.12, 9)
  })
  it('a percent custom option rounds the unit price to whole rupees once', () => {
    const product = {
      ...kurta,
      custom_options: [
        { option_id: 1, type: 'radio', values: [{ option_type_id: 11, price: 7.5, price_type: 'percent' }] },
      ],
    }
    // 5299 × 1.075 = 5696.425 → ₹5,696.
    const v = view(product, 'INR', 'IN', { customOptions: { 1: 11 } })
    expect(v.unitMinor).toBe(569_600)
    expect(v.formatted.final).toBe('₹5,696')
  })
})

describe('outside India: GST out, destination tax in', () => {
  it('United Kingdom: net of 12 % GST plus 20 % VAT, in INR and in GBP', () => {
    const inr = view(kurta, 'INR', 'GB')
    // 5299 / 1.12 × 1.2 = 5677.5 → ₹5,678 (half up).
    expect(inr.unitMinor).toBe(567_800)
    expect(inr.taxRate).toBe(20)
    expect(inr.note).toBe('Includes UK VAT')
    const gbp = view(kurta, 'GBP', 'GB')
    // 5677.5 × 0.01111 = 63.08 → £63.
    expect(gbp.unitMinor).toBe(6_300)
    expect(gbp.formatted.final).toBe('£63.00')
  })
  it('United States and the rest of the world: net of GST, no tax added', () => {
    const us = view(kurta, 'USD', 'US')
    // 5299 / 1.12 = 4731.25 → × 0.01429 = 67.61 → $68.
    expect(us.unitMinor).toBe(6_800)
    expect(us.taxRate).toBe(0)
    expect(view(kurta, 'INR', 'FR').unitMinor).toBe(473_100)
    expect(view(kurta, 'INR', 'FR').note).toContain('not included')
  })
  it('an unknown or empty country is priced as India (the store country)', () => {
    expect(view(kurta, 'INR', '').unitMinor).toBe(529_900)
  })
})

describe('gift cards and zero-rated goods: face value everywhere', () => {
  const gift = { type_id: 'virtual', price: 5000, tax_class_id: 5 }
  const untaxed = { type_id: 'virtual', price: 5000, tax_class_id: 0 }
  it.each(['IN', 'GB', 'US', 'AE'])('₹5,000 in %s', (country) => {
    expect(view(gift, 'INR', country).unitMinor).toBe(500_000)
    expect(view(untaxed, 'INR', country).unitMinor).toBe(500_000)
    expect(view(gift, 'INR', country).taxRate).toBe(0)
  })
})

describe('currency rounding: the shown unit price is the charged one', () => {
  it('every surface that formats a catalogue amount gets the same string as the view', () => {
    for (const currency of ['INR', 'USD', 'GBP']) {
      for (const price of [1, 499, 999.5, 5299, 12_345.67, 250_000]) {
        const v = view({ type_id: 'simple', price, tax_class_id: 2 }, currency, 'IN')
        expect(formatUnitPrice(price, currency)).toBe(v.formatted.final)
        expect(formatMinor(v.unitMinor, currency)).toBe(v.formatted.final)
        expect(v.unitMinor % 100).toBe(0)
      }
    }
  })
  it('lines × qty sum to the subtotal exactly: the unit is rounded before multiplying', () => {
    const unit = toChargeMinor(2499, 'USD') // 35.71 → $36
    expect(unit).toBe(3_600)
    const v = view({ type_id: 'simple', price: 2499, tax_class_id: 2 }, 'USD', 'IN', { qty: 3 })
    expect(v.formatted.final).toBe('$108.00')
  })
  it('rounds half up at the step and never leaves float noise', () => {
    expect(toChargeMinor(0.5, 'INR')).toBe(100)
    expect(toChargeMinor(0.49, 'INR')).toBe(0)
    expect(toChargeMinor(5677.5, 'INR')).toBe(567_800)
    expect(toChargeMinor(1.005 * 100, 'INR')).toBe(10_100)
  })
})

describe('composites: one price, same rule', () => {
  it('bundle and grouped prices include GST and are rounded once per unit', () => {
    const bundle = {
      type_id: 'bundle',
      tax_class_id: 2,
      bundle_options: [
        { option_id: 1, product_links: [{ id: 10, qty: 2, is_default: true, price: 1499.5 }] },
        { option_id: 2, product_links: [{ id: 20, qty: 1, is_default: true, price: 1000 }] },
      ],
    }
    expect(view(bundle, 'INR', 'IN').unitMinor).toBe(399_900)
    const grouped = {
      type_id: 'grouped',
      tax_class_id: 2,
      product_links: [
        { link_type: 'associated', product: { price: 1200 } },
        { link_type: 'associated', product: { price: 800, special_price: 700 } },
      ],
    }
    expect(view(grouped, 'INR', 'IN').unitMinor).toBe(190_000)
    // In the UK: 1900 / 1.12 × 1.2 = 2035.71 → ₹2,036.
    expect(view(grouped, 'INR', 'GB').unitMinor).toBe(203_600)
  })
})

describe('GST by slab (the demo rules): the Indian price stands, the tax inside follows the piece', () => {
  const rules = buildTaxRules()
  const shirt = (price: number) => ({ type_id: 'simple', price, tax_class_id: 2, hsn_code: '62052000' })
  const at = (product: object, currency: string, country: string) =>
    priceView(product, { now: NOW, currency, taxRules: rules, country })
  it('₹2,500 and ₹2,625 carry 5 %, ₹2,626 carries 18 %; India pays the catalogue price', () => {
    expect(at(shirt(2500), 'INR', 'IN')).toMatchObject({ unitMinor: 250_000, taxRate: 5 })
    expect(at(shirt(2625), 'INR', 'IN')).toMatchObject({ unitMinor: 262_500, taxRate: 5 })
    expect(at(shirt(2626), 'INR', 'IN')).toMatchObject({ unitMinor: 262_600, taxRate: 18 })
  })
  it('abroad the GST of its slab comes out: a ₹3,000 shirt is ₹3,051 in the UK and $36 in the US', () => {
    // 3000 / 1.18 = 2542.37; × 1.2 = 3050.85 → ₹3,051; × 0.01429 = 36.33 → $36.
    expect(at(shirt(3000), 'INR', 'GB')).toMatchObject({ unitMinor: 305_100, taxRate: 20 })
    expect(at(shirt(3000), 'USD', 'US')).toMatchObject({ unitMinor: 3_600, taxRate: 0 })
    // 2000 / 1.05 = 1904.76 → × 0.01111 × 1.2 = 25.39 → £25.
    expect(at(shirt(2000), 'GBP', 'GB').unitMinor).toBe(2_500)
  })
  it('jewellery carries 3 % GST', () => {
    const jhumka = { type_id: 'simple', price: 3499, tax_class_id: 2, hsn_code: '71171900' }
    expect(at(jhumka, 'INR', 'IN').taxRate).toBe(3)
    // 3499 / 1.03 = 3397.09 → ₹3,397 in the US.
    expect(at(jhumka, 'INR', 'US').unitMinor).toBe(339_700)
  })
  it('a bundle with pieces on both sides of the slab: each piece is taxed at its own rate', () => {
    const bundle = bundleAcrossSlab()
    const india = at(bundle, 'INR', 'IN')
    expect(india.unitMinor).toBe(500_000)
    expect(india.pieces.map((p) => p.rate)).toEqual([5, 18])
    // 2000 / 1.05 + 3000 / 1.18 = 1904.76 + 2542.37 = 4447.13 without GST.
    expect(india.final).toBeCloseTo(4447.13, 2)
    expect(at(bundle, 'INR', 'US').unitMinor).toBe(444_700)
  })
})

describe("vue-storefront-api's own tax rule, honoured for every country it names", () => {
  // Its sample taxrule: 23 % VAT for tax class 2 in PL, DE, IT and US; prices without tax.
  const vsfRule = [
    {
      product_tax_class_ids: [2],
      rates: ['PL', 'DE', 'IT', 'US'].map((c) => ({ rate: 23, tax_country_id: c, code: `VAT23-${c}` })),
    },
  ]
  const product = { type_id: 'simple', price: 39, tax_class_id: 2 }
  it.each(['PL', 'DE', 'IT', 'US'])('39 is 47.97 in %s, as vue-storefront-api computes it', (country) => {
    const v = priceView(product, { now: NOW, currency: 'INR', taxRules: vsfRule, country })
    expect(v.finalInclTax).toBeCloseTo(47.97, 9)
    expect(v.taxRate).toBe(23)
    expect(v.note).toBe('Includes local taxes')
  })
  it('countries it does not name pay 39', () => {
    for (const country of ['IN', 'GB', 'FR'])
      expect(priceView(product, { now: NOW, currency: 'INR', taxRules: vsfRule, country }).finalInclTax).toBe(
        39,
      )
  })
})
