/**
 * Product search from the browser: the full-text DSL of shared/domain/search-query through GET
 * /api/catalog, cache-first by request hash (the client/storage catalogue cache), an empty result
 * flagged offline when the fetch fails. Tiles hidden for the currency are dropped.
 */

import { catalogSearchQuery, textSearchRequest } from '@shared/components/catalog/listing-query'
import { type TileData, visibleTiles } from '@shared/components/catalog/tile-data'
import { SEARCH_DEFAULT_SIZE } from '@shared/config/catalog'
import { currentApiContext } from '../../api'
import { createCatalogCache } from '../../storage/catalog-cache'
import { collection } from '../../storage/storage-manager'
import { fetchListingPage, type ListingPage } from '../category/catalog-fetch'

export interface SearchResult {
  tiles: TileData[]
  total: number
  offline?: boolean
  cache?: boolean
}

let cache: ReturnType<typeof createCatalogCache<ListingPage>> | null = null

function catalogCache() {
  if (!cache) cache = createCatalogCache<ListingPage>(collection('elasticCache'))
  return cache
}

/** Searches products by text (fuzzy); never rejects. */
export async function searchProducts(
  text: string,
  from = 0,
  size = SEARCH_DEFAULT_SIZE,
): Promise<SearchResult> {
  const ctx = currentApiContext()
  const req = textSearchRequest(text, from, size)
  const request = {
    store: ctx.storeCode,
    type: 'product',
    searchQuery: text,
    size,
    from,
    currency: ctx.currency,
  }
  let page: ListingPage & { offline?: boolean; cache?: boolean }
  try {
    page = await catalogCache().search(
      request,
      () => fetchListingPage(catalogSearchQuery(req)),
      () => ({ tiles: [], total: 0, fetched: 0, aggregations: {} }),
    )
  } catch {
    // Storage itself failed: go to the network directly.
    try {
      page = await fetchListingPage(catalogSearchQuery(req))
    } catch {
      page = { tiles: [], total: 0, fetched: 0, aggregations: {}, offline: true }
    }
  }
  return {
    tiles: visibleTiles(page.tiles, ctx.currency),
    total: page.total,
    offline: page.offline,
    cache: page.cache,
  }
}
