/**
 * Search results page data: the port's full-text product search (name^4, sku^2, category.name^1,
 * fuzziness 2, min score 0.02), first page of 24, tiles visible in the request's currency.
 */

import { type TileData, toTileData, visibleTiles } from '@shared/components/catalog/tile-data'
import { SEARCH_DEFAULT_SIZE } from '@shared/config/catalog'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import type { AppEnv } from '../../platform/env'
import { pagePricing } from '../layout/pricing'

interface SearchPageData {
  query: string
  tiles: TileData[]
  total: number
}

/** The longest query we pass on (longer input is cut, never an error). */
const MAX_QUERY_LENGTH = 100

/** Loads the search results for `q` (empty query → no search). */
export async function loadSearchPage(c: Context<AppEnv>, q: string, now: number): Promise<SearchPageData> {
  const query = q.trim().slice(0, MAX_QUERY_LENGTH)
  if (!query) return { query, tiles: [], total: 0 }
  const [res, pricing] = await Promise.all([
    getCommerce(c).searchProducts({ text: query, from: 0, size: SEARCH_DEFAULT_SIZE }),
    pagePricing(c),
  ])
  return {
    query,
    tiles: visibleTiles(
      res.items.map((p) => toTileData(p, now, pricing)),
      c.var.store.currency,
    ),
    total: res.total,
  }
}
