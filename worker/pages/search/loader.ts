/**
 * Search results page data: the port's full-text product search (name^4, sku^2, category.name^1,
 * fuzziness 2, min score 0.02) as a listing — the same filters, facets and sorts as a category,
 * best match first by default — first page of 24, tiles visible in the request's currency. A query
 * that names a designer is that designer's listing; a misspelt query names its correction.
 */

import { type FacetLabels, type FilterGroup, knownChoices } from '@shared/components/catalog/facets'
import { PLACEHOLDER_IMAGE, tileImage } from '@shared/components/catalog/images'
import { type ListingIslandProps, listingParams } from '@shared/components/catalog/listing-query'
import {
  hasFilters,
  type ListingState,
  parseSearchListingQuery,
} from '@shared/components/catalog/listing-state'
import { listingTileContext, type TileData } from '@shared/components/catalog/tile-data'
import { PAGE_SIZE } from '@shared/config/catalog'
import { formatUnitPrice } from '@shared/domain/currency'
import { MSG } from '@shared/i18n/messages'
import type { Category } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import { derivedFrom } from '../../commerce/derived'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'
import type { KeptMarkup } from '../../platform/render/kept-bytes'
import { facetLabels } from '../category/loader'
import { gridFilters, gridTiles } from '../layout/grid-tiles'
import { pagePricing, pageRules } from '../layout/pricing'
import { correctedQuery } from './correction'

interface SearchPageData {
  query: string
  /** The query as the results read it, when a misspelt word was corrected. */
  correction: string | null
  /** The listing (null when there is neither text nor a filter to list by). */
  listing: ListingIslandProps | null
  /** The markup of the listing's filter panel (layout/grid-tiles.tsx); '' without a listing. */
  filterPanel: KeptMarkup
}

/** The longest query we pass on (longer input is cut, never an error). */
const MAX_QUERY_LENGTH = 100

/** Folds case, accents and spacing, so 'meera  IYER' names the designer 'Meera Iyer'. */
function normalised(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
}

/** The designer option a whole query names (id and label), or null. */
function designerNamed(query: string, labels: FacetLabels): { id: string; label: string } | null {
  const wanted = normalised(query)
  if (!wanted) return null
  for (const [id, label] of Object.entries(labels.options.designer ?? {})) {
    if (normalised(label) === wanted) return { id, label }
  }
  return null
}

/** The facet labels of a search: every attribute's options and every category's name. */
async function searchFacetLabels(c: Context<AppEnv>): Promise<FacetLabels> {
  const commerce = getCommerce(c)
  const tree = await commerce.getCategoryTree().catch(() => {
    markDegraded(c)
    return [] as Category[]
  })
  // One root per (memoised) tree, so the labels built for it are kept with it (facetLabels), and
  // the filter panels kept by those labels (layout/grid-tiles.tsx) are found again.
  return facetLabels(
    commerce,
    derivedFrom(tree, 'search category root', () => ({ children_data: tree })),
  )
}

/** The query as it is searched: trimmed and cut to MAX_QUERY_LENGTH (longer input is never an error). */
function searchText(q: string): string {
  return q.trim().slice(0, MAX_QUERY_LENGTH)
}

/**
 * Loads the search results for `q` with the listing state of the URL. The query text of a designer's
 * name answers a redirect target instead: that designer's listing (their products, not the words).
 */
export async function loadSearchPage(
  c: Context<AppEnv>,
  q: string,
  state: ListingState,
  now: number,
): Promise<SearchPageData | { redirect: string }> {
  const query = searchText(q)
  // No words and no filter chosen (or, once the labels are known, only values no filter offers):
  // the empty search page.
  const nothing = { query, correction: null, listing: null, filterPanel: { html: '' } }
  if (!query && !hasFilters(state)) return nothing
  const commerce = getCommerce(c)
  const currency = c.var.store.currency
  const [labels, pricing] = await Promise.all([searchFacetLabels(c), pagePricing(c)])
  const designer = query ? designerNamed(query, labels) : null
  if (designer && !state.chosen.designer?.length) return { redirect: designerSearchPath(designer.id) }
  const text = query || undefined
  const shown = knownChoices(state, labels)
  if (!query && !hasFilters(shown)) return nothing
  const res = await commerce.searchProducts(listingParams([], shown, 0, PAGE_SIZE, text))
  // The category page's kept tiles, filter groups and filter panel (layout/grid-tiles.tsx).
  const tiles = gridTiles(res.items, now, pricing, listingTileContext(shown, labels), currency)
  const filters = gridFilters(res.aggregations, labels, currency, shown, text)
  const country = pricing.country ?? c.var.store.country
  return {
    query,
    correction: query
      ? correctedQuery(
          query,
          res.items.map((p) => p.name),
        )
      : null,
    listing: {
      categoryId: 0,
      categoryIds: [],
      ...(query ? { text: query } : {}),
      currency,
      state: shown,
      tiles,
      total: res.total,
      loaded: res.items.length,
      groups: filters.groups as FilterGroup[],
      labels,
      pricing: { country, taxRules: pageRules(pricing.taxRules, country) },
    },
    filterPanel: filters.panel,
  }
}

/** Where a designer's products are listed (a query naming the designer leads there). */
function designerSearchPath(designerId: string): string {
  return `/search?designer=${encodeURIComponent(designerId)}`
}

/** What the header's search panel shows for a query (GET /search/suggest). */
interface SearchSuggestions {
  query: string
  /** The query as the results read it, when a misspelt word was corrected. */
  correction: string | null
  /** The designer the whole query names: the results are that designer's products. */
  designer: { id: string; label: string } | null
  /** The first results, ready to show (the browser needs no catalogue or price code for them). */
  items: SuggestionItem[]
  total: number
  /** The results page these suggestions are the start of. */
  allUrl: string
}

/** One result of the panel: what the results page's tile shows of it, in the shopper's currency. */
interface SuggestionItem {
  sku: string
  name: string
  url: string
  /** The tile's image (or the placeholder). */
  image: string
  /** The tile's price as the shopper reads it, or the enquiry label of a product out of stock. */
  price: string
}

/** A tile as the panel lists it: the same image and formatted price as the results page's tile. */
function suggestionItem(tile: TileData, currency: string): SuggestionItem {
  return {
    sku: tile.sku,
    name: tile.name,
    url: tile.url,
    image: tile.image ? tileImage(tile.image).src : PLACEHOLDER_IMAGE,
    price: tile.inStock ? formatUnitPrice(tile.finalPrice, currency) : MSG.showInterest,
  }
}

/** Shortest query the panel searches for. */
const SUGGEST_MIN_LENGTH = 2

/**
 * The search panel's answer, by the results page's own rules: a query naming a designer lists that
 * designer's products (as the page's redirect does), any other query is the page's full-text search,
 * with the page's "Showing results for" correction. The first `size` visible tiles.
 */
export async function loadSearchSuggestions(
  c: Context<AppEnv>,
  q: string,
  size: number,
  now: number,
): Promise<SearchSuggestions> {
  const query = searchText(q)
  const empty = { query, correction: null, designer: null, items: [], total: 0 }
  if (query.length < SUGGEST_MIN_LENGTH) return { ...empty, allUrl: '/search' }
  const commerce = getCommerce(c)
  const currency = c.var.store.currency
  const [labels, pricing] = await Promise.all([searchFacetLabels(c), pagePricing(c)])
  const designer = designerNamed(query, labels)
  const allUrl = designer ? designerSearchPath(designer.id) : `/search?q=${encodeURIComponent(query)}`
  // The listing state of the page the panel links to, so its first results are the panel's.
  const state = parseSearchListingQuery(new URLSearchParams(allUrl.slice(allUrl.indexOf('?') + 1)))
  // The panel shows no facets: the same search without aggregations.
  const params = listingParams([], state, 0, size, designer ? undefined : query)
  const res = await commerce.searchProducts({ ...params, aggregations: [] })
  const context = listingTileContext(state, labels)
  return {
    query,
    correction: designer
      ? null
      : correctedQuery(
          query,
          res.items.map((p) => p.name),
        ),
    designer,
    items: gridTiles(res.items, now, pricing, context, currency).map((tile) =>
      suggestionItem(tile, currency),
    ),
    total: res.total,
    allUrl,
  }
}
