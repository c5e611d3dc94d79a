// A checkout the shopper has filled in (pure: no worker bindings), for the checkout island tests.
import { type CheckoutState, emptyCheckoutState } from '../../client/islands/checkout/checkout-state'

/** Every step filled for a delivery in Bengaluru, paid cash on delivery with the terms accepted. */
export function filledCheckout(): CheckoutState {
  const s = emptyCheckoutState('IN', 1000)
  s.personalDetails = {
    ...s.personalDetails,
    firstName: 'Asha',
    lastName: 'Rao',
    emailAddress: 'asha@example.com',
  }
  s.shippingDetails = {
    ...s.shippingDetails,
    firstName: 'Asha',
    lastName: 'Rao',
    streetAddress: '12 MG Road',
    apartmentNumber: 'Flat 4',
    city: 'Bengaluru',
    state: 'Karnataka',
    zipCode: '560001',
    phoneNumber: '+91 98450 12345',
  }
  s.paymentFinalStep = { terms: true, paymentMethod: 'cashondelivery', paymentMethodAdditional: {} }
  return s
}
