/** The display currency the server rendered into <html data-currency> (INR when absent). */
export function pageCurrency(): string {
  return (typeof document !== 'undefined' && document.documentElement.dataset.currency) || 'INR'
}
