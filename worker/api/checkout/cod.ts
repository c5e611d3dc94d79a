/**
 * Cash on delivery: where and for what it is offered. The address first: an Indian PIN code the
 * courier collects cash at (its own answer for the PIN when asked within the day,
 * pin_serviceability, else the PIN-code table cod_pincodes: knownPinCod), never one the operator blocked
 * (SHIPPING_RULES.codBlockedPincodes or a 'pin' row of cod_blocklist). Then the operator's rules
 * for the order: not to a blocked phone number, not for pieces made to order, not above the
 * highest total the courier is asked to collect. Each refusal is one sentence the shopper reads,
 * the same before the review and at placement.
 */
import { COD_NEEDS_PIN, codAddressEligible, codUnavailableMessage } from '@shared/config/checkout'
import { codCapMinor, SHIPPING_RULES } from '@shared/config/shipping'
import { formatMinor } from '@shared/domain/currency'
import { listedMadeToOrder } from '../../catalog/made-to-order'
import { knownPinCod } from '../../fulfilment/serviceability'

/** Refusals of the operator's cash-on-delivery rules, as the shopper reads them. */
export const COD_REFUSALS = {
  phone: 'Cash on delivery is not available for this phone number. Please choose another way to pay.',
  madeToOrder:
    'Pieces made to order cannot be paid for on delivery. Please choose another way to pay, or remove them.',
  cap: (capMinor: number) =>
    `Cash on delivery is available for orders up to ${formatMinor(capMinor, 'INR')}. Please choose another way to pay.`,
} as const

/** The ten digits of an Indian mobile number, however it was typed (+91, 0, spaces, dashes); '' otherwise. */
export function codPhoneKey(phone: string | null | undefined): string {
  const digits = String(phone ?? '').replace(/\D/g, '')
  return digits.length >= 10 ? digits.slice(-10) : ''
}

/** Whether the operator allows cash on delivery to this address: in India, its PIN code not blocked. */
export async function codAddressAllowed(
  db: D1Database,
  country: string | null | undefined,
  postcode: string | null | undefined,
): Promise<boolean> {
  if (!codAddressEligible(country, postcode)) return false
  const pin = (postcode ?? '').trim()
  if (SHIPPING_RULES.codBlockedPincodes.includes(pin)) return false
  const blocked = await db
    .prepare("SELECT 1 AS ok FROM cod_blocklist WHERE kind = 'pin' AND value = ?")
    .bind(pin)
    .first<{ ok: number }>()
  return !blocked
}

/** Whether cash on delivery can go to this address: allowed, and its PIN code is served with cash. */
export async function codServiceable(
  db: D1Database,
  country: string | null | undefined,
  postcode: string | null | undefined,
): Promise<boolean> {
  if (!(await codAddressAllowed(db, country, postcode))) return false
  return knownPinCod(db, (postcode ?? '').trim(), Date.now())
}

/** What an order (or a cart about to become one) asks cash on delivery for. */
interface CodRequest {
  country: string | null | undefined
  postcode: string | null | undefined
  phone?: string | null
  /** The skus of its lines (children and their parents): any made to order refuses it. */
  skus?: readonly string[]
  /** Its total before the fee, minor units of INR (the currency cash on delivery collects). */
  totalMinor?: number | null
}

/** Why cash on delivery is refused for this request, or null when it is offered. */
export async function codRefusal(db: D1Database, req: CodRequest): Promise<string | null> {
  if (!(await codServiceable(db, req.country, req.postcode))) {
    return codUnavailableMessage(req.country, req.postcode, false) ?? COD_NEEDS_PIN
  }
  const phone = codPhoneKey(req.phone)
  if (phone) {
    const row = await db
      .prepare("SELECT 1 AS ok FROM cod_blocklist WHERE kind = 'phone' AND value = ?")
      .bind(phone)
      .first<{ ok: number }>()
    if (row) return COD_REFUSALS.phone
  }
  if ((await listedMadeToOrder(db, req.skus ?? [])).size > 0) return COD_REFUSALS.madeToOrder
  const cap = codCapMinor('INR')
  if (req.totalMinor != null && req.totalMinor > cap) return COD_REFUSALS.cap(cap)
  return null
}
