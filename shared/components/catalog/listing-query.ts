/**
 * The listing request both sides send: the server's loader hands `listingParams(...)` to the
 * Commerce port; the listing island and the search panel turn the same params into the same
 * Elasticsearch DSL (shared/domain/search-query) for GET /api/catalog/{index}/product/_search.
 */
import { DEFAULT_FILTERS, DEFAULT_SORT } from '../../config/catalog'
import {
  type CatalogQuery,
  type CatalogSearchRequest,
  catalogSearchRequest,
  termValue,
} from '../../domain/search-query'
import type { TaxRuleFields } from '../../domain/tax-rules'
import type { FacetLabels, FilterGroup } from './facets'
import { chosenPriceRange, type ListingState, sortOf } from './listing-state'
import type { TileData } from './tile-data'

/** The default catalogue index of the VSF API contract. */
const CATALOG_INDEX = 'vue_storefront_catalog'
/** Listing fields the tiles need (keeps client fetches small). */
const TILE_FIELDS = [
  'id',
  'sku',
  'name',
  'slug',
  'url_key',
  'url_path',
  'type_id',
  'parent_sku',
  'price',
  'special_price',
  'special_from_date',
  'special_to_date',
  'final_price',
  'tax_class_id',
  'hsn_code',
  'image',
  'small_image',
  'hover_image',
  'media_gallery',
  'sale',
  'new',
  'rts',
  'rts_qty',
  'international_flag',
  'designer_name',
  'color',
  'rating_summary',
  'review_count',
  'stock',
  'configurable_children.sku',
  'configurable_children.price',
  'configurable_children.special_price',
  'configurable_children.special_from_date',
  'configurable_children.special_to_date',
  'configurable_children.status',
  'configurable_children.stock',
  'configurable_children.color',
  'configurable_children.image',
]

/**
 * The sort a state asks for. Relevance means best match first, which only search text gives: with
 * text no sort is sent (the engine orders by score); without text it falls back to the default.
 */
function listingSort(state: ListingState, text: string | undefined): CatalogQuery['sort'] | undefined {
  if (state.sort !== 'relevance') return sortOf(state)
  return text ? undefined : sortOf({ ...state, sort: DEFAULT_SORT })
}

/** The port / DSL parameters of a listing page: a category's products, or those matching search text. */
export function listingParams(
  categoryIds: number[],
  state: ListingState,
  from: number,
  size: number,
  text?: string,
): CatalogQuery {
  const filters: Record<string, Array<number | string>> = {}
  for (const [attr, values] of Object.entries(state.chosen)) {
    if (attr === 'price' || !values.length) continue
    // The category facet narrows the listing to the chosen sub-categories.
    filters[attr === 'category' ? 'category_ids' : attr] = values.map((v) => termValue(v.id))
  }
  const range = chosenPriceRange(state)
  const params: CatalogQuery = {
    categoryIds,
    filters,
    from,
    size,
    aggregations: DEFAULT_FILTERS,
  }
  const sort = listingSort(state, text)
  if (sort) params.sort = sort
  if (text) params.text = text
  if (range) params.price = range.to === undefined ? { from: range.from } : { from: range.from, to: range.to }
  return params
}

/** The browser's GET /api/catalog request for a listing page (the same body the Commerce port sends). */
export function listingSearchRequest(
  categoryIds: number[],
  state: ListingState,
  from: number,
  size: number,
  text?: string,
): CatalogSearchRequest {
  return catalogSearchRequest(listingParams(categoryIds, state, from, size, text))
}

/** The browser's GET /api/catalog request for a text search (relevance order, no aggregations). */
export function textSearchRequest(text: string, from: number, size: number): CatalogSearchRequest {
  return catalogSearchRequest({ text, from, size })
}

/** Path and query of a catalogue search (the DSL URL-encoded in the `request` query parameter). */
export function catalogSearchQuery(req: CatalogSearchRequest, fields: readonly string[] = TILE_FIELDS) {
  return {
    path: `/api/catalog/${CATALOG_INDEX}/product/_search`,
    query: {
      size: req.size,
      from: req.from,
      sort: req.sort,
      _source_include: fields.join(','),
      request: JSON.stringify(req.request),
    } as Record<string, string | number | undefined>,
  }
}

/** Props of the listing island (JSON). */
export interface ListingIslandProps {
  categoryId: number
  categoryIds: number[]
  /** Search text (the search page): products matching it instead of a category's. */
  text?: string
  currency: string
  state: ListingState
  tiles: TileData[]
  total: number
  /** Products fetched so far (the next page's `from`; hidden international tiles count too). */
  loaded: number
  groups: FilterGroup[]
  labels: FacetLabels
  /** Who the tiles are priced for: the browsing country and the tax rules of it and the home country. */
  pricing: { country: string; taxRules: TaxRuleFields[] }
}
