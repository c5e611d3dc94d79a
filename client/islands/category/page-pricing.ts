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

/** The GST rates the server rendered into <html data-gst-rates> for a shopper abroad (none in India). */
function documentGstRates(): Record<string, number> | null {
  const raw = typeof document !== 'undefined' ? document.documentElement.dataset.gstRates : undefined
  if (!raw) return null
  try {
    const parsed = JSON.parse(raw) as unknown
    if (!parsed || typeof parsed !== 'object') return null
    return Object.fromEntries(
      Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === 'number'),
    )
  } catch {
    return null
  }
}

/**
 * The pricing for tiles built in the browser: what a category page sent, else the browsing country
 * with the GST rates every page carries for a shopper abroad.
 */
export function pageTilePricing(): TilePricing {
  if (pricing) return pricing
  const rates = documentGstRates()
  return rates ? { country: pageCountry(), taxRules: rulesFromGstMap(rates) } : { country: pageCountry() }
}
