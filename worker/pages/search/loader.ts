/**
 * Search results page data: the port's full-text product search (name^4, sku^2, category.name^1,
 * fuzziness 2, min score 0.02) as a listing — the same filters, facets and sorts as a category,
 * best match first by default — first page of 24, tiles visible in the request's currency. A query
 * that names a designer is that designer's listing; a misspelt query names its correction.
 */

import { buildFilterGroups, type FacetLabels } from '@shared/components/catalog/facets'
import { type ListingIslandProps, listingParams } from '@shared/components/catalog/listing-query'
import type { ListingState } from '@shared/components/catalog/listing-state'
import { listingTileContext, toTileData, visibleTiles } from '@shared/components/catalog/tile-data'
import { gstRateMap } from '@shared/components/catalog/tile-price'
import { PAGE_SIZE } from '@shared/config/catalog'
import type { Category } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'
import { facetLabels } from '../category/loader'
import { pagePricing } from '../layout/pricing'
import { correctedQuery } from './correction'

interface SearchPageData {
  query: string
  /** The query as the results read it, when a misspelt word was corrected. */
  correction: string | null
  /** The listing (null when there is neither text nor a filter to list by). */
  listing: ListingIslandProps | null
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
  return facetLabels(commerce, { children_data: tree })
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
  const query = q.trim().slice(0, MAX_QUERY_LENGTH)
  const filtered = Object.values(state.chosen).some((v) => v.length > 0)
  if (!query && !filtered) return { query, correction: null, listing: null }
  const commerce = getCommerce(c)
  const currency = c.var.store.currency
  const [labels, pricing] = await Promise.all([searchFacetLabels(c), pagePricing(c)])
  const designer = query ? designerNamed(query, labels) : null
  if (designer && !state.chosen.designer?.length) {
    return { redirect: `/search?designer=${encodeURIComponent(designer.id)}` }
  }
  const res = await commerce.searchProducts(listingParams([], state, 0, PAGE_SIZE, query || undefined))
  const context = listingTileContext(state, labels)
  const tiles = visibleTiles(
    res.items.map((p) => toTileData(p, now, pricing, context)),
    currency,
  )
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
      state,
      tiles,
      total: res.total,
      loaded: res.items.length,
      groups: buildFilterGroups(res.aggregations, labels, currency, state.chosen),
      labels,
      pricing: { country: pricing.country ?? c.var.store.country, gstRates: gstRateMap(pricing.taxRules) },
    },
  }
}
