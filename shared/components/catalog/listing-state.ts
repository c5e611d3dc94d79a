/**
 * The listing's filter and sort state, on top of shared/domain/filters (toggle rules, 'min-max'
 * price ids, state ⇄ URL query). The URL is the source of truth so a filtered listing is
 * shareable and the back button restores it:  ?color=49,50&price=50-100&sort=price-asc
 */
import { DEFAULT_SORT, type SortId } from '../../config/catalog'
import {
  countChosenFilters,
  isFilterChosen,
  type ListingState,
  listingStateFromQuery,
  listingStateToQuery,
  PRICE_ATTRIBUTE,
  parsePriceRangeId,
  sortOption,
  toggleFilter,
} from '../../domain/filters'

export type { ListingState }

export const EMPTY_LISTING_STATE: ListingState = { chosen: {}, sort: DEFAULT_SORT }

/** Reads the listing state from a URL query. */
export function parseListingQuery(params: URLSearchParams | string): ListingState {
  return listingStateFromQuery(params)
}

/** The URL query of a state ('' for the default state), stable for equal states. */
export function listingQueryString(state: ListingState): string {
  return listingStateToQuery(state)
}

/**
 * The link to a listing state. A search listing keeps its text (`q`) first and always names its
 * sort, because there no sort means Relevance rather than Latest.
 */
export function listingHref(state: ListingState, text?: string): string {
  const qs = listingQueryString(state)
  if (!text) return qs || '?'
  const params = new URLSearchParams({ q: text })
  const head = `?${params.toString()}`
  const sort = state.sort === DEFAULT_SORT ? `&sort=${DEFAULT_SORT}` : ''
  return qs ? `${head}&${qs.slice(1)}${sort}` : `${head}${sort}`
}

/** A search listing's state from its URL: as any listing's, but Relevance when no sort is named. */
export function parseSearchListingQuery(params: URLSearchParams): ListingState {
  const state = parseListingQuery(params)
  return params.has('sort') ? state : { ...state, sort: 'relevance' }
}

/** True when any filter (attribute or price) is applied. */
export function hasFilters(state: ListingState): boolean {
  return countChosenFilters(state.chosen) > 0
}

/** Is option `id` of `attr` chosen? */
export function isChosen(state: ListingState, attr: string, id: string): boolean {
  return isFilterChosen(state.chosen, attr, id)
}

/** Toggles a filter value (multi-select, except price: one range at a time). */
export function toggleListingFilter(state: ListingState, attr: string, id: string, label = id): ListingState {
  return { ...state, chosen: toggleFilter(state.chosen, attr, { id, label }) }
}

/** The state with every filter removed (sort kept). */
export function clearFilters(state: ListingState): ListingState {
  return { ...state, chosen: {} }
}

/** The state with another sort. */
export function withSort(state: ListingState, sort: SortId): ListingState {
  return { ...state, sort }
}

/** The sort field and order of a state. */
export function sortOf(state: ListingState): { field: string; order: 'asc' | 'desc' } {
  const opt = sortOption(state.sort)
  return { field: opt.field, order: opt.order }
}

/** The chosen price range of a state, or null. */
export function chosenPriceRange(state: ListingState): { from: number; to?: number } | null {
  return parsePriceRangeId(state.chosen[PRICE_ATTRIBUTE]?.[0]?.id)
}

/** Two states select the same products in the same order. */
export function sameListingState(a: ListingState, b: ListingState): boolean {
  return listingQueryString(a) === listingQueryString(b)
}
