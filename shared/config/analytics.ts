/** Analytics events the browser and the conversions endpoint agree on. */

/** The events sent to the conversions API (PageView only fires the browser pixel). */
export const CONVERSION_EVENTS = [
  'Purchase',
  'InitiateCheckout',
  'AddToCart',
  'ViewContent',
  'ViewCategory',
] as const
