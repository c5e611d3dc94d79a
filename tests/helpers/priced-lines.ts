// Cart lines priced as the cart prices them (pure: no worker bindings), for the totals tests: one
// day and the seed's tax rules, so a price decides its GST slab as in the shop.
import { buildTaxRules } from '../../scripts/catalogue/seed/attributes'
import { priceView } from '../../shared/domain/price'
import { linePieces, type PricedLine } from '../../worker/api/cart/totals'

/** The moment the lines are priced at (the rules in force then). */
export const PRICED_AT = Date.UTC(2027, 2, 15)
const RULES = buildTaxRules()

/** A simple piece of clothing (tax class 2) at `price`, with its HSN code, as the catalogue stores it. */
export const clothing = (price: number, hsn = '62052000') => ({
  type_id: 'simple',
  price,
  tax_class_id: 2,
  hsn_code: hsn,
})

/**
 * A bundle (tax class 2) of two default clothing pieces, ₹2,000 and ₹3,000: one on each side of the
 * ₹2,500 GST slab, so each piece is taxed at its own rate.
 */
export const bundleAcrossSlab = (hsn = '62063000') => ({
  type_id: 'bundle',
  tax_class_id: 2,
  bundle_options: [2000, 3000].map((price, i) => ({
    option_id: i + 1,
    product_links: [{ id: i + 1, is_default: true, product: { price, hsn_code: hsn } }],
  })),
})

/** A cart line of `qty` of `product` priced for `country` in `currency` (item `itemId`, sku SKU-<itemId>). */
export function pricedLine(
  product: object,
  { qty = 1, country = 'IN', currency = 'INR', itemId = 1 } = {},
): PricedLine {
  const view = priceView(product, { now: PRICED_AT, currency, taxRules: RULES, country })
  return {
    item_id: itemId,
    sku: `SKU-${itemId}`,
    name: 'Piece',
    qty,
    product_type: 'simple',
    unitMinor: view.unitMinor,
    pieces: linePieces(view),
    options: [],
  }
}
