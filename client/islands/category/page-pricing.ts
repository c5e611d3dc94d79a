/**
 * Who the tiles built in the browser are priced for (infinite scroll, filters): the browsing
 * country and GST rates the category page sent. Only recorded here; turning them into tax rules
 * happens where tiles are built (catalog-fetch), so the page's first load carries no price code.
 */

interface SentPricing {
  country: string
  gstRates: Record<string, number>
}

let sent: SentPricing | null = null

/** Records who this page's prices are for (the browsing country and GST rates the server sent). */
export function setPagePricing(p: SentPricing): void {
  sent = p
}

/** What setPagePricing recorded, or null on a page that sent nothing. */
export function sentPagePricing(): SentPricing | null {
  return sent
}
