/**
 * Cash on delivery serviceability: the courier's own answer for the PIN when it was asked within
 * the day (pin_serviceability), else the PIN-code table (cod_pincodes) in D1; PIN codes the
 * operator blocked never get it.
 */
import { codAddressEligible } from '@shared/config/checkout'
import { SHIPPING_RULES } from '@shared/config/shipping'
import { cachedServiceability } from '../../fulfilment/serviceability'

/** Whether cash on delivery can go to this address: in India, and its PIN code is in the table. */
export async function codServiceable(
  db: D1Database,
  country: string | null | undefined,
  postcode: string | null | undefined,
): Promise<boolean> {
  if (!codAddressEligible(country, postcode)) return false
  const pin = (postcode ?? '').trim()
  if (SHIPPING_RULES.codBlockedPincodes.includes(pin)) return false
  const courier = await cachedServiceability(db, pin, Date.now())
  if (courier) return courier.serviceable === 1 && courier.cod_available === 1
  const row = await db
    .prepare('SELECT 1 AS ok FROM cod_pincodes WHERE pincode = ?')
    .bind((postcode ?? '').trim())
    .first<{ ok: number }>()
  return row !== null
}
