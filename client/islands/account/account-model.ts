/** Pure helpers of the account area: address book mapping, order-history keys, profile, password and newsletter rules. */
import { orderDate, orderDateTime } from '@shared/components/order/order-text'
import { MSG } from '@shared/i18n/messages'
import { checkEmail, checkNewPassword, type FieldErrors, required } from '../forms/field-rules'
import type { CustomerAddress } from './address-form'

/** The signed-in customer as the account pages use it. */
export interface Customer {
  id: number
  email: string
  firstname: string
  lastname: string
  group_id?: number
  addresses?: CustomerAddress[]
  [key: string]: unknown
}

export const MSG_PASSWORDS_DIFFER = 'Passwords must be identical.'

export interface HistoryOrder {
  entity_id?: number | string
  increment_id?: string
  created_at?: string
  status?: string
  grand_total?: number
  /** The currency the order's amounts are in (what it was charged in). */
  order_currency_code?: string
  payment?: { method?: string; paid_with?: string }
  items?: {
    sku: string
    name: string
    qty_ordered?: number
    row_total?: number
    row_total_incl_tax?: number
    /** What the shopper configured on the line. */
    options?: { label: string; value: string }[]
    /** The picture the line was bought with (an image path), null when it has none. */
    image?: string | null
  }[]
  /** Each time the order was shipped: the courier and its tracking number (AWB). */
  shipments?: { carrier: string; trackingNumber: string }[]
  /** The number of the order's tax invoice once issued, else null. */
  invoice_number?: string | null
}

/** The id used in /my-account/orders/{orderId}: the entity id, else the increment id. */
export function orderKey(o: HistoryOrder): string {
  return String(o.entity_id ?? o.increment_id ?? '')
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

/**
 * Formats a backend timestamp ('YYYY-MM-DD HH:MM:SS', written in UTC) so nobody can misread it:
 * '24 November 2026', and with the time, '24 November 2026, 3:45 PM IST' (the shop's time zone).
 */
export function formatServerDate(value: string | null | undefined, kind: 'date' | 'time'): string {
  return kind === 'date' ? orderDate(value) : orderDateTime(value)
}

/** Errors of the profile form: names and e-mail required; a new e-mail address needs the current password. */
export function validateProfile(
  currentEmail: string,
  f: { firstname: string; lastname: string; email: string; emailPassword: string },
): FieldErrors {
  const errs: FieldErrors = {}
  required(errs, 'firstname', f.firstname)
  required(errs, 'lastname', f.lastname)
  checkEmail(errs, 'email', f.email)
  if (isEmailChange(currentEmail, f.email) && !f.emailPassword) errs.emailPassword = MSG.fieldRequired
  return errs
}

/** Errors of the change-password form: both passwords given, the new one strong and repeated exactly. */
export function validatePasswordChange(pw: { current: string; next: string; confirm: string }): FieldErrors {
  const errs: FieldErrors = {}
  if (!pw.current) errs.current = MSG.fieldRequired
  checkNewPassword(errs, 'next', pw.next)
  if (pw.confirm !== pw.next) errs.confirm = MSG_PASSWORDS_DIFFER
  return errs
}
