/**
 * Transaction timings that shared code and islands read. The client engines' own constants live
 * in client/engines/runtime/config.ts and the browser storage limits in client/storage/limits.ts.
 */

/** A product load started within the last 20 seconds is not started again. */
export const PRODUCT_LOAD_GUARD_MS = 20_000
/** A shopper counts as in checkout for 30 minutes (1,800,000 ms) after the last change. */
export const CHECKOUT_ACTIVITY_WINDOW_MS = 1_800_000
