/**
 * The totals the cart UI shows: the server's segments when it sent some in the page's display
 * currency, else a client-side sum of the lines in it (right after a currency switch the stored
 * totals are still in the old currency: they are never shown next to prices in the new one).
 */
import { lineUnitPrice } from '@shared/domain/cart-line'
import type { CartLine, CartTotalSegment, CartTotals } from '../../state/cart'
import { pageCurrency } from '../page-currency'
import { pageUnitMinor } from '../page-price'

/** Whether there are server totals in the page's currency (totals that name none are taken as they are). */
export function inPageCurrency(totals: CartTotals | null | undefined): boolean {
  if (!totals) return false
  const code = totals.quote_currency_code
  return typeof code !== 'string' || code === pageCurrency()
}

/**
 * Client-side totals when the server's segments are not available (offline, not yet synced): free
 * shipping; each line is its unit price as charged in the page currency × qty, so they sum exactly.
 */
export function clientTotals(items: readonly CartLine[]): CartTotals {
  const subtotal = items.reduce((s, l) => s + pageUnitMinor(lineUnitPrice(l)) * (l.qty || 0), 0) / 100
  return {
    subtotal,
    grand_total: subtotal,
    total_segments: [
      { code: 'subtotal', title: 'Subtotal', value: subtotal },
      { code: 'shipping', title: 'Shipping', value: 0 },
      { code: 'grand_total', title: 'Grand Total', value: subtotal },
    ],
  }
}

/** The segments to show: the server's when it sent any in the page's currency, else the client-side sum of the lines. */
export function displayedSegments(totals: CartTotals | null, items: readonly CartLine[]): CartTotalSegment[] {
  return (totals?.total_segments?.length && inPageCurrency(totals) ? totals : clientTotals(items))
    .total_segments
}
