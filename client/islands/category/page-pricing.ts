/**
 * Who the tiles built in the browser are priced for (infinite scroll, filters, the search overlay):
 * the browsing country and the GST rates the category page sent, else the browsing country alone.
 * Kept apart from page-price so pages without tiles do not load the price view for it.
 */
import { rulesFromGstMap, type TilePricing } from '@shared/components/catalog/tile-price'
import { pageCountry } from '../page-price'

let pricing: TilePricing | null = null

/** Records who this page's prices are for (the browsing country and GST rates the server sent). */
export function setPagePricing(p: { country: string; gstRates: Record<string, number> }): void {
  pricing = { country: p.country, taxRules: rulesFromGstMap(p.gstRates) }
}

/** The pricing for tiles built in the browser: what the page sent, else the browsing country alone. */
export function pageTilePricing(): TilePricing {
  return pricing ?? { country: pageCountry() }
}
