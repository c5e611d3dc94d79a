/**
 * The checkout's state: personal details, shipping and billing addresses, the payment step, and
 * the 30-minute activity window; how it is created, restored from storage, persisted (never the
 * password) and moved on by a payment choice or a placed order. Pure: no DOM, time passed in.
 */
import {
  CASH_ON_DELIVERY_CODE,
  DEFAULT_SHIPPING_METHOD,
  PAYMENT_METHODS,
  type PaymentMethodConfig,
} from '@shared/config/checkout'
import { codFeeMinor } from '@shared/config/shipping'
import { CHECKOUT_ACTIVITY_WINDOW_MS } from '@shared/config/transactions'
import { formatMinor } from '@shared/domain/currency'
import type { AddressDetails } from '../forms/field-rules'

export interface PersonalDetails {
  firstName: string
  lastName: string
  emailAddress: string
  password: string
  createAccount: boolean
  /** A guest's answer to "E-mail me a reminder if I leave my bag" (unset: never ticked). */
  cartReminder?: boolean
}

export interface ShippingDetails extends AddressDetails {
  shippingMethod: string
}

interface PaymentDetails extends AddressDetails {
  company: string
  taxId: string
}

interface PaymentFinalStep {
  terms: boolean
  paymentMethod: string
  paymentMethodAdditional: Record<string, string>
}

export interface CheckoutState {
  personalDetails: PersonalDetails
  shippingDetails: ShippingDetails
  paymentDetails: PaymentDetails
  /** Billing address = shipping address (the default). */
  sameAsShipping: boolean
  paymentFinalStep: PaymentFinalStep
  isThankYouPage: boolean
  /** Last modification (ms); the user counts as in checkout for 30 min after it. */
  modifiedAt: number
  codMessage: string
  isStoreCreditApplied: boolean
  isCashOnDelivery: boolean
  /** A signed-in shopper's choice to save the shipping address to their book (unset: not chosen yet). */
  saveAddress?: boolean
  /** The same choice for a billing address other than the shipping one. */
  saveBillingAddress?: boolean
  /** The shopper ticked "order updates on WhatsApp" (unticked unless they do). */
  whatsappOptIn?: boolean
}

/** The message shown with cash on delivery (`codMessage`): how it works and the fee the rules add. */
export const COD_MESSAGE = `Pay in cash when your order is delivered. A cash-on-delivery fee of ${formatMinor(
  codFeeMinor('INR'),
  'INR',
)} is added to your order.`

const EMPTY_ADDRESS = (country: string): AddressDetails => ({
  firstName: '',
  lastName: '',
  country,
  streetAddress: '',
  apartmentNumber: '',
  city: '',
  state: '',
  region_id: null,
  zipCode: '',
  phoneNumber: '',
})

/** A blank checkout for the store's default country. */
export function emptyCheckoutState(country = 'IN', now = 0): CheckoutState {
  return {
    personalDetails: { firstName: '', lastName: '', emailAddress: '', password: '', createAccount: false },
    shippingDetails: { ...EMPTY_ADDRESS(country), shippingMethod: DEFAULT_SHIPPING_METHOD.method_code },
    paymentDetails: { ...EMPTY_ADDRESS(country), company: '', taxId: '' },
    sameAsShipping: true,
    paymentFinalStep: { terms: false, paymentMethod: '', paymentMethodAdditional: {} },
    isThankYouPage: false,
    modifiedAt: now,
    codMessage: '',
    isStoreCreditApplied: false,
    isCashOnDelivery: false,
  }
}

/** Restores a persisted checkout, filling fields missing from an older version with defaults. */
export function restoreCheckoutState(saved: unknown, country = 'IN', now = 0): CheckoutState {
  const base = emptyCheckoutState(country, now)
  if (!saved || typeof saved !== 'object') return base
  const s = saved as Partial<CheckoutState>
  return {
    ...base,
    ...s,
    personalDetails: { ...base.personalDetails, ...(s.personalDetails ?? {}) },
    shippingDetails: { ...base.shippingDetails, ...(s.shippingDetails ?? {}) },
    paymentDetails: { ...base.paymentDetails, ...(s.paymentDetails ?? {}) },
    paymentFinalStep: { ...base.paymentFinalStep, ...(s.paymentFinalStep ?? {}) },
  }
}

/**
 * The checkout to show when the page opens: the restored one, with the terms to accept again once
 * the 30-minute window has passed (addresses are kept), and never on its thank-you state.
 */
export function reopenedCheckout(saved: unknown, country: string, now: number): CheckoutState {
  const restored = restoreCheckoutState(saved, country, now)
  const fresh = isInCheckout(restored, now)
    ? restored
    : { ...restored, paymentFinalStep: { ...restored.paymentFinalStep, terms: false } }
  return { ...fresh, isThankYouPage: false }
}

/** What is persisted: never the password (it lives only in memory until the order is placed). */
export function persistableCheckout(state: CheckoutState): CheckoutState {
  return { ...state, personalDetails: { ...state.personalDetails, password: '' } }
}

/** The shopper counts as in checkout for 30 minutes after the last change to the form. */
export function isInCheckout(state: Pick<CheckoutState, 'modifiedAt'>, now: number): boolean {
  return state.modifiedAt > 0 && now - state.modifiedAt < CHECKOUT_ACTIVITY_WINDOW_MS
}

/** A signed-in shopper: names prefilled (unless typed), the account's e-mail, no account to create. */
export function withSignedInUser(
  state: CheckoutState,
  user: { firstname: string; lastname: string; email: string },
): CheckoutState {
  return {
    ...state,
    personalDetails: {
      ...state.personalDetails,
      firstName: state.personalDetails.firstName || user.firstname,
      lastName: state.personalDetails.lastName || user.lastname,
      emailAddress: user.email,
      createAccount: false,
      password: '',
    },
  }
}

/** Selects a payment method and derives the cash-on-delivery flags (`isCashOnDelivery`, `codMessage`). */
export function selectPaymentMethod(state: CheckoutState, code: string, now: number): CheckoutState {
  const cod = code === CASH_ON_DELIVERY_CODE
  return {
    ...state,
    paymentFinalStep: { ...state.paymentFinalStep, paymentMethod: code },
    isCashOnDelivery: cod,
    codMessage: cod ? COD_MESSAGE : '',
    modifiedAt: now,
  }
}

/**
 * The payment method to select once the offered ones change, or null to keep the selected one
 * (still offered). No method changes without a sentence: when the shopper's method is no longer
 * offered, the note says why (the reason listed with the methods) and which is selected instead.
 */
export function reselectPaymentMethod(
  selected: string,
  offered: readonly PaymentMethodConfig[],
  unavailable: readonly { code: string; reason: string }[],
): { code: string; note: string | null } | null {
  if (offered.some((m) => m.code === selected)) return null
  const next = offered.find((m) => m.default) ?? offered[0]
  if (!next) return null
  if (!selected) return { code: next.code, note: null }
  const title = PAYMENT_METHODS.find((m) => m.code === selected)?.title ?? selected
  const why =
    unavailable.find((m) => m.code === selected)?.reason || `${title} is not offered for this order.`
  return { code: next.code, note: `${why} ${next.title} is selected instead.` }
}

/**
 * After a successful order: the password and the create-account choice are dropped (the account
 * exists now, or was not wanted), the terms must be accepted again, and the checkout shows its
 * thank-you state.
 */
export function afterOrderPlaced(state: CheckoutState, now: number): CheckoutState {
  return {
    ...state,
    personalDetails: { ...state.personalDetails, password: '', createAccount: false },
    paymentFinalStep: { ...state.paymentFinalStep, terms: false },
    isThankYouPage: true,
    modifiedAt: now,
  }
}
