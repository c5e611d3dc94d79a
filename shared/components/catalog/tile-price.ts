/**
 * The tile's three numbers (final, regular, discount %) from a product, through shared/domain
 * priceView (the ONE price function: special-price window, configurable = cheapest variant, bundle,
 * grouped, the shopper's country), so tiles, the product page and the cart agree. Amounts stay in
 * INR; formatting (conversion and rounding to the currency's step) happens at render.
 */
import { baseCurrency, HOME_COUNTRY } from '../../config/store'
import { type PricedProduct, type PriceView, type PriceViewOptions, priceView } from '../../domain/price'
import { rulesForCountries, type TaxRuleFields } from '../../domain/tax-rules'
import type { Product } from '../../schemas/catalog'

interface TilePrice {
  /** The price is the least the product costs (a grouped set's cheapest piece): shown as "from". */
  from: boolean
  finalPrice: number
  regularPrice: number
  discountPercent: number
}

type PriceSource = Pick<Product, 'price' | 'type_id'> & Partial<Product>

/** Who the tile is priced for: the browsing country and the catalogue's tax rules. */
export interface TilePricing {
  country?: string | null
  taxRules?: readonly TaxRuleFields[] | null
}

/** The tax rules a page sends its islands: only the rates of the home country and the shopper's. */
export function pageTaxRules(
  taxRules: readonly TaxRuleFields[] | null | undefined,
  country: string,
): TaxRuleFields[] {
  return rulesForCountries(taxRules, [HOME_COUNTRY, country])
}

/**
 * Final/regular/discount of a product at `now`: the amounts the shopper's country pays, in the
 * base currency (catalogue prices as they are in India), as a listing shows them (listingPriceView:
 * a grouped set from its cheapest piece); the tile formats them with the ONE formatPrice, which
 * converts and rounds exactly as the price view charges.
 */
export function tilePrice(product: PriceSource, now: number, pricing: TilePricing = {}): TilePrice {
  const { view, from } = listingPriceView(product, {
    now,
    currency: baseCurrency(),
    country: pricing.country,
    taxRules: pricing.taxRules,
  })
  return {
    from,
    finalPrice: view.finalInclTax,
    regularPrice: view.regularInclTax,
    discountPercent: view.discountPercent,
  }
}

/**
 * The price a listing shows for a product (its tile, a search result, the search index's price
 * filter and sort): its priceView, except for a grouped product, which the shop sells piece by
 * piece. A grouped product's listed price is its cheapest piece's, priced exactly as the set's
 * page prices that piece, and it is shown as "from" that price (`from`). A bundle lists the price
 * of its default choices, the price its page starts at.
 */
export function listingPriceView(
  product: PricedProduct,
  opts: PriceViewOptions,
): { view: PriceView; from: boolean } {
  if (product.type_id === 'grouped') {
    let cheapest: PriceView | null = null
    for (const link of product.product_links ?? []) {
      const piece = link.product
      if ((link.link_type && link.link_type !== 'associated') || !piece || !((piece.price ?? 0) > 0)) continue
      const view = priceView(piece, opts)
      if (!cheapest || view.unitMinor < cheapest.unitMinor) cheapest = view
    }
    if (cheapest) return { view: cheapest, from: true }
  }
  return { view: priceView(product, opts), from: false }
}
