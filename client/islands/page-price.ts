/** Money as the page shows it: amounts are kept in the base currency (INR) and shown in the page's display currency. */
import { formatPrice } from '@shared/domain/currency'
import { pageCurrency } from './page-currency'

/** Formats an amount in the base currency (INR) in the page's display currency. */
export function formatPagePrice(amount: number): string {
  return formatPrice(amount, pageCurrency())
}
