/**
 * The totals the cart UI shows: the server's segments when it sent some, else a client-side sum.
 * Both are in the page's display currency (the server prices the cart in it).
 */
import { lineUnitPrice } from '@shared/domain/cart-line'
import type { CartLine, CartTotalSegment, CartTotals } from '../../state/cart'
import { pageUnitMinor } from '../page-price'

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

/** The segments to show: the server's when it sent any, else the client-side sum of the lines. */
export function displayedSegments(totals: CartTotals | null, items: readonly CartLine[]): CartTotalSegment[] {
  return (totals?.total_segments?.length ? totals : clientTotals(items)).total_segments
}
