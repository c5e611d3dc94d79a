/**
 * The client engines' constants, and the runtime settings the server renders into
 * `<html data-*>`.
 */

/** A task waits 1 s before trying again while a token refresh is in progress. */
export const TASK_RETRY_DURING_REFRESH_MS = 1000
/** After 20 refreshes without a successful authenticated call the user is logged out. */
export const MAX_TOKEN_REFRESH_ATTEMPTS = 20
/** A failed pull or connect falls back to a guest cart at most 10 times in a row. */
export const GUEST_CART_FALLBACK_ATTEMPTS = 10
/**
 * A signed-in shopper's cart is not connected again within this window after the last bypass.
 * Meant as 24 h, but the value is 144e4 ms (24 minutes), as VSF computes it (1000 * 60 * 24);
 * we keep that number on purpose.
 */
export const AUTHORIZED_CART_BYPASS_MS = 144e4
/** "stock-after-check delay 500 ms" */
export const STOCK_AFTER_CHECK_DELAY_MS = 500
/** "Stock list chunk 15" */
export const STOCK_LIST_CHUNK = 15
/** How long a cart task waits for a cart id before it is rejected. */
export const CART_ID_WAIT_MS = 10_000

export interface ClientSettings {
  /** Support e-mail for the order 400 message. */
  supportEmail: string
  /** "Offline order automatic transmission is off." */
  offlineOrdersAutoTransmit: boolean
  /** Customer group id/token are used only when price tiers are on. */
  priceTiersEnabled: boolean
  /** "Order results are synced directly to the backend." */
  directBackendSync: boolean
  /** "server sync on" */
  cartServerSync: boolean
  /** Totals sync (coupon actions need it). */
  cartTotalsSync: boolean
  /** "out-of-stock allowed in the cart" */
  allowOutOfStockInCart: boolean
  /** "below 0 if zero-price products are allowed" */
  allowZeroPrice: boolean
  /** VSF cart.bypassCartLoaderForAuthorizedUsers */
  bypassCartLoaderForAuthorizedUsers: boolean
  /** Register Background Sync for failed orders (where supported). */
  backgroundSync: boolean
  /** "The offline-order notification is enabled." */
  offlineOrderConfirmation: boolean
}

function readDataset(): Record<string, string | undefined> {
  return typeof document !== 'undefined' ? { ...document.documentElement.dataset } : {}
}

const flag = (v: string | undefined, fallback: boolean) =>
  v === undefined ? fallback : v === 'true' || v === '1'

/** The page's settings: the shop's defaults, then what the server rendered into `<html data-*>`. */
export function clientSettings(): ClientSettings {
  const ds = readDataset()
  return {
    supportEmail: ds.supportEmail ?? 'support@example.com',
    offlineOrdersAutoTransmit: flag(ds.offlineOrdersAutoTransmit, false),
    priceTiersEnabled: flag(ds.priceTiers, false),
    directBackendSync: true,
    cartServerSync: true,
    cartTotalsSync: true,
    allowOutOfStockInCart: true,
    allowZeroPrice: false,
    bypassCartLoaderForAuthorizedUsers: true,
    backgroundSync: true,
    offlineOrderConfirmation: true,
  }
}
