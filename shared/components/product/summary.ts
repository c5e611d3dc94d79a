/**
 * A compact, JSON-safe picture of a product that the browser keeps in the wishlist, compare and
 * recently-viewed lists (so the list pages render without refetching the catalogue).
 */

export interface ProductSummary {
  sku: string
  /** Entity id and parent id: the wishlist server calls send parent_id if present, else id. */
  id: number
  parent_id?: number | null
  name: string
  /** Product page path. */
  url: string
  /** Image path ('/img/...') or null. */
  image: string | null
  /** Displayed price in the base currency (INR), incl. tax; formatted on display. */
  price: number
  /** Regular price when a special price applies (struck through), else null. */
  regularPrice?: number | null
  /** Raw values of the comparable attributes (compare page), keyed by attribute code. */
  attributes?: Record<string, unknown>
}

/** True when `value` has the shape of a ProductSummary (used when reading browser storage). */
export function isProductSummary(value: unknown): value is ProductSummary {
  if (!value || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return typeof v.sku === 'string' && typeof v.name === 'string' && typeof v.url === 'string'
}
