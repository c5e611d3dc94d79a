/**
 * Field rules shared by the shop's forms (checkout, sign-up and login, the account's profile and
 * address book): required fields, e-mail, the password policy, and the address with per-country
 * postal codes. Pure; messages are the ones the shopper sees.
 */

import type { AddressFormValue } from '@shared/components/checkout/address-fields'
import { SHIPPING_COUNTRIES } from '@shared/config/checkout'
import { MSG } from '@shared/i18n/messages'

/** Errors of a form, keyed by field name (empty when valid). */
export type FieldErrors = Record<string, string>

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Minimum password length for an account created at checkout or sign-up. */
const PASSWORD_MIN_LENGTH = 8
export const MSG_INVALID_EMAIL = 'Please provide a valid e-mail address.'
/** The backend's password policy (shared/schemas/user.ts), checked before the round trip. */
export const MSG_PASSWORD_SHORT =
  'Password must be at least 8 characters long and contain at least one letter and one digit.'
export const MSG_INVALID_ZIP = 'Please provide a valid postal code.'
const MSG_INVALID_PHONE = 'Please provide a valid phone number.'

/** True when the password meets the backend's policy: ≥ 8 characters with a letter and a digit. */
function isStrongPassword(p: string): boolean {
  return p.length >= PASSWORD_MIN_LENGTH && /[A-Za-z]/.test(p) && /\d/.test(p)
}

/** True for a plausible e-mail address. */
function isEmail(value: string): boolean {
  return EMAIL_RE.test(value.trim())
}

/** Records the 'required' message for `key` when `value` is blank. */
export function required(errors: FieldErrors, key: string, value: string): void {
  if (!value.trim()) errors[key] = MSG.fieldRequired
}

/** Records the e-mail address's error under `key`: required, then a plausible address. */
export function checkEmail(errors: FieldErrors, key: string, value: string): void {
  required(errors, key, value)
  if (!errors[key] && !isEmail(value)) errors[key] = MSG_INVALID_EMAIL
}

/** Records a new password's error under `key`: required, then the policy. A password counts as typed, spaces included. */
export function checkNewPassword(errors: FieldErrors, key: string, value: string): void {
  if (!value) errors[key] = MSG.fieldRequired
  else if (!isStrongPassword(value)) errors[key] = MSG_PASSWORD_SHORT
}

/** Countries offered in the address forms: India first (the default), then US, GB and others. */
export const COUNTRIES: readonly { code: string; name: string }[] = SHIPPING_COUNTRIES

/** An address as the forms hold it: the address form's fields (without company and tax id) and the region id. */
export type AddressDetails = Omit<AddressFormValue, 'company' | 'taxId'> & { region_id: number | null }

/** Postal code formats checked for these countries; other countries only need a value. */
const ZIP_RULES: Record<string, RegExp> = {
  IN: /^[1-9]\d{5}$/,
  US: /^\d{5}(-\d{4})?$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
}

/** Errors of an address form (shipping, billing or the address book), keyed by field name. */
export function validateAddress(a: AddressDetails): FieldErrors {
  const errors: FieldErrors = {}
  required(errors, 'firstName', a.firstName)
  required(errors, 'lastName', a.lastName)
  required(errors, 'country', a.country)
  required(errors, 'streetAddress', a.streetAddress)
  required(errors, 'city', a.city)
  required(errors, 'zipCode', a.zipCode)
  required(errors, 'phoneNumber', a.phoneNumber)
  const zipRule = ZIP_RULES[a.country]
  if (!errors.zipCode && zipRule && !zipRule.test(a.zipCode.trim())) errors.zipCode = MSG_INVALID_ZIP
  if (!errors.phoneNumber && !/^\+?[\d\s()-]{6,20}$/.test(a.phoneNumber.trim()))
    errors.phoneNumber = MSG_INVALID_PHONE
  return errors
}
