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
/** Product types that need no shipping (a cart of only these hides cash on delivery). */
export const VIRTUAL_PRODUCT_TYPES = ['virtual', 'downloadable'] as const

/** Payment methods to offer for a cart of these product types: cash on delivery hidden when all are virtual/downloadable. */
export function availablePaymentMethods(typeIds: readonly string[]): PaymentMethodConfig[] {
  const allVirtual =
    typeIds.length > 0 && typeIds.every((t) => (VIRTUAL_PRODUCT_TYPES as readonly string[]).includes(t))
  return PAYMENT_METHODS.filter((m) => !(allVirtual && m.requiresShipping))
}
