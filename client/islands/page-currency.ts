import { baseCurrency } from '@shared/config/store'

/** The display currency the server rendered into <html data-currency> (the base currency when absent). */
export function pageCurrency(): string {
  return (typeof document !== 'undefined' && document.documentElement.dataset.currency) || baseCurrency()
}
