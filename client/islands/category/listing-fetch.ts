/**
 * What the listing needs only once the shopper changes a filter or scrolls for more: the request
 * for a listing state and the page it answers, with the filter groups of its facets. Loaded on the
 * first such change, so the category page's first load does not carry the search-request builder.
 */
import { buildFilterGroups, type FacetLabels } from '@shared/components/catalog/facets'
import { catalogSearchQuery, listingSearchRequest } from '@shared/components/catalog/listing-query'
import type { ListingState } from '@shared/components/catalog/listing-state'
import { listingTileContext } from '@shared/components/catalog/tile-data'
import { fetchListingPage } from './catalog-fetch'

/** Fetches one page of a listing state; rejects on network errors and non-2xx answers. */
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
  return { ...page, groups: buildFilterGroups(page.aggregations, q.labels, q.currency, state.chosen) }
}
