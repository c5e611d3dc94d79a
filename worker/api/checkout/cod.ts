/** Cash on delivery serviceability: the courier's PIN-code table (cod_pincodes) in D1. */
import { codAddressEligible } from '@shared/config/checkout'

/** Whether cash on delivery can go to this address: in India, and its PIN code is in the table. */
export async function codServiceable(
  db: D1Database,
  country: string | null | undefined,
  postcode: string | null | undefined,
): Promise<boolean> {
  if (!codAddressEligible(country, postcode)) return false
  const row = await db
    .prepare('SELECT 1 AS ok FROM cod_pincodes WHERE pincode = ?')
    .bind((postcode ?? '').trim())
    .first<{ ok: number }>()
  return row !== null
}
