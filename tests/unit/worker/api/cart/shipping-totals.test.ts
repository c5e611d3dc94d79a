// Shipping by the operator's rules in the cart totals: free above the threshold judged on the
// subtotal the shopper sees (in the currency shown), else the zone's rate — by PIN prefix at home,
// by country abroad — converted into the charge currency; the cash-on-delivery fee as its own line;
// the GST inside both at the highest rate of the goods at home; and the totals adding up exactly.
import { afterEach, describe, expect, it } from 'vitest'
import { shippingQuote } from '../../../../../shared/config/shipping'
import { configureCurrencies } from '../../../../../shared/config/store'
import { type CouponRule, computeTotals, type PricedLine } from '../../../../../worker/api/cart/totals'
import { PRICED_AT as NOW, clothing as piece, pricedLine } from '../../../../helpers/priced-lines'

const line = (product: object, country: string, currency: string, qty = 1) =>
  pricedLine(product, { qty, country, currency })

const totals = (
  lines: PricedLine[],
  country: string,
  currency: string,
  extra: { postcode?: string; paymentMethod?: string; coupon?: CouponRule; ships?: boolean } = {},
) =>
  computeTotals({
    lines,
    coupon: extra.coupon ?? null,
    shipping: { ships: extra.ships ?? true, postcode: extra.postcode ?? null },
    paymentMethod: extra.paymentMethod ?? null,
    currency,
    country,
    now: NOW,
  })

/** The segments by code, in minor units. */
const segments = (t: ReturnType<typeof totals>) =>
  Object.fromEntries(t.total_segments.map((s) => [s.code, Math.round(s.value * 100)]))

afterEach(() => configureCurrencies('INR'))

describe('shipping rates from the rules', () => {
  it('at home: ₹149 at ₹2,999, free at ₹3,000 (above the threshold), the segment saying which', () => {
    const below = totals([line(piece(2999), 'IN', 'INR')], 'IN', 'INR', { postcode: '560001' })
    expect(below.extension_attributes.shipping_minor).toBe(14_900)
    expect(below.extension_attributes.grand_total_minor).toBe(299_900 + 14_900)
    expect(below.total_segments.find((s) => s.code === 'shipping')?.title).toBe(
      'Shipping (Courier within India)',
    )
    const above = totals([line(piece(3000), 'IN', 'INR')], 'IN', 'INR', { postcode: '560001' })
    expect(above.extension_attributes.shipping_minor).toBe(0)
    expect(above.extension_attributes.grand_total_minor).toBe(300_000)
    expect(above.total_segments.find((s) => s.code === 'shipping')?.title).toBe('Shipping (Free shipping)')
  })

  it('the zone follows the PIN: the north-east, J&K and the islands pay ₹249', () => {
    for (const pin of ['781001', '190001', '744101', '682555']) {
      expect(
        shippingQuote({ ships: true, country: 'IN', postcode: pin, subtotalMinor: 100_000, currency: 'INR' }),
      ).toMatchObject({ amountMinor: 24_900, free: false })
    }
    expect(
      shippingQuote({
        ships: true,
        country: 'IN',
        postcode: '682001',
        subtotalMinor: 100_000,
        currency: 'INR',
      }).amountMinor,
    ).toBe(14_900)
  })

  it('the threshold is judged on the subtotal shown, before the coupon', () => {
    const off: CouponRule = {
      code: 'OFF10',
      kind: 'percent',
      amount: 10,
      min_subtotal: 0,
      starts_at: null,
      expires_at: null,
      is_active: 1,
      label: '',
    }
    const t = totals([line(piece(3500), 'IN', 'INR')], 'IN', 'INR', { postcode: '560001', coupon: off })
    expect(t.extension_attributes).toMatchObject({
      subtotal_minor: 350_000,
      discount_minor: 35_000,
      shipping_minor: 0,
    })
  })

  it('abroad: the country zone, converted into the charge currency at its step; free above the threshold', () => {
    // ₹1,999 × 0.01111 = £22.21 → £22; ₹2,499 × 0.01429 = $35.71 → $36; ₹2,999 × 0.01429 = $42.86 → $43.
    const gb = totals([line(piece(5000), 'GB', 'GBP')], 'GB', 'GBP')
    expect(gb.extension_attributes.shipping_minor).toBe(2200)
    const us = totals([line(piece(5000), 'US', 'USD')], 'US', 'USD')
    expect(us.extension_attributes.shipping_minor).toBe(3600)
    const fr = totals([line(piece(5000), 'FR', 'USD')], 'FR', 'USD')
    expect(fr.extension_attributes.shipping_minor).toBe(4300)
    // The threshold ₹24,999 is $357.24: a bag of $358 or more ships free.
    const big = totals([line(piece(30000), 'US', 'USD')], 'US', 'USD')
    expect(big.extension_attributes.shipping_minor).toBe(0)
    for (const t of [gb, us, fr, big]) {
      const e = t.extension_attributes
      expect(e.subtotal_minor - e.discount_minor + e.shipping_minor + e.cod_fee_minor).toBe(
        e.grand_total_minor,
      )
      expect(Math.round(t.grand_total * 100)).toBe(e.grand_total_minor)
    }
  })

  it('a bag that ships nothing pays no shipping', () => {
    const t = totals([line(piece(500), 'IN', 'INR')], 'IN', 'INR', { ships: false })
    expect(t.extension_attributes.shipping_minor).toBe(0)
  })
})

describe('the cash-on-delivery fee and the GST in delivery charges', () => {
  it('adds ₹49 as its own line, in shipping and handling, and the grand total', () => {
    const t = totals([line(piece(1000), 'IN', 'INR')], 'IN', 'INR', {
      postcode: '560001',
      paymentMethod: 'cashondelivery',
    })
    expect(segments(t)).toMatchObject({
      subtotal: 100_000,
      shipping: 14_900,
      cod_fee: 4900,
      grand_total: 119_800,
    })
    expect(t.extension_attributes.cod_fee_minor).toBe(4900)
    expect(Math.round(t.shipping_amount * 100)).toBe(14_900 + 4900)
    const card = totals([line(piece(1000), 'IN', 'INR')], 'IN', 'INR', {
      postcode: '560001',
      paymentMethod: 'card',
    })
    expect(segments(card).cod_fee).toBeUndefined()
    expect(card.extension_attributes.grand_total_minor).toBe(114_900)
  })

  it('at home the tax segment includes the GST in shipping and the fee at the highest rate of the goods', () => {
    // A ₹1,000 kurta (5 %) and a ₹1,000 bag (18 %): shipping ₹149 + fee ₹49 = ₹198 carries 18 %.
    const kurta = line(piece(1000), 'IN', 'INR')
    const bag = { ...line(piece(1000, '42022210'), 'IN', 'INR'), item_id: 2, sku: 'SKU-2' }
    const t = totals([kurta, bag], 'IN', 'INR', {
      postcode: '560001',
      paymentMethod: 'cashondelivery',
    })
    const goods = t.items.reduce((s, i) => s + i.extension_attributes.tax_minor, 0)
    // 19,800 × 18 / 118 = 3,020.34 → 3,020.
    expect(t.extension_attributes.tax_minor).toBe(goods + 3020)
    const rates = t.total_segments.find((s) => s.code === 'tax')?.extension_attributes as {
      tax_grandtotal_details: { amount: number; rates: { percent: string }[] }[]
    }
    const sum = rates.tax_grandtotal_details.reduce((s, d) => s + Math.round(d.amount * 100), 0)
    expect(sum).toBe(t.extension_attributes.tax_minor)
  })

  it('abroad the delivery charges add no tax to the segment', () => {
    const t = totals([line(piece(1000), 'GB', 'GBP')], 'GB', 'GBP')
    const goods = t.items.reduce((s, i) => s + i.extension_attributes.tax_minor, 0)
    expect(t.extension_attributes.shipping_minor).toBeGreaterThan(0)
    expect(t.extension_attributes.tax_minor).toBe(goods)
  })
})
