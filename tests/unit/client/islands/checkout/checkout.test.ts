import { describe, expect, it } from 'vitest'
import {
  afterOrderPlaced,
  type CheckoutState,
  COD_MESSAGE,
  emptyCheckoutState,
  isInCheckout,
  persistableCheckout,
  restoreCheckoutState,
  selectPaymentMethod,
} from '../../../../../client/islands/checkout/checkout-state'
import {
  MSG_ACCEPT_TERMS,
  MSG_CHOOSE_PAYMENT,
  validateCheckout,
  validatePayment,
  validatePersonalDetails,
} from '../../../../../client/islands/checkout/checkout-validation'
import {
  buildOrder,
  toApiAddress,
  toShippingInformation,
} from '../../../../../client/islands/checkout/order-body'
import { offersPayNow, orderStatusText } from '../../../../../client/islands/checkout/order-status'
import { placeButtonLabel } from '../../../../../client/islands/checkout/steps/review-step'
import {
  MSG_INVALID_EMAIL,
  MSG_INVALID_ZIP,
  MSG_PASSWORD_SHORT,
  validateAddress,
} from '../../../../../client/islands/forms/field-rules'
import { availablePaymentMethods, PAYMENT_METHODS } from '../../../../../shared/config/checkout'
import { newOrderId } from '../../../../../shared/domain/order-hash'
import { MSG } from '../../../../../shared/i18n/messages'
import { filledCheckout } from '../../../../helpers/checkout-state'

/** The order body a guest's checkout sends (no cart, no items). */
const guestOrder = (state: CheckoutState) =>
  buildOrder({ state, items: [], cartId: null, userId: null, storeCode: 'default', orderId: 'o', now: 0 })

describe('personal details validation', () => {
  it('requires names and a valid e-mail', () => {
    const e = validatePersonalDetails({
      firstName: '',
      lastName: ' ',
      emailAddress: 'nope',
      password: '',
      createAccount: false,
    })
    expect(e).toEqual({
      firstName: MSG.fieldRequired,
      lastName: MSG.fieldRequired,
      emailAddress: MSG_INVALID_EMAIL,
    })
  })

  it('asks for a strong password only when an account is to be created', () => {
    const base = { firstName: 'A', lastName: 'B', emailAddress: 'a@b.co', password: '', createAccount: false }
    expect(validatePersonalDetails(base)).toEqual({})
    expect(validatePersonalDetails({ ...base, createAccount: true })).toEqual({ password: MSG.fieldRequired })
    expect(validatePersonalDetails({ ...base, createAccount: true, password: 'abcdefgh' })).toEqual({
      password: MSG_PASSWORD_SHORT,
    })
    expect(validatePersonalDetails({ ...base, createAccount: true, password: 'abcdefg1' })).toEqual({})
    // A password is taken as typed: spaces are characters, so only an empty one is missing.
    expect(validatePersonalDetails({ ...base, createAccount: true, password: '        ' })).toEqual({
      password: MSG_PASSWORD_SHORT,
    })
  })
})

describe('address validation', () => {
  const ok = filledCheckout().shippingDetails
  it.each([
    ['IN', '560001', true],
    ['IN', '056001', false],
    ['IN', '5600', false],
    ['US', '94103', true],
    ['US', '94103-1234', true],
    ['GB', 'SW1A 1AA', true],
    ['GB', '12345', false],
    ['DE', '10115', true],
  ])('zip %s %s valid=%s', (country, zip, valid) => {
    const e = validateAddress({ ...ok, country, zipCode: zip })
    expect(e.zipCode === undefined).toBe(valid)
    if (!valid) expect(e.zipCode).toBe(MSG_INVALID_ZIP)
  })

  it('requires street, city, zip, phone and country; apartment and state are optional', () => {
    const e = validateAddress({
      ...ok,
      streetAddress: '',
      city: '',
      zipCode: '',
      phoneNumber: '',
      country: '',
      apartmentNumber: '',
      state: '',
    })
    expect(Object.keys(e).sort()).toEqual(['city', 'country', 'phoneNumber', 'streetAddress', 'zipCode'])
  })
})

describe('payment step', () => {
  it('needs an offered method and the terms; validates billing only when it differs', () => {
    const s = filledCheckout()
    const offered = availablePaymentMethods({ currency: 'INR', typeIds: ['configurable'] })
    expect(validatePayment(s, offered)).toEqual({})
    expect(
      validatePayment({ ...s, paymentFinalStep: { ...s.paymentFinalStep, terms: false } }, offered),
    ).toEqual({ terms: MSG_ACCEPT_TERMS })
    const virtualOnly = availablePaymentMethods({ currency: 'INR', typeIds: ['virtual', 'downloadable'] })
    expect(validatePayment(s, virtualOnly)).toEqual({ paymentMethod: MSG_CHOOSE_PAYMENT })
    const e = validatePayment({ ...s, sameAsShipping: false }, offered)
    expect(e['billing.streetAddress']).toBe(MSG.fieldRequired)
  })

  it('hides cash on delivery only when every item is virtual or downloadable', () => {
    const offered = (typeIds: string[]) =>
      availablePaymentMethods({ currency: 'INR', typeIds }).map((m) => m.code)
    expect(offered(['virtual', 'downloadable'])).not.toContain('cashondelivery')
    expect(offered(['virtual', 'simple'])).toContain('cashondelivery')
  })

  it('sets the cash-on-delivery flags and codMessage with the method', () => {
    const s = selectPaymentMethod(filledCheckout(), 'cashondelivery', 5)
    expect(s).toMatchObject({ isCashOnDelivery: true, codMessage: COD_MESSAGE, modifiedAt: 5 })
    const p = selectPaymentMethod(s, 'paypal_standard', 6)
    expect(p).toMatchObject({ isCashOnDelivery: false, codMessage: '' })
  })

  it('reports every step error with its prefix', () => {
    const e = validateCheckout(
      emptyCheckoutState(),
      availablePaymentMethods({ currency: 'INR', typeIds: ['simple'] }),
    )
    expect(e['personal.emailAddress']).toBe(MSG.fieldRequired)
    expect(e['shipping.city']).toBe(MSG.fieldRequired)
    expect(e['payment.terms']).toBe(MSG_ACCEPT_TERMS)
  })
})

describe('checkout activity window and persistence', () => {
  it('counts as in checkout for 30 minutes after the last modification', () => {
    expect(isInCheckout({ modifiedAt: 1000 }, 1000 + 1_799_999)).toBe(true)
    expect(isInCheckout({ modifiedAt: 1000 }, 1000 + 1_800_000)).toBe(false)
    expect(isInCheckout({ modifiedAt: 0 }, 10)).toBe(false)
  })

  it('never persists the password and restores old saves with defaults', () => {
    const s = filledCheckout()
    s.personalDetails.password = 'secret12'
    expect(persistableCheckout(s).personalDetails.password).toBe('')
    const restored = restoreCheckoutState({ personalDetails: { firstName: 'X' } }, 'IN', 7)
    expect(restored.personalDetails).toMatchObject({ firstName: 'X', lastName: '', createAccount: false })
    expect(restored.shippingDetails.country).toBe('IN')
    expect(restoreCheckoutState('garbage', 'US').shippingDetails.country).toBe('US')
  })

  it('drops the password and createAccount after a successful order', () => {
    const s = filledCheckout()
    s.personalDetails = { ...s.personalDetails, createAccount: true, password: 'abcdefg1' }
    const done = afterOrderPlaced(s, 99)
    expect(done.personalDetails).toMatchObject({ createAccount: false, password: '' })
    expect(done.isThankYouPage).toBe(true)
  })
})

describe('address mapping', () => {
  it('maps the form to the Magento address with a two-line street', () => {
    expect(toApiAddress(filledCheckout().shippingDetails, ' asha@example.com ')).toEqual({
      firstname: 'Asha',
      lastname: 'Rao',
      email: 'asha@example.com',
      telephone: '+91 98450 12345',
      street: ['12 MG Road', 'Flat 4'],
      city: 'Bengaluru',
      region: 'Karnataka',
      region_id: 0,
      region_code: 'Karnataka',
      postcode: '560001',
      country_id: 'IN',
    })
  })

  it('builds shipping-information with snake_case addresses and the free courier', () => {
    const s = filledCheckout()
    s.paymentDetails.company = 'Acme'
    s.paymentDetails.taxId = 'GST123'
    const info = toShippingInformation(s).addressInformation
    expect(info.shipping_address.country_id).toBe('IN')
    expect(info.billing_address).toMatchObject({
      street: ['12 MG Road', 'Flat 4'],
      company: 'Acme',
      vat_id: 'GST123',
    })
    expect(info.shipping_carrier_code).toBe('flatrate')
    expect(info.shipping_method_code).toBe('flatrate')
  })

  it('uses the billing form when billing differs from shipping', () => {
    const s = filledCheckout()
    s.sameAsShipping = false
    s.paymentDetails = {
      ...s.paymentDetails,
      firstName: 'Bill',
      lastName: 'Payer',
      streetAddress: '1 High St',
      city: 'London',
      zipCode: 'SW1A 1AA',
      country: 'GB',
      phoneNumber: '020 7946 0000',
    }
    const order = guestOrder(s)
    expect(order.addressInformation.billingAddress).toMatchObject({
      firstname: 'Bill',
      country_id: 'GB',
      city: 'London',
    })
    expect(order.addressInformation.shippingAddress).toMatchObject({ firstname: 'Asha', country_id: 'IN' })
  })
})

describe('order body', () => {
  it('asks for WhatsApp updates only when the shopper ticked the box', () => {
    expect(emptyCheckoutState('IN', 0).whatsappOptIn).toBeUndefined()
    expect(guestOrder(filledCheckout())).not.toHaveProperty('whatsapp_opt_in')
    expect(guestOrder({ ...filledCheckout(), whatsappOptIn: false })).not.toHaveProperty('whatsapp_opt_in')
    expect(guestOrder({ ...filledCheckout(), whatsappOptIn: true }).whatsapp_opt_in).toBe(true)
  })

  it('carries the client order id, the cart, integer quantities and no catalogue blobs', () => {
    const order = buildOrder({
      state: filledCheckout(),
      items: [
        {
          sku: 'TOP-S',
          parentSku: 'TOP',
          name: 'Top',
          qty: 2,
          type_id: 'simple',
          priceInclTax: 1200,
          configurable_children: [{}],
          description: 'long',
        },
        { sku: 'TOP-M', parentSku: 'TOP', name: 'Top', qty: '1' as unknown as number, type_id: 'simple' },
      ],
      cartId: 'cart-1',
      userId: 7,
      storeCode: 'default',
      orderId: newOrderId(1700000000000, 'abcd'),
      now: 1700000000000,
    })
    expect(order.order_id).toBe('1700000000000-abcd')
    expect(order).toMatchObject({ user_id: '7', cart_id: 'cart-1', store_code: 'default', transmited: false })
    expect(order.created_at).toBe('2023-11-14T22:13:20.000Z')
    expect(order.products).toHaveLength(2)
    expect(order.products[0]).not.toHaveProperty('configurable_children')
    expect(order.products[0]).not.toHaveProperty('description')
    expect(order.products[0]).toMatchObject({ sku: 'TOP-S', qty: 2, product_type: 'simple' })
    expect(order.products[1]?.qty).toBe(1)
    expect(order.addressInformation).toMatchObject({
      payment_method_code: 'cashondelivery',
      shipping_method_code: 'flatrate',
      shipping_carrier_code: 'flatrate',
    })
  })

  it('sends an empty user id for a guest', () => {
    const order = guestOrder(filledCheckout())
    expect(order.user_id).toBe('')
    expect(order.cart_id).toBe('')
  })
})

describe('confirmation status line', () => {
  it('says nothing was taken — never that a card was charged — for pending_payment orders', () => {
    for (const order of [{ status: 'pending_payment' }, { status: 'pending', paymentPending: true }]) {
      const text = orderStatusText(order)
      expect(text).toContain('no payment has been taken')
      expect(text).not.toMatch(/received|confirmed|charged/i)
    }
  })

  it('says until when an unpaid or failed order is held, in India time', () => {
    // 2026-11-24 10:15 UTC is 3:45 PM in India.
    const expires_at = Date.UTC(2026, 10, 24, 10, 15)
    expect(orderStatusText({ status: 'pending_payment', expires_at })).toContain(
      'We hold it for you until 24 November 2026, 3:45 PM IST',
    )
    const failed = orderStatusText({ status: 'payment_failed', expires_at })
    expect(failed).toContain('did not go through, so nothing has been charged. You can try again')
    expect(failed).toContain('3:45 PM IST')
    expect(failed).not.toContain('Payment failed (')
  })

  it('offers the pay button only while an unpaid order is still held', () => {
    const now = Date.UTC(2026, 10, 24, 10, 0)
    expect(offersPayNow({ status: 'pending_payment', expires_at: now + 60_000 }, now)).toBe(true)
    expect(offersPayNow({ status: 'payment_failed', expires_at: null }, now)).toBe(true)
    expect(offersPayNow({ status: 'pending_payment', expires_at: now - 1 }, now)).toBe(false)
    expect(offersPayNow({ status: 'processing', expires_at: now + 60_000 }, now)).toBe(false)
  })

  it('thanks for a received order and reports a canceled one', () => {
    expect(orderStatusText({ status: 'pending' })).toBe('Thank you, your order has been received.')
    expect(orderStatusText({ state: 'canceled' })).toBe('This order has been canceled.')
  })
})

describe('the review button says what it does', () => {
  const card = PAYMENT_METHODS.find((m) => m.code === 'card')
  const paypal = PAYMENT_METHODS.find((m) => m.code === 'paypal_standard')
  const cod = PAYMENT_METHODS.find((m) => m.code === 'cashondelivery')
  it('names the amount asked of the provider and how it is paid', () => {
    expect(placeButtonLabel(card, { due: 529_900, currency: 'INR' })).toBe(
      'Pay ₹5,299 with UPI, cards or netbanking',
    )
    expect(placeButtonLabel(paypal, { due: 6_300, currency: 'USD' })).toBe('Pay $63.00 with PayPal')
    expect(placeButtonLabel(card, null)).toBe('Pay with UPI, cards or netbanking')
  })
  it('says nothing is paid now for cash on delivery and for an order store credit covers', () => {
    expect(placeButtonLabel(cod, { due: 529_900, currency: 'INR' })).toBe('Place order — pay on delivery')
    expect(placeButtonLabel(card, { due: 0, currency: 'INR' })).toBe('Place order — paid with store credit')
    expect(placeButtonLabel(undefined, null)).toBe('Place order')
  })
})
