/**
 * What the listing needs only once the shopper changes a filter or scrolls for more: the request
 * for a listing state and the page it answers, with the filter groups of its facets. Loaded on the
 * first such change, so the category page's first load does not carry the search-request builder.
 */
import { buildFilterGroups, type FacetLabels } from '@shared/components/catalog/facets'
import { catalogSearchQuery, listingSearchRequest } from '@shared/components/catalog/listing-query'
import type { ListingState } from '@shared/components/catalog/listing-state'
import { listingTileContext, visibleTiles } from '@shared/components/catalog/tile-data'
import { ApiError } from '../../api'
import { fetchListingPage } from './catalog-fetch'

/**
 * Fetches one page of a listing state, its tiles those visible in the page's currency; rejects on
 * network errors and non-2xx answers. `fetched` counts the products before visibility (it advances
 * `from`).
 */
export async function fetchListingState(
  q: { categoryIds: number[]; text?: string; labels: FacetLabels; currency: string },
  state: ListingState,
  from: number,
  size: number,
) {
  const page = await fetchListingPage(
    catalogSearchQuery(listingSearchRequest(q.categoryIds, state, from, size, q.text)),
    undefined,
    listingTileContext(state, q.labels),
  )
  return {
    ...page,
    tiles: visibleTiles(page.tiles, q.currency),
    groups: buildFilterGroups(page.aggregations, q.labels, q.currency, state.chosen),
  }
}

/** True for a failure the server answered (an error status), false for no answer at all. */
export function isServerAnswer(err: unknown): boolean {
  return err instanceof ApiError
}
