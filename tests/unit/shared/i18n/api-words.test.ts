import { describe, expect, it } from 'vitest'
import { shopperMessage } from '../../../../shared/i18n/api-words'

const FALLBACK = 'Please check the form.'

describe('the API’s refusals as a shopper reads them', () => {
  it('names the field and the limit instead of the validator’s text', () => {
    expect(
      shopperMessage(
        'Invalid request body: addressInformation.shipping_address.street.0: Too big: expected string to have <=255 characters',
        FALLBACK,
      ),
    ).toBe('The street address is too long: at most 255 characters.')
    expect(shopperMessage('Invalid coupon: coupon: coupon is at most 64 characters', FALLBACK)).toBe(
      'The discount code is too long: at most 64 characters.',
    )
    expect(
      shopperMessage('Invalid order: addressInformation.shippingAddress.city: city is required', FALLBACK),
    ).toBe('The city is missing.')
  })

  it('keeps a detail written for a person, without the path', () => {
    expect(
      shopperMessage(
        'Invalid order: addressInformation.shippingAddress.region: choose the state or union territory of the address (it decides the GST on the invoice)',
        FALLBACK,
      ),
    ).toBe('Choose the state or union territory of the address (it decides the GST on the invoice).')
    expect(
      shopperMessage(
        'Invalid order: addressInformation.payment_method_code: PayPal: charged in USD or GBP, not INR. Choose USD or GBP as your currency to pay this way. (offered: card)',
        FALLBACK,
      ),
    ).toBe('PayPal: charged in USD or GBP, not INR. Choose USD or GBP as your currency to pay this way.')
  })

  it('never shows validator vocabulary, malformed-JSON answers or overlong texts', () => {
    for (const text of [
      'Invalid request body: malformed JSON',
      'Invalid request body: products.0.qty: Invalid input: expected number, received NaN',
      'Invalid request body: x.y: Invalid enum value',
      `Invalid order: ${'a'.repeat(600)}`,
      '',
      null,
    ]) {
      const said = shopperMessage(text, FALLBACK)
      expect(said).not.toMatch(/Invalid|expected|received|\.0\b|[a-z]+\.[a-z]+\./)
    }
    expect(
      shopperMessage('Invalid request body: products.0.qty: Too big: expected number to be <=99', FALLBACK),
    ).toBe('The quantity can be at most 99.')
  })

  it('passes a plain sentence through', () => {
    expect(shopperMessage('The coupon code "X" is not valid.', FALLBACK)).toBe(
      'The coupon code "X" is not valid.',
    )
  })
})
