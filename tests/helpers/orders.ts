/**
 * Order set-up shared by the worker tests and the fuzzers: fresh client order ids and a valid
 * Indian delivery address. Pure TypeScript (no Node or workerd imports), so both sides can use it.
 */
let orderSeq = 0
/** A fresh client order id, unique across tests and runs; `tag` says which test made it. */
export function newOrderId(tag: string): string {
  orderSeq++
  return `${Date.now()}-${tag}-${orderSeq}-${Math.random().toString(16).slice(2, 10)}`
}

let emailSeq = 0
/**
 * A fresh e-mail address (`tag` says which test made it): orders nobody has paid or confirmed may
 * hold only so many units per e-mail, so tests whose orders are not about one shopper use one each.
 */
export function freshEmail(tag: string): string {
  emailSeq++
  return `${tag}-${emailSeq}-${Math.random().toString(36).slice(2, 8)}@example.com`
}

/** A customer's address in Bengaluru as the address book keeps it (`over` changes fields). */
export function bookAddress(over: Record<string, unknown> = {}) {
  return {
    firstname: 'Asha',
    lastname: 'Rao',
    street: ['12 MG Road', 'Flat 4'],
    city: 'Bengaluru',
    postcode: '560001',
    country_id: 'IN',
    telephone: '9876500001',
    ...over,
  }
}

/** A company's billing address in Mumbai with its GSTIN (an order billed elsewhere than it ships). */
export const mumbaiBilling = {
  firstname: 'Vikram',
  lastname: 'Shah',
  company: 'Shah Textiles Pvt Ltd',
  street: ['Kalbadevi Road 22'],
  city: 'Mumbai',
  postcode: '400002',
  region: 'Maharashtra',
  country_id: 'IN',
  telephone: '9820000001',
  vat_id: '27AAPFU0939F1ZV',
  email: 'vikram@example.com',
}

/** A delivery address for test orders (`email` says whose; `over` changes fields). */
export function testAddress(email: string, over: Record<string, unknown> = {}) {
  return { ...bookAddress(), street: ['12 MG Road', ''], telephone: '9876543210', email, ...over }
}

/** An order body's addressInformation: one address for shipping and billing, flat-rate delivery. */
export function deliverTo(address: unknown, payment = 'cashondelivery') {
  return {
    shippingAddress: address,
    billingAddress: address,
    shipping_method_code: 'flatrate',
    shipping_carrier_code: 'flatrate',
    payment_method_code: payment,
  }
}

/** How `orderBody` builds a body: the payment, the delivery, and fields that replace the built ones. */
export type OrderBodyOptions = {
  /** The payment method's code (cash on delivery unless given). */
  payment?: string
  /** false: no delivery method named (the shop's default applies); flat rate otherwise. */
  flatRate?: boolean
} & Record<string, unknown>

/**
 * An order request body as the shop's checkout sends it: a guest's (`user_id` and `cart_id`
 * empty) order of `products` to one address for shipping and billing, flat-rate delivery, cash on
 * delivery. `options` names another payment, no delivery method, or replaces fields (`user_id`,
 * `cart_id`, a field under test).
 */
export function orderBody(
  orderId: string,
  products: unknown[],
  address: unknown,
  { payment = 'cashondelivery', flatRate = true, ...over }: OrderBodyOptions = {},
) {
  return {
    order_id: orderId,
    user_id: '',
    cart_id: '',
    products,
    addressInformation: flatRate
      ? deliverTo(address, payment)
      : { shippingAddress: address, billingAddress: address, payment_method_code: payment },
    ...over,
  }
}

/** A cart's shipping-information body: one address for shipping and billing, flat-rate delivery. */
export function shippingInformation(address: unknown) {
  return {
    addressInformation: {
      shippingAddress: address,
      billingAddress: address,
      shippingCarrierCode: 'flatrate',
      shippingMethodCode: 'flatrate',
    },
  }
}
