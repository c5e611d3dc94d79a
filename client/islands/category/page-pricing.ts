/**
 * Who the tiles built in the browser are priced for (infinite scroll, filters): the browsing
 * country and the tax rules the category page sent. Only recorded here; tiles are built (and
 * priced) in catalog-fetch, so the page's first load carries no price code.
 */
import type { TaxRuleFields } from '@shared/domain/tax-rules'

interface SentPricing {
  country: string
  taxRules: TaxRuleFields[]
}

let sent: SentPricing | null = null

/** Records who this page's prices are for (the browsing country and tax rules the server sent). */
export function setPagePricing(p: SentPricing): void {
  sent = p
}

/** What setPagePricing recorded, or null on a page that sent nothing. */
export function sentPagePricing(): SentPricing | null {
  return sent
}
