/** Pure helpers of the account area: address book mapping, order-history keys, profile and newsletter rules. */
import type { AddressFormValue } from '../../../shared/components/checkout/address-fields'
import type { CustomerAddress } from '../checkout/adapters'

export interface HistoryOrder {
  entity_id?: number | string
  increment_id?: string
  created_at?: string
  status?: string
  grand_total?: number
  payment?: { method?: string }
  items?: {
    sku: string
    name: string
    qty_ordered?: number
    row_total?: number
    row_total_incl_tax?: number
  }[]
}

/** The id used in /my-account/orders/{orderId}: the entity id, else the increment id. */
export function orderKey(o: HistoryOrder): string {
  return String(o.entity_id ?? o.increment_id ?? '')
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

/** Whether the form changes the account's e-mail address (letter case alone is no change). */
export function isEmailChange(current: string, next: string): boolean {
  return next.trim().toLowerCase() !== current.trim().toLowerCase()
}

export type NewsletterStatus = 'subscribed' | 'pending' | 'unsubscribed'

/** The newsletter status in an API result (a status string, a boolean or `{subscribed}`). */
export function newsletterStatus(result: unknown): NewsletterStatus {
  if (result === 'pending') return 'pending'
  const yes =
    result === true ||
    result === 'subscribed' ||
    (result as { subscribed?: boolean } | null)?.subscribed === true
  return yes ? 'subscribed' : 'unsubscribed'
}
