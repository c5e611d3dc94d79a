// Cart totals with India's GST slabs: the tax inside each piece is at the rate its value AFTER its
// share of the discount decides (a coupon can move a piece from 18 % to 5 %), a bundle's pieces
// each at their own rate, the lines and the tax breakdown adding up exactly; and `base_*` amounts
// in the base currency.
import { afterEach, describe, expect, it } from 'vitest'
import { configureCurrencies } from '../../../../../shared/config/store'
import { type CouponRule, computeTotals, type PricedLine } from '../../../../../worker/api/cart/totals'
import {
  bundleAcrossSlab,
  PRICED_AT as NOW,
  pricedLine,
  clothing as shirt,
} from '../../../../helpers/priced-lines'

const line = (product: object, qty: number, country: string, currency = 'INR', itemId = 1) =>
  pricedLine(product, { qty, country, currency, itemId })

const coupon = (percent: number): CouponRule => ({
  code: `OFF${percent}`,
  kind: 'percent',
  amount: percent,
  min_subtotal: 0,
  starts_at: null,
  expires_at: null,
  is_active: 1,
  label: '',
})

const totals = (lines: PricedLine[], country = 'IN', c: CouponRule | null = null, currency = 'INR') =>
  computeTotals({ lines, coupon: c, shipping: { ships: false }, currency, country, now: NOW })

afterEach(() => configureCurrencies('INR'))

describe('GST slabs in the cart', () => {
  it('₹2,500 inclusive carries 5 %, ₹3,000 carries 18 %, each to the paisa', () => {
    const t = totals([line(shirt(2500), 1, 'IN', 'INR', 1), line(shirt(3000), 1, 'IN', 'INR', 2)])
    // 2500 × 5/105 = 119.05; 3000 × 18/118 = 457.63.
    expect(t.items.map((i) => [i.tax_percent, i.extension_attributes.tax_minor])).toEqual([
      [5, 11_905],
      [18, 45_763],
    ])
    expect(t.extension_attributes.tax_minor).toBe(11_905 + 45_763)
    expect(t.grand_total).toBe(5500)
  })

  it('a coupon that takes a ₹2,600 piece to ₹2,400 moves it into the 5 % slab; the price charged stays', () => {
    const before = totals([line(shirt(2600), 1, 'IN')])
    expect(before.items[0]?.tax_percent).toBe(5)
    const dear = totals([line(shirt(3000), 1, 'IN')])
    expect(dear.items[0]?.tax_percent).toBe(18)
    // 20 % off ₹3,000 = ₹2,400 paid: GST inside at 5 % = 114.29, not 18 % (366.10).
    const t = totals([line(shirt(3000), 1, 'IN')], 'IN', coupon(20))
    expect(t.grand_total).toBe(2400)
    expect(t.items[0]).toMatchObject({ tax_percent: 5, tax_amount: 114.29, discount_amount: 600 })
    const segment = t.total_segments.find((s) => s.code === 'tax') as { extension_attributes: unknown }
    expect(segment.extension_attributes).toMatchObject({
      included: true,
      tax_grandtotal_details: [{ amount: 114.29, rates: [{ percent: '5', title: 'GST 5%' }] }],
    })
  })

  it('decides the slab per piece, not per line: 3 × ₹2,600 at 10 % off is ₹2,340 a piece, 5 %', () => {
    const t = totals([line(shirt(2600), 3, 'IN')], 'IN', coupon(10))
    expect(t.grand_total).toBe(7020)
    // 7020 × 5/105 = 334.29.
    expect(t.items[0]).toMatchObject({ tax_percent: 5, tax_amount: 334.29 })
  })

  it('a bundle with pieces on both sides of the slab: each piece at its own rate, breakdown by rate', () => {
    const bundle = bundleAcrossSlab('6206')
    const t = totals([line(bundle, 1, 'IN')])
    // 2000 × 5/105 = 95.24 and 3000 × 18/118 = 457.63.
    expect(t.items[0]?.extension_attributes.tax_minor).toBe(9_524 + 45_763)
    const details = (
      t.total_segments.find((s) => s.code === 'tax') as {
        extension_attributes: { tax_grandtotal_details: { amount: number; rates: { percent: string }[] }[] }
      }
    ).extension_attributes.tax_grandtotal_details
    expect(details.map((d) => [d.rates[0]?.percent, d.amount])).toEqual([
      ['5', 95.24],
      ['18', 457.63],
    ])
    // 20 % off: the ₹3,000 piece is paid ₹2,400 → 5 % as well; one rate left.
    const off = totals([line(bundle, 1, 'IN')], 'IN', coupon(20))
    // 1600 × 5/105 = 76.19 and 2400 × 5/105 = 114.29.
    expect(off.items[0]).toMatchObject({ tax_percent: 5, tax_amount: 190.48 })
  })

  it('in the UK the VAT inside is 20 % whatever the price, and the wording names it', () => {
    const t = totals([line(shirt(3000), 1, 'GB')], 'GB')
    expect(t.items[0]?.tax_percent).toBe(20)
    expect(t.extension_attributes).toMatchObject({
      tax_label: 'UK VAT',
      price_note: 'Includes UK VAT',
      country_sentence: 'Shipping to the United Kingdom: Indian GST is removed and UK VAT is included.',
    })
    const france = totals([line(shirt(3000), 1, 'FR')], 'FR')
    expect(france.extension_attributes.tax_minor).toBe(0)
    expect(france.extension_attributes.country_sentence).toBe(
      'Shipping to France: Indian GST is removed; import duties and taxes of your country are not included and may be collected on delivery.',
    )
  })
})

describe('base amounts', () => {
  it('are the amounts in the base currency, named by it, not copies in the charged one', () => {
    const t = totals([line(shirt(3000), 2, 'GB', 'GBP')], 'GB', null, 'GBP')
    expect(t.quote_currency_code).toBe('GBP')
    expect(t.base_currency_code).toBe('INR')
    // £34 a piece (3000 / 1.18 × 1.2 × 0.01111 = 33.89 → £34), £68 in all; ₹6,120.61 at 0.01111.
    expect(t.grand_total).toBe(68)
    expect(t.base_grand_total).toBeCloseTo(68 / 0.01111, 2)
  })
  it('a US-dollar shop keeps its cents: $39.99 is charged $39.99, and rupees are the converted amount', () => {
    configureCurrencies('USD', { INR: 83 })
    const tee = { type_id: 'simple', price: 39.99, tax_class_id: 0 }
    const usd = totals([line(tee, 1, 'US', 'USD')], 'US', null, 'USD')
    expect(usd.grand_total).toBe(39.99)
    expect(usd.base_currency_code).toBe('USD')
    const inr = totals([line(tee, 1, 'IN', 'INR')], 'IN', null, 'INR')
    // 39.99 × 83 = 3319.17 → ₹3,319 (rupees are whole); its base is $39.99.
    expect(inr.grand_total).toBe(3319)
    expect(inr.base_grand_total).toBe(39.99)
  })
})
