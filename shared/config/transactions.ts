/** Cart, order, session and sync constants (transactions spec §4, §9). */

/** "Stock list chunk 15" ("Requested in chunks of 15.") */
export const STOCK_CHUNK_SIZE = 15
/** "stock-after-check delay 500 ms" */
export const STOCK_CHECK_DELAY_MS = 500
/** "product load guard 20 s" ("A load started within the last 20 seconds is not restarted.") */
export const PRODUCT_LOAD_GUARD_MS = 20_000
/** "A user counts as in checkout for 30 minutes (1800000 ms) after the last modification." */
export const CHECKOUT_ACTIVITY_WINDOW_MS = 1_800_000
/** "less than 24 hours (144e4 ms) have passed since the last bypass timestamp" — the spec's figure, kept as written. */
export const AUTHORIZED_CART_BYPASS_MS = 144e4
/** "Pull or connect failures fall back to a guest cart, at most 10 times." */
export const GUEST_CART_FALLBACK_MAX = 10
/** "After 20 failed refresh attempts ... the user is logged out silently" */
export const TOKEN_REFRESH_MAX_ATTEMPTS = 20
/** "Tasks are retried after 1 second while a token refresh is in progress." */
export const TASK_RETRY_DURING_REFRESH_MS = 1000
/** Token refresh lock states: "0 is idle, a positive value means refreshing, and -1 means failed". */
export const TOKEN_LOCK_IDLE = 0
export const TOKEN_LOCK_FAILED = -1
/** "Analytics currency fixed as INR." */
export const ANALYTICS_CURRENCY = 'INR'
/** Events sent to the conversions API ("PageView only fires the browser pixel"). */
export const ANALYTICS_SERVER_EVENTS = [
  'Purchase',
  'InitiateCheckout',
  'AddToCart',
  'ViewContent',
  'ViewCategory',
] as const
/** action_source 'website' */
export const ANALYTICS_ACTION_SOURCE = 'website'
/** Service worker script path checked on localhost. */
export const SERVICE_WORKER_PATH = '/service-worker.js'
