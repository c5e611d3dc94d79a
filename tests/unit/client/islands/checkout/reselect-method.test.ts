// A payment method the shopper chose never changes without a sentence: when cash on delivery
// stops being offered (here: the order is above the cash a courier carries), the note says why and
// which method is selected instead.
import { availablePaymentMethods, unavailablePaymentMethods } from '@shared/config/checkout'
import { describe, expect, it } from 'vitest'
import { reselectPaymentMethod } from '../../../../../client/islands/checkout/checkout-state'

const CAP = 'Cash on delivery is available for orders up to ₹2,00,000. Please choose another way to pay.'
const ctx = (codRefusal: string | null) => ({
  currency: 'INR',
  typeIds: ['simple'],
  country: 'IN',
  postcode: '560001',
  codServiceable: true,
  codRefusal,
})

describe('the payment method when the offered ones change', () => {
  it('cash on delivery refused by the cap: the card is selected, and the sentence says why', () => {
    const next = reselectPaymentMethod(
      'cashondelivery',
      availablePaymentMethods(ctx(CAP)),
      unavailablePaymentMethods(ctx(CAP)),
    )
    expect(next).toEqual({
      code: 'card',
      note: `${CAP} UPI, cards, netbanking or wallets is selected instead.`,
    })
  })

  it('a method still offered is kept; none chosen yet gets the default without a note', () => {
    expect(reselectPaymentMethod('cashondelivery', availablePaymentMethods(ctx(null)), [])).toBeNull()
    expect(reselectPaymentMethod('', availablePaymentMethods(ctx(null)), [])).toEqual({
      code: 'cashondelivery',
      note: null,
    })
  })

  it('a method gone without a listed reason still says so', () => {
    const next = reselectPaymentMethod('paypal_standard', availablePaymentMethods(ctx(null)), [])
    expect(next?.note).toBe('PayPal is not offered for this order. Cash On Delivery is selected instead.')
  })
})
