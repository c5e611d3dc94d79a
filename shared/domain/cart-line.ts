import type { CartLine } from '../schemas/cart'

/**
 * The unit price (incl. tax) of a cart line or of a product being added: the final (special)
 * price, else the regular price, else the price a server cart's line came with; 0 when none of
 * them is a finite number (the add rule then refuses the line).
 */
export function lineUnitPrice(line: Pick<CartLine, 'finalPriceInclTax' | 'priceInclTax' | 'price'>): number {
  for (const v of [line.finalPriceInclTax, line.priceInclTax, line.price]) {
    if (typeof v === 'number' && Number.isFinite(v)) return v
  }
  return 0
}
