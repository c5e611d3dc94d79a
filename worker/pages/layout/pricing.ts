/** Who a page's prices are for: the browsing country and the catalogue's tax rules (GST rates). */
import { gstRateMap, type TilePricing } from '@shared/components/catalog/tile-price'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import { derivedFrom } from '../../commerce/derived'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'

/**
 * The pricing of this request's tiles: its country (cookie or edge country) and the tax rules the
 * GST rate comes from. Without tax rules (a failed read) prices are the catalogue's and the page is
 * marked degraded, so it is not cached.
 */
export async function pagePricing(c: Context<AppEnv>): Promise<TilePricing> {
  const taxRules = await getCommerce(c)
    .getTaxRules()
    .catch(() => {
      markDegraded(c)
      return []
    })
  return { country: c.var.store.country, taxRules }
}

/**
 * The GST rate per tax class, for pages shown to shoppers abroad: tiles the browser builds (search
 * overlay, infinite scroll) take GST out of catalogue prices exactly as the server does.
 */
export async function loadGstRates(c: Context<AppEnv>): Promise<Record<string, number>> {
  return pageGstRates((await pagePricing(c)).taxRules)
}

/** The GST rate per tax class of `taxRules`, computed once per version of the (memoised) rules. */
export function pageGstRates(taxRules: TilePricing['taxRules']): Record<string, number> {
  return taxRules ? derivedFrom(taxRules, 'gst rates', () => gstRateMap(taxRules)) : gstRateMap(taxRules)
}
