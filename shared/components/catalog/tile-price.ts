/**
 * The tile's three numbers (final, regular, discount %) from a product, through shared/domain
 * priceView (the ONE price function: special-price window, configurable = cheapest variant, bundle,
 * grouped), so tiles, the product page and the cart agree. Amounts stay in INR; formatting happens
 * at render.
 */
import { priceView } from '../../domain/price'
import type { Product } from '../../schemas/catalog'

interface TilePrice {
  finalPrice: number
  regularPrice: number
  discountPercent: number
}

type PriceSource = Pick<Product, 'price' | 'type_id'> & Partial<Product>

/** Final/regular/discount of a product at `now` (excl. tax, the listing's price basis). */
export function tilePrice(product: PriceSource, now: number): TilePrice {
  const view = priceView(product, { now, currency: 'INR', displayInclTax: false })
  return { finalPrice: view.final, regularPrice: view.regular, discountPercent: view.discountPercent }
}
