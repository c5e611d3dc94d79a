// Types of scripts/pincodes-csv.mjs for the TypeScript test that imports it.
export interface PincodeRow {
  pincode: string
  city: string
  state: string
}
export function parsePincodeCsv(text: string, name?: string): { rows: PincodeRow[]; errors: string[] }
export function pincodeSql(rows: readonly PincodeRow[], opts?: { replace?: boolean; stamp?: string }): string
