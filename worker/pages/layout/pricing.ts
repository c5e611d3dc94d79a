/** Who a page's prices are for: the browsing country and the catalogue's tax rules. */
import { pageTaxRules, type TilePricing } from '@shared/components/catalog/tile-price'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'

/**
 * The pricing of this request's tiles: its country (the shopper's choice, else the edge's country)
 * and the tax rules. Without tax rules (a failed read) prices are the catalogue's and the page is
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
 * The tax rules of the home country and the browsing country, for pages shown to shoppers abroad:
 * tiles the browser builds (search overlay, infinite scroll) price pieces exactly as the server does.
 */
export async function loadPageTaxRules(c: Context<AppEnv>): Promise<TaxRuleFields[]> {
  return pageTaxRules((await pagePricing(c)).taxRules, c.var.store.country)
}
