// The cart and checkout summaries name what re-priced the bag: the currency, the pricing country,
// or both; nothing when the bag is priced as the shopper last saw it.
import { describe, expect, it } from 'vitest'
import { bagPricingNow, repriceSentence } from '../../../../../client/islands/cart/reprice-note'

describe('the re-price sentence', () => {
  it('names a currency switch with both currencies', () => {
    expect(repriceSentence({ currency: 'INR', country: 'IN' }, { currency: 'GBP', country: 'IN' })).toBe(
      'Your bag was re-priced: prices are now in GBP (£), not INR (₹).',
    )
  })

  it('names a new pricing country (a shipping address abroad) with both countries', () => {
    expect(repriceSentence({ currency: 'USD', country: 'US' }, { currency: 'USD', country: 'GB' })).toBe(
      'Your bag was re-priced: prices are now for the United Kingdom, not the United States.',
    )
  })

  it('names both when both changed', () => {
    expect(repriceSentence({ currency: 'INR', country: 'IN' }, { currency: 'GBP', country: 'GB' })).toBe(
      'Your bag was re-priced: prices are now in GBP (£), not INR (₹), and for the United Kingdom, not India.',
    )
  })

  it('says nothing when nothing changed or the bag was never seen', () => {
    expect(repriceSentence({ currency: 'INR', country: 'IN' }, { currency: 'INR', country: 'IN' })).toBeNull()
    expect(repriceSentence(null, { currency: 'GBP', country: 'GB' })).toBeNull()
  })

  it('names an unknown code as it is', () => {
    expect(repriceSentence({ currency: 'INR', country: 'IN' }, { currency: 'INR', country: 'JP' })).toBe(
      'Your bag was re-priced: prices are now for JP, not India.',
    )
  })
})

describe('what the bag is priced for now', () => {
  it("is the country the server priced the cart for, when its totals are in the page's currency", () => {
    const totals = { total_segments: [], quote_currency_code: 'INR', extension_attributes: { country: 'GB' } }
    expect(bagPricingNow(totals)).toEqual({ currency: 'INR', country: 'GB' })
  })

  it("is the page's country while the totals are in another currency or name none", () => {
    expect(
      bagPricingNow({
        total_segments: [],
        quote_currency_code: 'USD',
        extension_attributes: { country: 'US' },
      }),
    ).toEqual({
      currency: 'INR',
      country: 'IN',
    })
    expect(bagPricingNow({ total_segments: [], extension_attributes: { country: 'gb<' } }).country).toBe('IN')
    expect(bagPricingNow(null)).toEqual({ currency: 'INR', country: 'IN' })
  })
})
