import { describe, expect, it } from 'vitest'
import { documentMoneyRows, moneyRows } from '../../../../../shared/components/order/money-rows'

describe('an order as money rows', () => {
  it('items − discount + shipping − store credit = what is left to pay, whatever the parts', () => {
    for (const [items, discount, shipping, credit] of [
      [100_000, 0, 0, 0],
      [843_820, 0, 0, 200_000],
      [50_000, 5_000, 9_900, 54_900],
      [1, 0, 0, 1],
    ] as const) {
      const rows = moneyRows({
        itemsMinor: items,
        discountMinor: discount,
        shippingMinor: shipping,
        creditMinor: credit,
      })
      const last = rows[rows.length - 1]
      expect(rows.slice(0, -1).reduce((s, r) => s + r.minor, 0)).toBe(last?.minor)
      expect(last?.minor).toBe(items - discount + shipping - credit)
      expect(rows.some((r) => r.code === 'store_credit')).toBe(credit > 0)
      expect(last?.title).toBe(credit > 0 ? 'To pay' : 'Total')
    }
  })

  it('names the coupon, and leaves out a discount or a credit row that is nothing', () => {
    const rows = moneyRows({
      itemsMinor: 1000,
      discountMinor: 100,
      couponCode: 'FEST10',
      shippingMinor: 0,
      creditMinor: 0,
    })
    expect(rows.map((r) => [r.code, r.title, r.minor])).toEqual([
      ['items', 'Items', 1000],
      ['discount', 'Discount (FEST10)', -100],
      ['shipping', 'Shipping', 0],
      ['to_pay', 'Total', 900],
    ])
  })

  it('reads a stored order document: its total is what was charged', () => {
    const rows = documentMoneyRows({
      subtotal_incl_tax: 10_438.2,
      discount_amount: 0,
      shipping_incl_tax: 0,
      customer_balance_amount: 2000,
      grand_total: 8438.2,
    })
    expect(rows.map((r) => r.minor)).toEqual([1_043_820, 0, -200_000, 843_820])
  })
})
