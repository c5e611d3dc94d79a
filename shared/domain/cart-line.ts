/**
 * The unit price (incl. tax) of a cart line or of a product being added: the first finite number
 * among the fields a line can carry, the final (special) price before the regular one, camelCase
 * (the cart store's own fields) before the API's snake_case; 0 when none is set.
 */
const UNIT_PRICE_FIELDS = [
  'finalPriceInclTax',
  'priceInclTax',
  'final_price_incl_tax',
  'price_incl_tax',
  'final_price',
  'price',
] as const

export function lineUnitPrice(line: object): number {
  const fields = line as Record<string, unknown>
  for (const k of UNIT_PRICE_FIELDS) {
    const v = fields[k]
    if (typeof v === 'number' && Number.isFinite(v)) return v
  }
  return 0
}
