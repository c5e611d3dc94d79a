/**
 * The demo shop's serviceable PIN codes for cash on delivery: a few central PIN codes of large
 * Indian cities. 110099 is deliberately absent (a Delhi code the demo courier does not serve).
 */
const DEMO_COD_PINCODES: readonly { pincode: string; city: string; state: string }[] = [
  { pincode: '110001', city: 'New Delhi', state: 'Delhi' },
  { pincode: '110016', city: 'New Delhi', state: 'Delhi' },
  { pincode: '400001', city: 'Mumbai', state: 'Maharashtra' },
  { pincode: '400050', city: 'Mumbai', state: 'Maharashtra' },
  { pincode: '560001', city: 'Bengaluru', state: 'Karnataka' },
  { pincode: '560025', city: 'Bengaluru', state: 'Karnataka' },
  { pincode: '600001', city: 'Chennai', state: 'Tamil Nadu' },
  { pincode: '700001', city: 'Kolkata', state: 'West Bengal' },
  { pincode: '700016', city: 'Kolkata', state: 'West Bengal' },
  { pincode: '500001', city: 'Hyderabad', state: 'Telangana' },
  { pincode: '411001', city: 'Pune', state: 'Maharashtra' },
  { pincode: '302001', city: 'Jaipur', state: 'Rajasthan' },
  { pincode: '682001', city: 'Kochi', state: 'Kerala' },
]

/** Upserts of the demo PIN codes (existing rows, e.g. an operator's import, are left as they are). */
export function demoPincodeStatements(db: D1Database, stamp: string): D1PreparedStatement[] {
  return DEMO_COD_PINCODES.map((p) =>
    db
      .prepare(
        'INSERT OR IGNORE INTO cod_pincodes (pincode, city, state, updated_at) VALUES (?1, ?2, ?3, ?4)',
      )
      .bind(p.pincode, p.city, p.state, stamp),
  )
}
