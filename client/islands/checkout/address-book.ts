/**
 * Checkout and the signed-in shopper's address book. Pure: no DOM, no requests.
 * - A shopper with saved addresses starts from the default one (else the first): the shipping form
 *   is filled from it unless the shopper has already typed an address, and the billing form from
 *   the default billing address when that is another one. Without one, the shipping name starts as
 *   the shopper's own.
 * - They may pick any saved address, or "a new address" (an empty form).
 * - An address that is not in the book can be saved to it after the order; the choice starts on
 *   for a shopper whose book is empty, off otherwise. A billing address other than the shipping one
 *   has the same choice, made apart from the shipping address's.
 */
import type { AddressFormValue } from '@shared/components/checkout/address-fields'
import { addressToForm, type CustomerAddress, formToAddress } from '../account/address-form'
import type { AddressDetails } from '../forms/field-rules'
import type { CheckoutState } from './checkout-state'

/**
 * What the shipping step says about the book. Kept with the checkout, not with the shop-wide
 * messages: those are loaded by every page, and these only by checkout.
 */
export const ADDRESS_BOOK_TEXT = {
  savedAddress: 'Ship to',
  newAddress: 'A new address',
  saveAddress: 'Save this address to my address book',
  saveBillingAddress: 'Save this billing address to my address book',
} as const

/** The saved addresses of a user as the API answers them (anything else is ignored). */
export function savedAddresses(user: { addresses?: unknown } | null): CustomerAddress[] {
  const list = Array.isArray(user?.addresses) ? (user.addresses as CustomerAddress[]) : []
  return list.filter((a) => typeof a?.id === 'number' && Array.isArray(a.street))
}

/** A saved address as the checkout's address form holds it. */
export function addressDetails(a: CustomerAddress): AddressDetails {
  const { company: _c, taxId: _t, ...form } = addressToForm(a)
  return { ...form, region_id: a.region?.region_id ?? a.region_id ?? null }
}

const key = (d: AddressDetails) =>
  [d.firstName, d.lastName, d.streetAddress, d.apartmentNumber, d.city, d.zipCode, d.country, d.phoneNumber]
    .map((v) => v.trim().replace(/\s+/g, ' ').toLowerCase())
    .join('|')

/** The saved address the form shows unchanged, or null (a new or edited address). */
export function savedMatch(
  details: AddressDetails,
  book: readonly CustomerAddress[],
): CustomerAddress | null {
  const k = key(details)
  return book.find((a) => key(addressDetails(a)) === k) ?? null
}

/** Whether the shopper has typed no address yet (names alone do not count). */
const untouched = (d: AddressDetails) => !d.streetAddress.trim() && !d.city.trim() && !d.zipCode.trim()

/**
 * The checkout opened by a signed-in shopper: their default addresses filled in where nothing was
 * typed; with an empty book, the shipping name is their own name unless one was typed.
 */
export function withAddressBook(state: CheckoutState, book: readonly CustomerAddress[]): CheckoutState {
  if (!untouched(state.shippingDetails)) return state
  if (book.length === 0) {
    const d = state.shippingDetails
    return {
      ...state,
      shippingDetails: {
        ...d,
        firstName: d.firstName || state.personalDetails.firstName,
        lastName: d.lastName || state.personalDetails.lastName,
      },
    }
  }
  const shipping = book.find((a) => a.default_shipping) ?? (book[0] as CustomerAddress)
  const billing = book.find((a) => a.default_billing) ?? shipping
  const next: CheckoutState = {
    ...state,
    shippingDetails: { ...state.shippingDetails, ...addressDetails(shipping) },
  }
  if (billing !== shipping && untouched(state.paymentDetails))
    return {
      ...next,
      sameAsShipping: false,
      paymentDetails: { ...state.paymentDetails, ...addressDetails(billing) },
    }
  return next
}

/**
 * Whether the shipping (or the separate billing) address will be saved: the shopper's choice, else
 * on when the book is empty.
 */
export function savesAddress(
  state: CheckoutState,
  book: readonly CustomerAddress[],
  which: 'shipping' | 'billing' = 'shipping',
): boolean {
  return (which === 'billing' ? state.saveBillingAddress : state.saveAddress) ?? book.length === 0
}

/** The address-book entry of a checkout address (not a default: the book keeps its own). */
export function bookEntry(details: AddressDetails): CustomerAddress {
  const {
    default_shipping: _s,
    default_billing: _b,
    ...entry
  } = formToAddress(details as AddressFormValue, undefined, false)
  return { ...entry, region: { ...entry.region, region_id: details.region_id } }
}
