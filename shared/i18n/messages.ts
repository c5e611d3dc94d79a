/**
 * Every user-visible message of the shop, VERBATIM: shoppers, analytics and tests match on these
 * exact texts (the storefront's established wording, kept compatible with vue-storefront 1.12).
 * Fixed strings live in `MSG`; messages with placeholders are template functions named `msg*`.
 * Do not reword: the text (including its spelling, e.g. 'transfered') is the requirement.
 */

export const MSG = {
  // --- Cart ---
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

  // --- Orders ---
  processingOrder: 'Processing order...',
  orderException: 'The order can not be transfered because of server error. Order has been queued',
  /** The shop refused the order for now (too many orders from one network or account: a 429). */
  orderHeldBack:
    'The shop is receiving too many orders from your network just now. Your order is saved on this device and will be sent again automatically: there is no need to place it again.',
  queuedOrderInvalidAddress:
    'Address provided in checkout contains invalid data... Your order has been canceled.',
  queuedOrderOutOfStock: "Some products you've ordered are out of stock. Your order has been canceled.",

  // --- Responses / sync tasks ---
  wrongResponseFormat: 'Unhandled error, wrong response format!',
  tokenRefreshFailed: 'Error refreshing user token. User is not authorized to access the resource',
  tokenRefreshExhausted:
    'Internal Application error while refreshing the tokens. Please clear the storage and refresh page.',
  /** Button label of error notifications ('with OK'). */
  ok: 'OK',

  // --- Account ---
  passwordChanged: 'Password has successfully been changed',
  accountUpdated: 'Account data has successfully been updated',
  loggedOut: "You're logged out",

  // --- Reviews ---
  reviewFailed: 'Something went wrong. Try again in a few seconds.',
  reviewSubmitted: 'You submitted your review for moderation.',
  reviewAdding: 'Adding a review ...',

  // --- Data loading / offline ---
  noProductsSynchronized: 'No products synchronized for this category. Please come back while online!',
  noFiltersSynchronized: 'No filters synchronized for this category. Please come back while online!',

  // --- Product page / tiles ---
  noAvailableVariants: 'No available product variants',
  /**
   * The wrong-attributes notice (shown when the chosen attributes match no variant); VSF 1.12's wording.
   */
  wrongAttributes:
    'No such configuration for the product. Please do choose another combination of attributes.',
  /** 'Out-of-stock notice' on a failed product reload; the same text as the out-of-stock refusal. */
  productLoadFailed: 'The product is out of stock and cannot be added to the cart!',
  outOfStockBadge: 'Out Of Stock',
  showInterest: 'Show Interest',
  notAvailablePlaceholder: 'N/A',
  fieldRequired: 'Field is required.',
  mustBeGreaterThanZero: 'Must be greater than 0',
  customOptionsError: 'Please configure product custom options and fix the validation errors',
  bundleOptionsError: 'Please configure product bundle options and fix the validation errors',

  // --- AMP category empty state ---
  noProductsFoundTitle: 'No products found!',
  noProductsFoundText:
    'Please change Your search criteria and try again. If still not finding anything relevant, please visit the Home page and try out some of our bestsellers!',

  // --- Page titles ---

  // --- Listing, product, checkout and order screens ---
  /** Before the names of a tile's colour swatches (read by screen readers). */
  tileColours: 'Colours:',
  /** A filter or sort change that got no answer: the page stays as it was. */
  listingOffline: 'You seem to be offline: nothing was changed. Please try again when back online.',
  /** Before the list of applied filter chips. */
  appliedFilters: 'Applied filters',
  notifyMe: 'Notify me',
  /** A grouped product's piece whose own options are chosen on its page. */
  pieceChooseOptions: 'Choose its options',
  couponRefused: 'This code cannot be applied.',

  home: 'Home',
} as const

/**
 * Texts of 'Send now' on orders placed offline, whose code loads only when orders wait: kept out
 * of MSG (every page's bundle carries MSG whole).
 */
export const QUEUE_MSG = {
  /** The one order was sent (several: msgQueuedOrdersSent). */
  queuedOrdersSent: 'Your order has been sent to the shop.',
  /** Some could not be sent (still offline or the shop did not answer). */
  queuedOrdersNotSent:
    'Your order could not be sent yet. It is saved on this device and will be sent when the connection is back.',
  queuedOrdersRetry: 'Try again',
} as const

/** 'Your {count} orders have been sent to the shop.' (after 'Send now' on several offline orders). */
export function msgQueuedOrdersSent(count: number): string {
  return `Your ${count} orders have been sent to the shop.`
}

/**
 * Texts of "Notify me" and the PIN check, whose code loads only when used: kept out of MSG (every
 * page's bundle carries MSG whole) so they travel with that code alone.
 */
export const PRODUCT_EXTRA_MSG = {
  notifyMeLabel: 'E-mail me when it is back',
  notifyMeDone:
    "Thank you: we'll e-mail you when it is back. If you have not confirmed back-in-stock mail to this address before, please confirm it with the link we have just sent.",
  pinInvalid: 'Enter a six-digit PIN code.',
  codAvailable: 'Cash on delivery available.',
  offlineTryAgain: 'You seem to be offline. Please try again when back online.',
} as const

/**
 * Texts only server-rendered markup shows (product page sections, the footer, the page-not-found
 * page). Kept apart from MSG so the islands' bundles, which import MSG whole, do not carry them.
 */
export const PAGE_TEXT = {
  pinLabel: 'Delivery to your PIN code',
  pinCheck: 'Check',
  descriptionTitle: 'Description',
  fabricCareTitle: 'Fabric & care',
  fabricLabel: 'Fabric',
  careLabel: 'Care',
  shippingReturnsTitle: 'Shipping & returns',
  shippingReturnsText:
    'Free shipping across India; international orders ship with duties payable on delivery. Unworn pieces with their tags can be returned within 7 days of delivery; made-to-measure and altered pieces cannot.',
  footerCare: 'Customer care',
  footerHouse: 'The house',
  footerPolicies: 'Policies',
  footerPayment: 'We accept',
  footerSocial: 'Follow us',
  notFoundTitle: 'Page not found',
  notFoundMessage: 'We could not find the page you were looking for.',
  notFoundSearch: 'Search the shop',
  notFoundPopular: 'Popular categories',
  offlineRedirectHome:
    'The product, category or CMS page is not available in Offline mode. Redirecting to Home.',
  totalsCountryMissing: 'Please do set the tax.defaultCountry in order to calculate totals.',
  cmsBlockQueryEmpty: 'CMS block query returned empty result',
  productQueryEmpty: 'Product query returned empty result',
  cmsQueryEmpty: 'CMS query returned empty result',
  noEntityTypeRegistered: 'No entity type registered',
  checkAvailableSizes: 'Check available sizes',
  /** Confirmation route title. */
  orderConfirmationTitle: 'Order Confirmation',
  productDetails: 'Product details',
  contactTitle: 'Contact',
} as const

/** 'Category query returned empty result {key} = {value}'. */
export function msgCategoryQueryEmpty(key: string, value: string | number): string {
  return `Category query returned empty result ${key} = ${value}`
}

/** 'Product query returned empty result product status = {n} or visibility = {n}'. */
export function msgProductRejected(status: number, visibility: number): string {
  return `Product query returned empty result product status = ${status} or visibility = ${visibility}`
}

/** 'Internal validation error. Please check if all required fields are filled in. Please contact us on {email}'. */
export function msgOrderValidation(email: string): string {
  return `Internal validation error. Please check if all required fields are filled in. Please contact us on ${email}`
}

/** 'Product {productName} has been added to the compare!'. */
export function msgCompareAdded(productName: string): string {
  return `Product ${productName} has been added to the compare!`
}

/** 'Product {productName} has been removed from compare!' (with 'removed from compare!', not 'the compare'). */
export function msgCompareRemoved(productName: string): string {
  return `Product ${productName} has been removed from compare!`
}

/** 'Please provide the search key {key} for product/single action!'. */
export function msgProductSearchKeyMissing(key: string): string {
  return `Please provide the search key ${key} for product/single action!`
}

/** 'Showing results for “{query}”': the search corrected a misspelt word. */
export function msgShowingResultsFor(query: string): string {
  return `Showing results for “${query}”`
}

/** The search panel's heading when the query names a designer: their pieces are listed. */
export function msgPiecesBy(designer: string): string {
  return `Pieces by ${designer}`
}

/** 'Delivery to {pin} by {date}.' on the product page. */
export function msgDeliveryBy(pin: string, date: string): string {
  return `Delivery to ${pin} by ${date}.`
}

/** A star rating for screen readers: 'Rated 4.3 out of 5 by 12 reviewers'. */
export function msgRatingLabel(average: number, count: number): string {
  return `Rated ${average.toFixed(1)} out of 5 by ${count} ${count === 1 ? 'reviewer' : 'reviewers'}`
}

/** True when a message contains `fragment`, case-insensitively (the 'containing' rules of error handling). */
function messageContains(message: string, fragment: string): boolean {
  return message.toLowerCase().includes(fragment.toLowerCase())
}

/** Error notifications are suppressed for texts containing either of the two exempt fragments. */
export function isSuppressedErrorMessage(message: string): boolean {
  return (
    messageContains(message, MSG.productNotAvailableFragment) ||
    messageContains(message, MSG.authorizedToAccessSelfFragment)
  )
}

/** What to narrow in a search refused for its cost, by the part of it that weighs most. */
const SEARCH_COST_ADVICE = {
  query:
    'use fewer clauses (fewer should clauses counted towards minimum_should_match, fewer exists tests, fewer full-text fields, less nesting)',
  aggregations: 'ask for fewer aggregations or fewer range buckets',
  sort: 'sort on fewer fields, or on price, final_price, created_at or updated_at',
  page: 'ask for fewer hits at a time (a smaller size)',
} as const

/** The 400 of a catalogue search whose estimated work over the catalogue is over the budget. */
export function msgSearchOverBudget(o: {
  cost: number
  budget: number
  products: number
  heaviest: keyof typeof SEARCH_COST_ADVICE
}): string {
  return `Search is too costly for this catalogue: it would do about ${o.cost.toLocaleString('en-US')} units of work over ${o.products.toLocaleString('en-US')} products (at most ${o.budget.toLocaleString('en-US')} per search); most of it is its ${o.heaviest}: ${SEARCH_COST_ADVICE[o.heaviest]}`
}
