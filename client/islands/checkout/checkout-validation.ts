/**
 * Validation of the checkout, one section at a time (personal details, shipping, payment) and as a
 * whole. Errors are keyed by field name; billing fields carry a 'billing.' prefix within the
 * payment section. Pure.
 */
import type { PaymentMethodConfig } from '@shared/config/checkout'
import {
  checkEmail,
  checkNewPassword,
  type FieldErrors,
  required,
  validateAddress,
} from '../forms/field-rules'
import type { CheckoutState, PersonalDetails } from './checkout-state'

export const MSG_ACCEPT_TERMS = 'You must accept the terms and conditions.'
export const MSG_CHOOSE_PAYMENT = 'Please choose a payment method.'

/** The checkout's sections, in order; 'review' has nothing to validate. */
export type CheckoutStep = 'personal' | 'shipping' | 'payment' | 'review'

/** Errors of the personal details step, keyed by field name (empty when valid). */
export function validatePersonalDetails(p: PersonalDetails): FieldErrors {
  const errors: FieldErrors = {}
  required(errors, 'firstName', p.firstName)
  required(errors, 'lastName', p.lastName)
  checkEmail(errors, 'emailAddress', p.emailAddress)
  if (p.createAccount) checkNewPassword(errors, 'password', p.password)
  return errors
}

/** Errors of the payment step: a method among the offered ones, the billing address, the terms. */
export function validatePayment(state: CheckoutState, offered: readonly PaymentMethodConfig[]): FieldErrors {
  const errors: FieldErrors = {}
  if (!offered.some((m) => m.code === state.paymentFinalStep.paymentMethod))
    errors.paymentMethod = MSG_CHOOSE_PAYMENT
  if (!state.sameAsShipping) {
    for (const [k, v] of Object.entries(validateAddress(state.paymentDetails))) errors[`billing.${k}`] = v
  }
  if (!state.paymentFinalStep.terms) errors.terms = MSG_ACCEPT_TERMS
  return errors
}

/** Errors of one section of the checkout (none for the review). */
export function validateStep(
  step: CheckoutStep,
  state: CheckoutState,
  offered: readonly PaymentMethodConfig[],
  virtualOnly = false,
): FieldErrors {
  if (step === 'personal') return validatePersonalDetails(state.personalDetails)
  // A cart of only virtual goods (gift cards) ships nothing: no shipping address is asked.
  if (step === 'shipping') return virtualOnly ? {} : validateAddress(state.shippingDetails)
  if (step === 'payment') return validatePayment(state, offered)
  return {}
}

/** The first section with errors, with its errors; null when the whole checkout is valid. */
export function firstInvalidStep(
  state: CheckoutState,
  offered: readonly PaymentMethodConfig[],
  virtualOnly = false,
): { step: CheckoutStep; errors: FieldErrors } | null {
  for (const step of ['personal', 'shipping', 'payment'] as const) {
    const errors = validateStep(step, state, offered, virtualOnly)
    if (Object.keys(errors).length) return { step, errors }
  }
  return null
}

/** All errors of the whole checkout, prefixed by step ('personal.', 'shipping.', 'payment.'). */
export function validateCheckout(state: CheckoutState, offered: readonly PaymentMethodConfig[]): FieldErrors {
  const out: FieldErrors = {}
  for (const step of ['personal', 'shipping', 'payment'] as const) {
    for (const [k, v] of Object.entries(validateStep(step, state, offered))) out[`${step}.${k}`] = v
  }
  return out
}

/** The errors under a prefix, with the prefix removed ('billing.zipCode' → 'zipCode'). */
export function errorsUnder(errors: FieldErrors, prefix: string): FieldErrors {
  const out: FieldErrors = {}
  for (const [k, v] of Object.entries(errors)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v
  return out
}
