/**
 * Feature flags and their shop defaults. Worker vars (PRICE_TIERS_ENABLED,
 * OFFLINE_ORDERS_AUTO_TRANSMIT) may override the two marked ones at runtime.
 */
export const FLAGS = {
  /** "Out-of-stock products are excluded only if the listing setting for out-of-stock is off. It is currently on" */
  listOutOfStockProducts: true,
  /** "server sync on" */
  cartServerSync: true,
  /** "out-of-stock allowed in the cart" */
  outOfStockAllowedInCart: true,
  /** "minicart counts either lines or sum of quantities by configuration (quantities here)" */
  minicartCountsQuantities: true,
  /** "Offline order automatic transmission is off." (var OFFLINE_ORDERS_AUTO_TRANSMIT) */
  offlineOrdersAutoTransmit: false,
  /** "The offline-order notification is enabled." */
  offlineOrderNotification: true,
  /** Price tiers are off: group id/token are cleared. (var PRICE_TIERS_ENABLED) */
  priceTiers: false,
  /** "URL dispatcher (on)" */
  useUrlDispatcher: true,
  /** Filters are multi-select except price. */
  multiSelectFilters: true,
  /** "Order results are synced directly to the backend." */
  directBackendSync: true,
  /** Totals sync is on (coupon actions need it and a connected cart). */
  totalsSync: true,
  /** "Optionally the childSku in the URL is updated to the chosen variant." — on. */
  updateUrlChildSku: true,
  /** Zero-price products are not allowed ("refused when price is at or below 0"). */
  allowZeroPriceProducts: false,
  /** Multistore is switched off. */
  multistore: false,
} as const
