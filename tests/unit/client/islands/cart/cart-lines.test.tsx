// A cart line's amount comes from the totals the summary shows, in the page's currency: never from
// an earlier totals read kept on the line, which may be in the currency the shopper just left (a
// bag switched to pounds once showed a rupee line total, ₹3,499, as £3,499.00).
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CartLines, serverLineTotals } from '../../../../../client/islands/cart/cart-lines'
import { type CartLine, type CartTotals, cartTotals } from '../../../../../client/state/cart'

/** A line added in India at ₹3,499, still carrying the rupee totals of its last read. */
const line: CartLine = {
  sku: 'ACC2301',
  name: 'Scarf',
  qty: 1,
  priceInclTax: 3499,
  server_item_id: 7,
  totals: { item_id: 7, qty: 1, row_total_incl_tax: 3499 },
}

/** The same cart priced for the United Kingdom, in pounds. */
const pounds: CartTotals = {
  quote_currency_code: 'GBP',
  items: [{ item_id: 7, qty: 1, row_total_incl_tax: 45 }],
  total_segments: [{ code: 'grand_total', title: 'Grand Total', value: 45 }],
}

describe('a cart line in pounds', () => {
  beforeEach(() => {
    vi.stubGlobal('document', { documentElement: { dataset: { currency: 'GBP' } } })
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    cartTotals.value = null
  })

  it("shows the pound totals' row for the line, not the rupee amount the line kept", () => {
    cartTotals.value = pounds
    const html = renderToString(<CartLines lines={[line]} />)
    expect(html).toContain('£45.00')
    expect(html).not.toContain('3,499')
  })

  it("shows the line's own price, converted, while the totals are still in rupees or missing", () => {
    for (const totals of [{ ...pounds, quote_currency_code: 'INR' }, null]) {
      cartTotals.value = totals
      const html = renderToString(<CartLines lines={[line]} />)
      expect(html).not.toContain('3,499')
      expect(html).toMatch(/£\d+\.\d{2}/)
    }
  })

  it('takes the row of its own server item, and none for a line the totals do not hold', () => {
    const two = {
      ...pounds,
      items: [{ item_id: 8, qty: 1, row_total_incl_tax: 60 }, ...(pounds.items ?? [])],
    }
    expect(serverLineTotals(two, line)?.row_total_incl_tax).toBe(45)
    expect(serverLineTotals(two, { server_item_id: 9 })).toBeNull()
    expect(serverLineTotals(two, { server_item_id: null })).toBeNull()
    expect(serverLineTotals(two, { server_item_id: '8' })?.row_total_incl_tax).toBe(60)
  })
})
