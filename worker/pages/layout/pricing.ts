/** Who a page's prices are for: the browsing country and the catalogue's tax rules. */
import { pageTaxRules, type TilePricing } from '@shared/components/catalog/tile-price'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import { derivedFrom } from '../../commerce/derived'
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
  return pageRules((await pagePricing(c)).taxRules, c.var.store.country)
}

/** `pageTaxRules` of the rules for `country`, computed once per version of the (memoised) rules. */
export function pageRules(taxRules: TilePricing['taxRules'], country: string): TaxRuleFields[] {
  return taxRules
    ? derivedFrom(taxRules, `page tax rules ${country}`, () => pageTaxRules(taxRules, country))
    : pageTaxRules(taxRules, country)
}
