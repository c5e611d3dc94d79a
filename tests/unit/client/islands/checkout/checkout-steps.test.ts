// The checkout's steps on their own: validation per section, the first section to fix before
// placing, the billing errors of the payment section, and the state the page opens with.
import { describe, expect, it } from 'vitest'
import {
  emptyCheckoutState,
  reopenedCheckout,
  withSignedInUser,
} from '../../../../../client/islands/checkout/checkout-state'
import {
  errorsUnder,
  firstInvalidStep,
  MSG_ACCEPT_TERMS,
  validateStep,
} from '../../../../../client/islands/checkout/checkout-validation'
import { shipToLine } from '../../../../../client/islands/checkout/steps/review-step'
import { MSG_INVALID_ZIP } from '../../../../../client/islands/forms/field-rules'
import { availablePaymentMethods } from '../../../../../shared/config/checkout'
import { CHECKOUT_ACTIVITY_WINDOW_MS } from '../../../../../shared/config/transactions'
import { MSG } from '../../../../../shared/i18n/messages'
import { filledCheckout } from '../../../../helpers/checkout-state'

const OFFERED = availablePaymentMethods({ currency: 'INR', typeIds: ['simple'] })

describe('validation per section', () => {
  it('checks only the section asked for, and nothing on the review', () => {
    const s = filledCheckout()
    s.shippingDetails.zipCode = '12'
    s.paymentFinalStep.terms = false
    expect(validateStep('personal', s, OFFERED)).toEqual({})
    expect(validateStep('shipping', s, OFFERED)).toEqual({ zipCode: MSG_INVALID_ZIP })
    expect(validateStep('payment', s, OFFERED)).toEqual({ terms: MSG_ACCEPT_TERMS })
    expect(validateStep('review', emptyCheckoutState(), OFFERED)).toEqual({})
  })

  it('sends the shopper back to the first section with errors, in order', () => {
    const s = filledCheckout()
    s.paymentFinalStep.terms = false
    expect(firstInvalidStep(s, OFFERED)?.step).toBe('payment')
    s.personalDetails.firstName = ' '
    expect(firstInvalidStep(s, OFFERED)).toEqual({
      step: 'personal',
      errors: { firstName: MSG.fieldRequired },
    })
    expect(firstInvalidStep(filledCheckout(), OFFERED)).toBeNull()
  })

  it('hands the billing form only its own errors, without the prefix', () => {
    const s = filledCheckout()
    s.sameAsShipping = false
    const errs = validateStep('payment', s, OFFERED)
    expect(errs['billing.city']).toBe(MSG.fieldRequired)
    const billing = errorsUnder(errs, 'billing.')
    expect(billing.city).toBe(MSG.fieldRequired)
    expect(Object.keys(billing).every((k) => !k.includes('.'))).toBe(true)
    expect(billing).not.toHaveProperty('terms')
  })
})

describe('the state the checkout opens with', () => {
  it('keeps the accepted terms inside the activity window and asks again after it; addresses are kept', () => {
    const saved = { ...filledCheckout(), modifiedAt: 1_000_000, isThankYouPage: true }
    const soon = reopenedCheckout(saved, 'IN', 1_000_000 + CHECKOUT_ACTIVITY_WINDOW_MS - 1)
    expect(soon.paymentFinalStep.terms).toBe(true)
    expect(soon.isThankYouPage).toBe(false)
    const later = reopenedCheckout(saved, 'IN', 1_000_000 + CHECKOUT_ACTIVITY_WINDOW_MS)
    expect(later.paymentFinalStep.terms).toBe(false)
    expect(later.shippingDetails.city).toBe('Bengaluru')
    expect(later.isThankYouPage).toBe(false)
  })

  it('opens blank for the store country when nothing (or garbage) was saved', () => {
    expect(reopenedCheckout(null, 'GB', 5).shippingDetails.country).toBe('GB')
    expect(reopenedCheckout('x', 'IN', 5).personalDetails.emailAddress).toBe('')
  })

  it("prefills a signed-in shopper's names unless typed, always uses the account e-mail, never creates an account", () => {
    const s = emptyCheckoutState()
    s.personalDetails = {
      ...s.personalDetails,
      firstName: 'Typed',
      createAccount: true,
      password: 'secret12',
    }
    const out = withSignedInUser(s, { firstname: 'Asha', lastname: 'Rao', email: 'asha@example.com' })
    expect(out.personalDetails).toEqual({
      firstName: 'Typed',
      lastName: 'Rao',
      emailAddress: 'asha@example.com',
      password: '',
      createAccount: false,
    })
  })

  it('shows the shipping address on one line without empty parts', () => {
    const address = { ...filledCheckout().shippingDetails, apartmentNumber: '', state: '' }
    expect(shipToLine(address)).toBe('12 MG Road, Bengaluru, 560001, IN')
  })
})
