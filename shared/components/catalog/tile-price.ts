/**
 * The tile's three numbers (final, regular, discount %) from a product, through shared/domain
 * priceView (the ONE price function: special-price window, configurable = cheapest variant, bundle,
 * grouped, the shopper's country), so tiles, the product page and the cart agree. Amounts stay in
 * INR; formatting (conversion and rounding to the currency's step) happens at render.
 */
import { baseCurrency } from '../../config/store'
import { gstRateOf, priceView, type TaxRuleFields } from '../../domain/price'
import type { Product } from '../../schemas/catalog'

interface TilePrice {
  finalPrice: number
  regularPrice: number
  discountPercent: number
}

type PriceSource = Pick<Product, 'price' | 'type_id'> & Partial<Product>

/** Who the tile is priced for: the browsing country and the catalogue's tax rules (GST rates). */
export interface TilePricing {
  country?: string | null
  taxRules?: readonly TaxRuleFields[] | null
}

/** The Indian GST rate of every product tax class the rules name: {taxClassId: rate}. */
export function gstRateMap(taxRules: readonly TaxRuleFields[] | null | undefined): Record<string, number> {
  const out: Record<string, number> = {}
  for (const rule of taxRules ?? [])
    for (const id of rule.product_tax_class_ids)
      if (!(String(id) in out)) out[String(id)] = gstRateOf(id, taxRules)
  return out
}

/** Tax rules equivalent to a GST rate map (what a page sends its islands instead of the whole rules). */
export function rulesFromGstMap(rates: Record<string, number>): TaxRuleFields[] {
  return Object.entries(rates).map(([id, rate]) => ({
    product_tax_class_ids: [Number(id)],
    rates: [{ rate, tax_country_id: 'IN' }],
  }))
}

/**
 * Final/regular/discount of a product at `now`: the amounts the shopper's country pays, in the
 * base currency (catalogue prices as they are in India); the tile formats them with the ONE formatPrice, which
 * converts and rounds exactly as the price view charges.
 */
export function tilePrice(product: PriceSource, now: number, pricing: TilePricing = {}): TilePrice {
  const view = priceView(product, {
    now,
    currency: baseCurrency(),
    country: pricing.country,
    taxRules: pricing.taxRules,
  })
  return {
    finalPrice: view.finalInclTax,
    regularPrice: view.regularInclTax,
    discountPercent: view.discountPercent,
  }
}
