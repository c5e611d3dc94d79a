/**
 * Every user-visible message of both specs (catalogue §2/§5/§8, transactions §2/§4/§5/§8), VERBATIM.
 * Fixed strings live in `MSG`; messages with placeholders are template functions named `msg*`.
 * Do not reword: the spec's text (including its spelling, e.g. 'transfered') is the requirement.
 */

export const MSG = {
  // --- Cart (transactions §5, §8) ---
  /** Add refused when price ≤ 0. */
  priceUnknown: 'Product price is unknown, product cannot be added to the cart!',
  /** Stock result out_of_stock refuses the add. */
  outOfStockCannotAdd: 'The product is out of stock and cannot be added to the cart!',
  /** Stock result volatile allows the add with this warning. */
  stockVolatile:
    'The system is not sure about the stock quantity (volatile). Product has been added to the cart for pre-reservation.',
  productAddedToCart: 'Product has been added to the cart!',
  /** Action label of the 'added' notification (unless external checkout). */
  proceedToCheckout: 'Proceed to checkout',
  productQuantityUpdated: 'Product quantity has been updated!',
  inStock: 'In stock!',
  /** Product errors containing this text are not shown (case-insensitive match). */
  productNotAvailableFragment: 'product that you are trying to add is not available',
  /** Non-200 string results containing this text are not shown (case-insensitive match). */
  authorizedToAccessSelfFragment: 'authorized to access self.',
  totalsCountryMissing: 'Please do set the tax.defaultCountry in order to calculate totals.',

  // --- Orders (transactions §4, §8) ---
  processingOrder: 'Processing order...',
  orderException: 'The order can not be transfered because of server error. Order has been queued',
  queuedOrderInvalidAddress:
    'Address provided in checkout contains invalid data... Your order has been canceled.',
  queuedOrderOutOfStock: "Some products you've ordered are out of stock. Your order has been canceled.",
  /** Confirmation route title (transactions §2). */
  orderConfirmationTitle: 'Order Confirmation',

  // --- Responses / sync tasks (transactions §8) ---
  badContentType: 'Error with response - bad content-type!',
  wrongResponseFormat: 'Unhandled error, wrong response format!',
  tokenRefreshFailed: 'Error refreshing user token. User is not authorized to access the resource',
  tokenRefreshExhausted:
    'Internal Application error while refreshing the tokens. Please clear the storage and refresh page.',
  /** Button label of error notifications ('with OK'). */
  ok: 'OK',

  // --- Account (transactions §8) ---
  passwordChanged: 'Password has successfully been changed',
  accountUpdated: 'Account data has successfully been updated',
  loggedOut: "You're logged out",

  // --- Reviews (transactions §8) ---
  reviewFailed: 'Something went wrong. Try again in a few seconds.',
  reviewSubmitted: 'You submitted your review for moderation.',
  reviewAdding: 'Adding a review ...',

  // --- Data loading / offline (catalogue §8, transactions §8) ---
  offlineRedirectHome:
    'The product, category or CMS page is not available in Offline mode. Redirecting to Home.',
  /** Data-loading errors containing this fragment redirect home with `offlineRedirectHome`. */
  queryReturnedEmptyFragment: 'query returned empty result',
  noProductsSynchronized: 'No products synchronized for this category. Please come back while online!',
  noFiltersSynchronized: 'No filters synchronized for this category. Please come back while online!',
  productQueryEmpty: 'Product query returned empty result',
  cmsQueryEmpty: 'CMS query returned empty result',
  cmsBlockQueryEmpty: 'CMS block query returned empty result',
  noEntityTypeRegistered: 'No entity type registered',

  // --- URL dispatcher (transactions §2) ---
  routeNotFound: 'Route not found',
  noMappingFound: 'No mapping found',

  // --- Product page / tiles (catalogue §2, §4, §5; transactions §2) ---
  noAvailableVariants: 'No available product variants',
  /**
   * The wrong-attributes notice (catalogue §4 names it without text); VSF 1.12's wording, not the spec's.
   */
  wrongAttributes:
    'No such configuration for the product. Please do choose another combination of attributes.',
  /** 'Out-of-stock notice' on a failed product reload (catalogue §8); the spec's out-of-stock text. */
  productLoadFailed: 'The product is out of stock and cannot be added to the cart!',
  outOfStockBadge: 'Out Of Stock',
  showInterest: 'Show Interest',
  checkAvailableSizes: 'Check available sizes',
  productDetails: 'Product details',
  notAvailablePlaceholder: 'N/A',
  fieldRequired: 'Field is required.',
  mustBeGreaterThanZero: 'Must be greater than 0',
  customOptionsError: 'Please configure product custom options and fix the validation errors',
  bundleOptionsError: 'Please configure product bundle options and fix the validation errors',

  // --- AMP category empty state (transactions §2) ---
  noProductsFoundTitle: 'No products found!',
  noProductsFoundText:
    'Please change Your search criteria and try again. If still not finding anything relevant, please visit the Home page and try out some of our bestsellers!',

  // --- Page titles (catalogue §2) ---
  contactTitle: 'Contact',

  // --- Sort labels (catalogue §2) ---
  sortLatest: 'Latest',
  sortPriceLowToHigh: 'Price: Low to high',
  sortPriceHighToLow: 'Price: High to low',

  // --- Breadcrumbs (catalogue §2) ---
  defaultCategoryName: 'Default Category',
  home: 'Home',
} as const

export type MessageKey = keyof typeof MSG

/** 'Category query returned empty result {key} = {value}' (catalogue §8). */
export function msgCategoryQueryEmpty(key: string, value: string | number): string {
  return `Category query returned empty result ${key} = ${value}`
}

/** 'Product query returned empty result product status = {n} or visibility = {n}' (catalogue §8). */
export function msgProductRejected(status: number, visibility: number): string {
  return `Product query returned empty result product status = ${status} or visibility = ${visibility}`
}

/** 'Internal validation error. Please check if all required fields are filled in. Please contact us on {email}'. */
export function msgOrderValidation(email: string): string {
  return `Internal validation error. Please check if all required fields are filled in. Please contact us on ${email}`
}

/** 'Product {productName} has been added to the compare!' (catalogue §4). */
export function msgCompareAdded(productName: string): string {
  return `Product ${productName} has been added to the compare!`
}

/** 'Product {productName} has been removed from compare!' (the spec's 'removed from compare!' wording). */
export function msgCompareRemoved(productName: string): string {
  return `Product ${productName} has been removed from compare!`
}

/** 'Please provide the search key {key} for product/single action!' (transactions §5). */
export function msgProductSearchKeyMissing(key: string): string {
  return `Please provide the search key ${key} for product/single action!`
}

/** True when a message contains `fragment`, case-insensitively (the spec's 'containing' rules). */
export function messageContains(message: string, fragment: string): boolean {
  return message.toLowerCase().includes(fragment.toLowerCase())
}

/** Error notifications are suppressed for texts containing the spec's two exempt fragments (transactions §8). */
export function isSuppressedErrorMessage(message: string): boolean {
  return (
    messageContains(message, MSG.productNotAvailableFragment) ||
    messageContains(message, MSG.authorizedToAccessSelfFragment)
  )
}
