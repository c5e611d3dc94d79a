import { describe, expect, it } from 'vitest'
import type { CustomerAddress } from '../../../../../client/islands/account/address-form'
import {
  bookEntry,
  savedAddresses,
  savedMatch,
  savesAddress,
  withAddressBook,
} from '../../../../../client/islands/checkout/address-book'
import { emptyCheckoutState } from '../../../../../client/islands/checkout/checkout-state'
import { bookAddress } from '../../../../helpers/orders'

const home: CustomerAddress = {
  id: 7,
  ...bookAddress(),
  region: { region: 'Karnataka', region_code: 'KA', region_id: 549 },
}
const office: CustomerAddress = {
  ...home,
  id: 8,
  street: ['1 Residency Road', ''],
  postcode: '560025',
  default_shipping: true,
}
const billing: CustomerAddress = { ...home, id: 9, city: 'Mysuru', postcode: '570001', default_billing: true }

describe('checkout and the address book', () => {
  it('fills the shipping form from the default address, else the first', () => {
    const filled = withAddressBook(emptyCheckoutState('IN'), [home, office])
    expect(filled.shippingDetails).toMatchObject({
      streetAddress: '1 Residency Road',
      zipCode: '560025',
      city: 'Bengaluru',
      state: 'Karnataka',
      region_id: 549,
    })
    expect(filled.sameAsShipping).toBe(true)
    expect(withAddressBook(emptyCheckoutState('IN'), [home]).shippingDetails.streetAddress).toBe('12 MG Road')
  })

  it("starts an empty book's shipping name from the shopper's own", () => {
    const state = emptyCheckoutState('IN')
    state.personalDetails.firstName = 'Meera'
    state.personalDetails.lastName = 'Iyer'
    expect(withAddressBook(state, []).shippingDetails).toMatchObject({ firstName: 'Meera', lastName: 'Iyer' })
  })

  it('fills billing from another default billing address, and never overwrites what was typed', () => {
    const filled = withAddressBook(emptyCheckoutState('IN'), [office, billing])
    expect(filled.sameAsShipping).toBe(false)
    expect(filled.paymentDetails.city).toBe('Mysuru')
    const typed = emptyCheckoutState('IN')
    typed.shippingDetails.streetAddress = '3 Lake View'
    expect(withAddressBook(typed, [office])).toBe(typed)
  })

  it('recognises a saved address the form shows unchanged (case and spacing aside)', () => {
    const state = withAddressBook(emptyCheckoutState('IN'), [home])
    expect(savedMatch(state.shippingDetails, [office, home])?.id).toBe(7)
    const edited = { ...state.shippingDetails, city: '  bengaluru ' }
    expect(savedMatch(edited, [home])?.id).toBe(7)
    expect(savedMatch({ ...state.shippingDetails, zipCode: '560002' }, [home])).toBeNull()
  })

  it('saves by default only for a shopper with an empty book, unless they chose', () => {
    const state = emptyCheckoutState('IN')
    expect(savesAddress(state, [])).toBe(true)
    expect(savesAddress(state, [home])).toBe(false)
    expect(savesAddress({ ...state, saveAddress: false }, [])).toBe(false)
    expect(savesAddress({ ...state, saveAddress: true }, [home])).toBe(true)
  })

  it('keeps the billing address choice apart from the shipping one, with the same default', () => {
    const state = emptyCheckoutState('IN')
    expect(savesAddress(state, [], 'billing')).toBe(true)
    expect(savesAddress(state, [home], 'billing')).toBe(false)
    expect(savesAddress({ ...state, saveAddress: false }, [], 'billing')).toBe(true)
    expect(savesAddress({ ...state, saveBillingAddress: false }, [], 'billing')).toBe(false)
    expect(savesAddress({ ...state, saveBillingAddress: true }, [home], 'billing')).toBe(true)
    expect(savesAddress({ ...state, saveBillingAddress: false }, [])).toBe(true)
  })

  it('makes a book entry without defaults, and reads only well-formed saved addresses', () => {
    const entry = bookEntry(withAddressBook(emptyCheckoutState('IN'), [home]).shippingDetails)
    expect(entry).toMatchObject({ firstname: 'Asha', street: ['12 MG Road', 'Flat 4'], postcode: '560001' })
    expect(entry).not.toHaveProperty('default_shipping')
    expect(entry).not.toHaveProperty('id')
    expect(savedAddresses({ addresses: [home, { city: 'x' }, null] })).toEqual([home])
    expect(savedAddresses(null)).toEqual([])
  })
})
