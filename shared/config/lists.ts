/** Limits of the shopper's product lists kept in the browser. */

/** Recently viewed keeps the newest 20 products. */
export const RECENTLY_VIEWED_MAX = 20
/** A product goes on the wishlist with quantity 1. */
export const WISHLIST_DEFAULT_QTY = 1
