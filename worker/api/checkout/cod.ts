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

/** The operator's rules on the address that need no read: in India, its PIN code not blocked by config. */
function codAddressEligibleHere(
  country: string | null | undefined,
  postcode: string | null | undefined,
): boolean {
  return (
    codAddressEligible(country, postcode) &&
    !SHIPPING_RULES.codBlockedPincodes.includes((postcode ?? '').trim())
  )
}

/** Whether the operator's block list names this PIN code. */
async function pinBlocked(db: D1Database, postcode: string | null | undefined): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS ok FROM cod_blocklist WHERE kind = 'pin' AND value = ?")
    .bind((postcode ?? '').trim())
    .first<{ ok: number }>()
  return row !== null
}

/** Whether the operator allows cash on delivery to this address: in India, its PIN code not blocked. */
export async function codAddressAllowed(
  db: D1Database,
  country: string | null | undefined,
  postcode: string | null | undefined,
): Promise<boolean> {
  return codAddressEligibleHere(country, postcode) && !(await pinBlocked(db, postcode))
}

/**
 * Whether cash on delivery can go to this address: allowed, and its PIN code is served with cash.
 * The block list and the courier's answer are read at once (one round trip where reads coalesce).
 */
export async function codServiceable(
  db: D1Database,
  country: string | null | undefined,
  postcode: string | null | undefined,
): Promise<boolean> {
  if (!codAddressEligibleHere(country, postcode)) return false
  const [blocked, cod] = await Promise.all([
    pinBlocked(db, postcode),
    knownPinCod(db, (postcode ?? '').trim(), Date.now()),
  ])
  return !blocked && cod
}

/** What an order (or a cart about to become one) asks cash on delivery for. */
export interface CodRequest {
  country: string | null | undefined
  postcode: string | null | undefined
  phone?: string | null
  /** The skus of its lines (children and their parents): any made to order refuses it. */
  skus?: readonly string[]
  /** Its total before the fee, minor units of INR (the currency cash on delivery collects). */
  totalMinor?: number | null
}

/** What the rules read about an address and a phone. */
export interface CodReads {
  /** Cash can go to the address (allowed, and its PIN code served with cash). */
  serviceable: boolean
  /** The phone number is on the operator's block list. */
  phoneBlocked: boolean
}

/** The reads about the address and the phone, sent at once (one round trip where reads coalesce). */
export async function codReads(db: D1Database, req: CodRequest): Promise<CodReads> {
  const phone = codPhoneKey(req.phone)
  const [serviceable, phoneBlocked] = await Promise.all([
    codServiceable(db, req.country, req.postcode),
    phone
      ? db
          .prepare("SELECT 1 AS ok FROM cod_blocklist WHERE kind = 'phone' AND value = ?")
          .bind(phone)
          .first<{ ok: number }>()
      : null,
  ])
  return { serviceable, phoneBlocked: phoneBlocked !== null }
}

/**
 * Why cash on delivery is refused for this request, or null when it is offered: the refusals
 * judged in their order, the address, the phone, pieces made to order (`madeToOrder`: one of the
 * request's skus is listed), the total.
 */
export function codJudgement(req: CodRequest, reads: CodReads, madeToOrder: boolean): string | null {
  if (!reads.serviceable) return codUnavailableMessage(req.country, req.postcode, false) ?? COD_NEEDS_PIN
  if (reads.phoneBlocked) return COD_REFUSALS.phone
  if (madeToOrder) return COD_REFUSALS.madeToOrder
  const cap = codCapMinor('INR')
  if (req.totalMinor != null && req.totalMinor > cap) return COD_REFUSALS.cap(cap)
  return null
}

/**
 * Why cash on delivery is refused for this request, or null when it is offered. Every read is sent
 * at once (one round trip where reads coalesce); then `codJudgement`.
 */
export async function codRefusal(db: D1Database, req: CodRequest): Promise<string | null> {
  const [reads, madeToOrder] = await Promise.all([codReads(db, req), listedMadeToOrder(db, req.skus ?? [])])
  return codJudgement(req, reads, madeToOrder.size > 0)
}
