/**
 * Search results page:
 *   GET /search?q=   the products matching the text as a listing: filters, facets, sort (best match
 *                    first unless another is chosen), infinite scroll; a no-results state; not indexed.
 *   GET /search?designer=ID   a designer's products (where a query naming a designer leads).
 *   GET /search/suggest?q=   the header's search panel: the first results of the same search as JSON
 *                    (a designer's name lists their products, a misspelt query names its correction).
 * A misspelt query says which words the results are for ("Showing results for …").
 */
import { hasFilters, parseSearchListingQuery } from '@shared/components/catalog/listing-state'
import { MSG, msgShowingResultsFor } from '@shared/i18n/messages'
import { ok } from '../../platform/http'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { keptListing } from '../layout/grid-tiles'
import { loadSearchPage, loadSearchSuggestions } from './loader'

const searchPage: RouteHandler = async (c) => {
  const url = new URL(c.req.url)
  const state = parseSearchListingQuery(url.searchParams)
  const data = await loadSearchPage(c, url.searchParams.get('q') ?? '', state, Date.now())
  if ('redirect' in data) return c.redirect(data.redirect, 302)
  // Anonymous and the same for every visitor of this store/currency: edge-cached like listings
  // (the importer purges `search` with the catalogue), when the page shows what its URL names (no
  // values no filter offers: each made-up URL would be an entry of its own).
  if (data.listing ? data.listing.state === state : !hasFilters(state)) c.set('cacheTags', ['search'])
  const designer = data.query ? null : (state.chosen.designer ?? [])
  const designerLabel =
    designer?.length === 1 ? (data.listing?.labels.options.designer?.[designer[0]?.id ?? ''] ?? null) : null
  const title = data.query ? `Search results for “${data.query}”` : (designerLabel ?? 'Search')
  const { listing } = data
  // The grid's tiles past its first row and the filter panel, as kept markup (layout/grid-tiles.tsx).
  const island = listing ? keptListing(listing, data.filterPanel, c.var.config) : null
  return renderPage(
    c,
    <section className="search-page">
      <h1>{title}</h1>
      <form aria-label="Product search" action="/search" method="get" className="search-page__form">
        <label htmlFor="search-page-q" className="visually-hidden">
          Search products
        </label>
        <input
          id="search-page-q"
          name="q"
          type="search"
          defaultValue={data.query}
          placeholder="Search products or designers"
        />
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {data.correction ? (
        <p className="search-page__correction" data-testid="search-correction">
          {msgShowingResultsFor(data.correction)}
        </p>
      ) : null}
      {listing && listing.tiles.length === 0 && Object.keys(state.chosen).length === 0 ? (
        <div className="listing__empty" data-testid="search-no-results">
          <h2>{MSG.noProductsFoundTitle}</h2>
          <p>{MSG.noProductsFoundText}</p>
        </div>
      ) : null}
      {listing && (listing.tiles.length > 0 || Object.keys(state.chosen).length > 0) ? (
        <div data-testid="search-page-results">{island}</div>
      ) : null}
    </section>,
    { title, layout: 'default', entry: 'category', meta: { robots: 'noindex, follow' } },
  )
}

/** Results the panel lists (the results page shows the full first page). */
const PANEL_RESULTS = 8

const searchSuggest: RouteHandler = async (c) => {
  const data = await loadSearchSuggestions(c, c.req.query('q') ?? '', PANEL_RESULTS, Date.now())
  return ok(c, data)
}

export const searchPages = { search: searchPage, 'search-suggest': searchSuggest } satisfies RouteHandlers
