/**
 * The checkout mapped to what the API takes: the order body posted to /api/order (its
 * `addressInformation` with camelCase address keys) and the `addressInformation` of
 * /api/cart/shipping-information (`shipping_address`, `billing_address`, carrier and method).
 * Pure: time passed in.
 */
import { DEFAULT_SHIPPING_METHOD } from '@shared/config/checkout'
import type { AddressDetails } from '../forms/field-rules'
import type { CheckoutState } from './checkout-state'

/** An address of the order body: the container keys are camelCase, the address fields Magento's names. */
interface OrderAddress {
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
function billingAddressOf(state: CheckoutState): OrderAddress {
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

/**
 * The body of /api/cart/shipping-information: snake_case address keys plus the carrier and method
 * codes, and the payment method chosen so far (the totals add its fee).
 */
export function toShippingInformation(state: CheckoutState) {
  return {
    addressInformation: {
      shipping_address: toApiAddress(state.shippingDetails, state.personalDetails.emailAddress),
      billing_address: billingAddressOf(state),
      shipping_carrier_code: DEFAULT_SHIPPING_METHOD.carrier_code,
      shipping_method_code: state.shippingDetails.shippingMethod || DEFAULT_SHIPPING_METHOD.method_code,
      ...(state.paymentFinalStep.paymentMethod
        ? { payment_method_code: state.paymentFinalStep.paymentMethod }
        : {}),
    },
  }
}

interface OrderProductInput {
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

interface OrderBody {
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
  whatsapp_opt_in?: boolean
}

/** Fields of a cart line that the order needs: the big catalogue blobs (children, options, gallery, description) are dropped. */
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

/** Builds the order body posted to /api/order from the checkout and the cart. */
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
  if (state.whatsappOptIn) body.whatsapp_opt_in = true
  return body
}
