/** Listing, filter and search constants. */

/** "Root category id is 2." */
export const ROOT_CATEGORY_ID = 2
/** The root category's name, shown as 'Home' in breadcrumbs . */
export const DEFAULT_CATEGORY_NAME = 'Default Category'

/** "Default page size is 24." */
export const PAGE_SIZE = 24
/** "Category fetch size is 4000, sorted position:asc." */
export const CATEGORY_FETCH_SIZE = 4000
/**
 * Most products one listing request (a product search with aggregations) may ask for: four pages.
 * Returning to a listing reloads what was loaded before in requests of at most this many.
 */
export const MAX_LISTING_PAGE_SIZE = 4 * PAGE_SIZE
export const CATEGORY_FETCH_SORT = 'position:asc'
/** "Filter aggregation size is 100." */
export const AGGREGATION_SIZE = 100

/** "Default filters: rts, gender, category_product, color, discount, size, category, price", and the designer before price. */
export const DEFAULT_FILTERS = [
  'rts',
  'gender',
  'category_product',
  'color',
  'discount',
  'size',
  'category',
  'designer',
  'price',
] as const
/**
 * Select attributes a product's other fields decide, so the product form does not offer them:
 * colour and size (a configurable's matrix), ready to ship (its stock and lead time) and discount
 * (its special price). Every other select attribute of the catalogue is picked on the form.
 */
export const DERIVED_ATTRIBUTES: readonly string[] = ['color', 'size', 'rts', 'discount']
/** Most values of one filter a listing URL may choose; more are ignored (a facet never offers more than AGGREGATION_SIZE). */
export const MAX_FILTER_VALUES = AGGREGATION_SIZE

export interface PriceRange {
  from: number
  /** Absent for the open-ended top band ("1,00,000 and above"). */
  to?: number
}
/**
 * The price filter counts products in fine buckets of the catalogue price (base currency, major
 * units) whose edges are the 1-2-5 series from 1 to 10,00,000 (1, 2, 5, 10, 20, 50 …), plus
 * [0, 1) and an open top; the filter panel then merges neighbouring buckets into at most
 * MAX_PRICE_BANDS bands with about as many products each (`priceBands` in
 * shared/domain/filters.ts). So the bands follow each listing's own price range in whatever
 * currency the catalogue is in — a ₹499–₹2,50,000 label and a $0.49–$390 shop alike — and every
 * band edge is a round catalogue price. The facet, the listing URLs ('1000-5000', '100000-') and
 * the search engine's buckets all follow from this one list.
 */
export const PRICE_RANGES: readonly PriceRange[] = priceBuckets(1, 1_000_000)
/** The most bands the price filter offers. */
export const MAX_PRICE_BANDS = 5

/** [0, first), then the 1-2-5 series up to `last`, then [last, ∞). */
function priceBuckets(first: number, last: number): PriceRange[] {
  const edges: number[] = []
  for (let decade = first; decade <= last; decade *= 10)
    for (const m of [1, 2, 5]) if (decade * m <= last) edges.push(decade * m)
  const out: PriceRange[] = [{ from: 0, to: edges[0] as number }]
  for (let i = 0; i < edges.length - 1; i++)
    out.push({ from: edges[i] as number, to: edges[i + 1] as number })
  out.push({ from: edges[edges.length - 1] as number })
  return out
}
/** "The default price filter is 0 to 100." */
export const DEFAULT_PRICE_FILTER: Required<PriceRange> = { from: 0, to: 100 }
/** Price catalog filters range on final_price (storefront-query-builder `priceFilterKey`). */
export const PRICE_FILTER_KEY = 'final_price'
/**
 * The shop's own listings filter and count prices on the price each shopper's tile shows (their
 * country's tax in, in their currency's major units): the search engine resolves this field per
 * shopper. Requests to another engine keep PRICE_FILTER_KEY.
 */
export const SHOWN_PRICE_KEY = 'shown_price'

/** "Listing filters always require visibility in 2, 3, 4 and status in 0, 1." */
export const LISTING_VISIBILITY = [2, 3, 4] as const
export const LISTING_STATUS = [0, 1] as const

/** "Out-of-stock products are excluded only if the listing setting for out-of-stock is off. It is currently on." */
export const LIST_OUT_OF_STOCK_PRODUCTS = true

/** Sort options : "Latest, Price: Low to high, Price: High to low. The default sort is created_at descending." */
export const SORT_OPTIONS = [
  { id: 'latest', label: 'Latest', field: 'created_at', order: 'desc' },
  /** Best match first: offered (and the default) only where there is search text; elsewhere it is Latest. */
  { id: 'relevance', label: 'Relevance', field: '_score', order: 'desc' },
  { id: 'price-asc', label: 'Price: Low to high', field: 'final_price', order: 'asc' },
  { id: 'price-desc', label: 'Price: High to low', field: 'final_price', order: 'desc' },
] as const
export type SortId = (typeof SORT_OPTIONS)[number]['id']
export const DEFAULT_SORT: SortId = 'latest'
/** The listing URL's sort parameter (`?sort=price-asc`); absent = DEFAULT_SORT. */
export const SORT_PARAM = 'sort'
/** AMP category: a 4-column product grid. */
export const AMP_CATEGORY_COLUMNS = 4

/** "Search boosts: name 4, sku 2, category name 1, fuzziness 2." */
export const SEARCH_BOOSTS = { name: 4, sku: 2, 'category.name': 1 } as const
export const SEARCH_FUZZINESS = 2
/** "Search uses fuzzy matching with a minimum score of 0.02." */
export const SEARCH_MIN_SCORE = 0.02
/** "Search size defaults to 24 if not above 0, and start to 0 if negative." */
export const SEARCH_DEFAULT_SIZE = 24
/** "Search timeouts: 5000 ms client, 1000 ms server." */
export const SEARCH_CLIENT_TIMEOUT_MS = 5000

/** "Listing columns: 2 on small screens, otherwise the column width is 12 divided by the configured number of columns." */
export const LISTING_COLUMNS = { small: 2, grid: 12, configured: 4 } as const

/** "Reviews default page size 50, approved only." (review_status 1 means approved) */
export const REVIEWS_PAGE_SIZE = 50
export const REVIEW_STATUS_APPROVED = 1
