/** Shipping and payment configuration. */

interface ShippingMethodConfig {
  carrier_code: string
  method_code: string
  carrier_title: string
  method_title: string
  amount: number
  default: boolean
  is_server_method: boolean
}

/** "a single free courier (flat rate, amount 0); the shipping carrier and method code is a single fixed module code." */
export const SHIPPING_METHODS: readonly ShippingMethodConfig[] = [
  {
    carrier_code: 'flatrate',
    method_code: 'flatrate',
    carrier_title: 'Free Courier',
    method_title: 'Free Shipping',
    amount: 0,
    default: true,
    is_server_method: true,
  },
]
export const DEFAULT_SHIPPING_METHOD = SHIPPING_METHODS[0] as ShippingMethodConfig

export interface PaymentMethodConfig {
  code: string
  title: string
  is_server_method: boolean
  default: boolean
  /** Cash on delivery: "hidden when the cart is entirely virtual or downloadable". */
  requiresShipping?: boolean
}

/** "Initial payment methods: PayPal standard and a debit/credit card method, both server methods" + cash on delivery. */
export const PAYMENT_METHODS: readonly PaymentMethodConfig[] = [
  { code: 'paypal_standard', title: 'PayPal', is_server_method: true, default: false },
  { code: 'card', title: 'Debit / Credit Card', is_server_method: true, default: false },
  {
    code: 'cashondelivery',
    title: 'Cash On Delivery',
    is_server_method: true,
    default: true,
    requiresShipping: true,
  },
]
export const CASH_ON_DELIVERY_CODE = 'cashondelivery'
/** Days from an order to its estimated delivery: within India, and abroad. */
export const ORDER_DELIVERY_DAYS = { india: 7, abroad: 14 } as const
/** Product types that need no shipping (a cart of only these hides cash on delivery). */
export const VIRTUAL_PRODUCT_TYPES = ['virtual', 'downloadable'] as const

/** A PIN code as the courier table holds it: six digits, the first not 0. */
export const PINCODE_RE = /^[1-9][0-9]{5}$/

/** Whether cash on delivery can be asked for at all: an Indian address with a well-formed PIN code. */
export function codAddressEligible(country: string | null | undefined, postcode: string | null | undefined) {
  return (country ?? '').trim().toUpperCase() === 'IN' && PINCODE_RE.test((postcode ?? '').trim())
}

/** Why cash on delivery is not offered for an address (null when it is, or when not yet known). */
export function codUnavailableMessage(
  country: string | null | undefined,
  postcode: string | null | undefined,
  serviceable: boolean | null,
): string | null {
  const code = (country ?? '').trim().toUpperCase()
  if (code && code !== 'IN') return 'Cash on delivery is available only for addresses in India.'
  const pin = (postcode ?? '').trim()
  if (serviceable === false && pin) return `Cash on delivery is not available for PIN ${pin}.`
  return null
}

/**
 * Payment methods to offer: cash on delivery hidden when the cart is all virtual/downloadable, and
 * (when the address is given) unless it is an Indian address whose PIN code the courier serves.
 */
export function availablePaymentMethods(
  typeIds: readonly string[],
  address?: { country: string | null | undefined; codServiceable: boolean },
): PaymentMethodConfig[] {
  const allVirtual =
    typeIds.length > 0 && typeIds.every((t) => (VIRTUAL_PRODUCT_TYPES as readonly string[]).includes(t))
  const codRefused = address
    ? !(address.codServiceable && (address.country ?? '').toUpperCase() === 'IN')
    : false
  return PAYMENT_METHODS.filter((m) => !(m.requiresShipping && (allVirtual || codRefused)))
}

/**
 * The currency an order is charged in: PayPal charges the shopper's USD or GBP amount (USD when
 * the shopper browses in INR); every other method (cash on delivery, cards/UPI through the Indian
 * provider) charges INR.
 */
export function chargeCurrency(paymentMethodCode: string, displayCurrency: string): 'INR' | 'USD' | 'GBP' {
  if (paymentMethodCode === 'paypal_standard') return displayCurrency === 'GBP' ? 'GBP' : 'USD'
  return 'INR'
}
