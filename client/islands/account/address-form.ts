/**
 * A saved address of the address book and the address form it is edited in: the mapping both ways,
 * used by the account's address book and by checkout (kept apart from the rest of the account
 * helpers so checkout loads only this).
 */
import type { AddressFormValue } from '@shared/components/checkout/address-fields'

/** A saved address of the customer (the API's shape). */
export interface CustomerAddress {
  id?: number
  firstname: string
  lastname: string
  street: string[]
  city: string
  postcode?: string
  country_id: string
  telephone?: string
  region?: { region?: string | null; region_code?: string | null; region_id?: number | null }
  region_id?: number | null
  company?: string | null
  vat_id?: string | null
  default_shipping?: boolean
  default_billing?: boolean
}

/** A saved customer address → the address form (empty form for null; India by default). */
export function addressToForm(a: CustomerAddress | null, country = 'IN'): AddressFormValue {
  return {
    firstName: a?.firstname ?? '',
    lastName: a?.lastname ?? '',
    country: a?.country_id ?? country,
    streetAddress: a?.street[0] ?? '',
    apartmentNumber: a?.street[1] ?? '',
    city: a?.city ?? '',
    state: a?.region?.region ?? '',
    zipCode: a?.postcode ?? '',
    phoneNumber: a?.telephone ?? '',
    company: a?.company ?? '',
    taxId: a?.vat_id ?? '',
  }
}

/** The address form → the API's customer address (keeps the id of an edited address; street has 2 lines). */
export function formToAddress(
  f: AddressFormValue,
  base: CustomerAddress | undefined,
  isDefault: boolean,
): CustomerAddress {
  const out: CustomerAddress = {
    firstname: f.firstName.trim(),
    lastname: f.lastName.trim(),
    street: [f.streetAddress.trim(), f.apartmentNumber.trim()],
    city: f.city.trim(),
    postcode: f.zipCode.trim(),
    country_id: f.country,
    telephone: f.phoneNumber.trim(),
    region: {
      region: f.state.trim() || null,
      region_code: f.state.trim() || null,
      region_id: base?.region?.region_id ?? null,
    },
    default_shipping: isDefault,
    default_billing: isDefault,
  }
  if (base?.id !== undefined) out.id = base.id
  if (f.company?.trim()) out.company = f.company.trim()
  if (f.taxId?.trim()) out.vat_id = f.taxId.trim()
  return out
}
