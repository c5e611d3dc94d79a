/**
 * Checkout state (transactions spec §3 "Checkout state"), its form validation, and the mapping of
 * the form to the API's address shapes: the order body's `addressInformation` (vsf-api-contract
 * §1.3) and `/api/cart/shipping-information`'s `addressInformation` with `shipping_address` and
 * `billing_address` (transactions spec §7). Pure: no DOM, time passed in.
 */
import {
  availablePaymentMethods,
  CASH_ON_DELIVERY_CODE,
  DEFAULT_SHIPPING_METHOD,
  type PaymentMethodConfig,
} from '../../../shared/config/checkout'
import { CHECKOUT_ACTIVITY_WINDOW_MS } from '../../../shared/config/transactions'
import { MSG } from '../../../shared/i18n/messages'

export interface PersonalDetails {
  firstName: string
  lastName: string
  emailAddress: string
  password: string
  createAccount: boolean
}

export interface AddressDetails {
  firstName: string
  lastName: string
  country: string
  streetAddress: string
  apartmentNumber: string
  city: string
  state: string
  region_id: number | null
  zipCode: string
  phoneNumber: string
}

export interface ShippingDetails extends AddressDetails {
  shippingMethod: string
}

export interface PaymentDetails extends AddressDetails {
  company: string
  taxId: string
}

export interface PaymentFinalStep {
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
}

/** Countries offered in the address forms: India first (the default), then US, GB and others. */
export const COUNTRIES: readonly { code: string; name: string }[] = [
  { code: 'IN', name: 'India' },
  { code: 'US', name: 'United States' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'AE', name: 'United Arab Emirates' },
  { code: 'AU', name: 'Australia' },
  { code: 'CA', name: 'Canada' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
  { code: 'SG', name: 'Singapore' },
]

/** The message shown with cash on delivery (`codMessage`). */
export const COD_MESSAGE = 'Pay in cash when your order is delivered.'

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

/** What is persisted: never the password (it lives only in memory until the order is placed). */
export function persistableCheckout(state: CheckoutState): CheckoutState {
  return { ...state, personalDetails: { ...state.personalDetails, password: '' } }
}

/** "A user counts as in checkout for 30 minutes (1800000 ms) after the last modification." */
export function isInCheckout(state: Pick<CheckoutState, 'modifiedAt'>, now: number): boolean {
  return state.modifiedAt > 0 && now - state.modifiedAt < CHECKOUT_ACTIVITY_WINDOW_MS
}

/** Payment methods for a cart: cash on delivery hidden when every item is virtual/downloadable. */
export function paymentMethodsFor(typeIds: readonly string[]): PaymentMethodConfig[] {
  return availablePaymentMethods(typeIds)
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

export type FieldErrors = Record<string, string>

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Minimum password length for an account created at checkout or sign-up. */
export const PASSWORD_MIN_LENGTH = 8
export const MSG_INVALID_EMAIL = 'Please provide a valid e-mail address.'
/** The backend's password policy (shared/schemas/user.ts), checked before the round trip. */
export const MSG_PASSWORD_SHORT =
  'Password must be at least 8 characters long and contain at least one letter and one digit.'

/** True when the password meets the backend's policy: ≥ 8 characters with a letter and a digit. */
export function isStrongPassword(p: string): boolean {
  return p.length >= PASSWORD_MIN_LENGTH && /[A-Za-z]/.test(p) && /\d/.test(p)
}

/** True for a plausible e-mail address. */
export function isEmail(value: string): boolean {
  return EMAIL_RE.test(value.trim())
}
export const MSG_INVALID_ZIP = 'Please provide a valid postal code.'
export const MSG_INVALID_PHONE = 'Please provide a valid phone number.'
export const MSG_ACCEPT_TERMS = 'You must accept the terms and conditions.'
export const MSG_CHOOSE_PAYMENT = 'Please choose a payment method.'

const ZIP_RULES: Record<string, RegExp> = {
  IN: /^[1-9]\d{5}$/,
  US: /^\d{5}(-\d{4})?$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
}

function required(errors: FieldErrors, key: string, value: string): void {
  if (!value.trim()) errors[key] = MSG.fieldRequired
}

/** Errors of the personal details step, keyed by field name (empty when valid). */
export function validatePersonalDetails(p: PersonalDetails): FieldErrors {
  const errors: FieldErrors = {}
  required(errors, 'firstName', p.firstName)
  required(errors, 'lastName', p.lastName)
  required(errors, 'emailAddress', p.emailAddress)
  if (!errors.emailAddress && !EMAIL_RE.test(p.emailAddress.trim())) errors.emailAddress = MSG_INVALID_EMAIL
  if (p.createAccount) {
    required(errors, 'password', p.password)
    if (!errors.password && !isStrongPassword(p.password)) errors.password = MSG_PASSWORD_SHORT
  }
  return errors
}

/** Errors of an address form (shipping or billing), keyed by field name. */
export function validateAddress(a: AddressDetails): FieldErrors {
  const errors: FieldErrors = {}
  required(errors, 'firstName', a.firstName)
  required(errors, 'lastName', a.lastName)
  required(errors, 'country', a.country)
  required(errors, 'streetAddress', a.streetAddress)
  required(errors, 'city', a.city)
  required(errors, 'zipCode', a.zipCode)
  required(errors, 'phoneNumber', a.phoneNumber)
  const zipRule = ZIP_RULES[a.country]
  if (!errors.zipCode && zipRule && !zipRule.test(a.zipCode.trim())) errors.zipCode = MSG_INVALID_ZIP
  if (!errors.phoneNumber && !/^\+?[\d\s()-]{6,20}$/.test(a.phoneNumber.trim()))
    errors.phoneNumber = MSG_INVALID_PHONE
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

/** All errors of the whole checkout, prefixed by step ('personal.', 'shipping.', 'payment.'). */
export function validateCheckout(state: CheckoutState, offered: readonly PaymentMethodConfig[]): FieldErrors {
  const out: FieldErrors = {}
  for (const [k, v] of Object.entries(validatePersonalDetails(state.personalDetails)))
    out[`personal.${k}`] = v
  for (const [k, v] of Object.entries(validateAddress(state.shippingDetails))) out[`shipping.${k}`] = v
  for (const [k, v] of Object.entries(validatePayment(state, offered))) out[`payment.${k}`] = v
  return out
}

/** The order body's address (vsf-api-contract §1.3): camelCase container, Magento field names. */
export interface OrderAddress {
  firstname: string
  lastname: string
  email: string
  telephone: string
  street: string[]
  city: string
  region: string
  region_id: number
  region_code: string
  postcode: string
  country_id: string
  company?: string
  vat_id?: string
}

/** Maps a checkout address form to the API's Magento-shaped address. */
export function toApiAddress(
  a: AddressDetails,
  email: string,
  extra?: { company?: string; taxId?: string },
): OrderAddress {
  const address: OrderAddress = {
    firstname: a.firstName.trim(),
    lastname: a.lastName.trim(),
    email: email.trim(),
    telephone: a.phoneNumber.trim(),
    street: [a.streetAddress.trim(), a.apartmentNumber.trim()],
    city: a.city.trim(),
    region: a.state.trim(),
    region_id: a.region_id ?? 0,
    region_code: a.state.trim(),
    postcode: a.zipCode.trim(),
    country_id: a.country,
  }
  if (extra?.company?.trim()) address.company = extra.company.trim()
  if (extra?.taxId?.trim()) address.vat_id = extra.taxId.trim()
  return address
}

/** The billing address: the shipping address when "same as shipping", else the billing form. */
export function billingAddressOf(state: CheckoutState): OrderAddress {
  const email = state.personalDetails.emailAddress
  if (state.sameAsShipping) {
    return toApiAddress(state.shippingDetails, email, {
      company: state.paymentDetails.company,
      taxId: state.paymentDetails.taxId,
    })
  }
  return toApiAddress(state.paymentDetails, email, {
    company: state.paymentDetails.company,
    taxId: state.paymentDetails.taxId,
  })
}

/** `/api/cart/shipping-information` body (transactions spec §7): snake_case addresses + carrier/method codes. */
export function toShippingInformation(state: CheckoutState) {
  return {
    addressInformation: {
      shipping_address: toApiAddress(state.shippingDetails, state.personalDetails.emailAddress),
      billing_address: billingAddressOf(state),
      shipping_carrier_code: DEFAULT_SHIPPING_METHOD.carrier_code,
      shipping_method_code: state.shippingDetails.shippingMethod || DEFAULT_SHIPPING_METHOD.method_code,
    },
  }
}

export interface OrderProductInput {
  sku: string
  parentSku?: string
  name: string
  qty: number
  type_id?: string
  price?: number
  priceInclTax?: number
  product_option?: unknown
  server_item_id?: number | string | null
  server_cart_id?: string | null
  [key: string]: unknown
}

export interface OrderBody {
  user_id: string
  cart_id: string
  store_code: string
  order_id: string
  transmited: boolean
  created_at: string
  updated_at: string
  products: Record<string, unknown>[]
  addressInformation: {
    shippingAddress: OrderAddress
    billingAddress: OrderAddress
    shipping_method_code: string
    shipping_carrier_code: string
    payment_method_code: string
    payment_method_additional: Record<string, string>
    shippingExtraFields: Record<string, unknown>
  }
  store_credit_applied?: boolean
}

/** Fields of a cart line that the order needs (big catalogue blobs are dropped, as VSF's optimizeShoppingCart). */
function orderProduct(line: OrderProductInput): Record<string, unknown> {
  const {
    configurable_children: _children,
    configurable_options: _options,
    media_gallery: _gallery,
    description: _description,
    ...rest
  } = line as OrderProductInput & Record<string, unknown>
  const price =
    typeof line.price === 'number'
      ? line.price
      : typeof line.priceInclTax === 'number'
        ? line.priceInclTax
        : 0
  return {
    ...rest,
    price,
    qty: Math.trunc(Number(line.qty)),
    product_type: line.type_id ?? rest.product_type,
  }
}

/** Builds the order body posted to /api/order (vsf-api-contract §1.3) from the checkout and the cart. */
export function buildOrder(input: {
  state: CheckoutState
  items: readonly OrderProductInput[]
  cartId: string | null
  userId: string | number | null
  storeCode: string
  orderId: string
  now: number
}): OrderBody {
  const { state, now } = input
  const iso = new Date(now).toISOString()
  const body: OrderBody = {
    user_id: input.userId == null ? '' : String(input.userId),
    cart_id: input.cartId ?? '',
    store_code: input.storeCode,
    order_id: input.orderId,
    transmited: false,
    created_at: iso,
    updated_at: iso,
    products: input.items.map(orderProduct),
    addressInformation: {
      shippingAddress: toApiAddress(state.shippingDetails, state.personalDetails.emailAddress),
      billingAddress: billingAddressOf(state),
      shipping_method_code: state.shippingDetails.shippingMethod || DEFAULT_SHIPPING_METHOD.method_code,
      shipping_carrier_code: DEFAULT_SHIPPING_METHOD.carrier_code,
      payment_method_code: state.paymentFinalStep.paymentMethod,
      payment_method_additional: state.paymentFinalStep.paymentMethodAdditional,
      shippingExtraFields: {},
    },
  }
  if (state.isStoreCreditApplied) body.store_credit_applied = true
  return body
}

/**
 * After a successful order (result code absent or 200): "if an account was to be created, drops
 * the password and the createAccount flag"; the checkout shows the thank-you state.
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

/** The confirmation's status line: a `pending_payment` order says payment is pending, never that it was charged. */
export function orderStatusText(order: {
  status?: string
  state?: string
  paymentPending?: boolean
}): string {
  const status = order.status ?? order.state ?? ''
  if (status === 'pending_payment' || order.paymentPending === true) {
    return 'Your order has been received. Payment is pending: no payment has been taken yet.'
  }
  if (status === 'canceled' || status === 'cancelled') return 'This order has been canceled.'
  return 'Thank you, your order has been received.'
}
