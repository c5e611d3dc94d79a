/**
 * Client-side catalogue search for the listing island: GET
 * /api/catalog/{index}/product/_search with the DSL in `request` (client/api adds the store
 * headers), 5000 ms client time-out, the Elasticsearch-shaped answer turned into tiles.
 */

import type { AggregationMap } from '@shared/components/catalog/facets'
import { type TileContext, type TileData, toTileData } from '@shared/components/catalog/tile-data'
import type { TilePricing } from '@shared/components/catalog/tile-price'
import { SEARCH_CLIENT_TIMEOUT_MS } from '@shared/config/catalog'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { Product } from '@shared/schemas/catalog'
import { ApiError, apiRaw } from '../../api'
import { pageCountry } from '../page-price'
import { sentPagePricing } from './page-pricing'

interface ListingPage {
  tiles: TileData[]
  total: number
  /** Products in this page before tile visibility filtering (advances `from`). */
  fetched: number
  aggregations: AggregationMap
  offline?: boolean
}

interface SearchHit {
  _source?: Record<string, unknown>
}
interface SearchResponse {
  hits?: { total?: number | { value?: number }; hits?: SearchHit[] }
  aggregations?: AggregationMap
}

/** The tax rules the server rendered into <html data-tax-rules> for a shopper abroad (none at home). */
function documentTaxRules(): TaxRuleFields[] | null {
  const raw = typeof document !== 'undefined' ? document.documentElement.dataset.taxRules : undefined
  if (!raw) return null
  try {
    const parsed = JSON.parse(raw) as unknown
    return Array.isArray(parsed) ? (parsed as TaxRuleFields[]) : null
  } catch {
    return null
  }
}

/**
 * The pricing for tiles built in the browser: what a category page sent, else the browsing country
 * with the tax rules every page carries for a shopper abroad.
 */
function pageTilePricing(): TilePricing {
  return sentPagePricing() ?? { country: pageCountry(), taxRules: documentTaxRules() }
}

/** Turns an Elasticsearch-shaped answer into a listing page (tiles for `now`). */
export function parseSearchResponse(body: unknown, now: number, context?: TileContext): ListingPage {
  const res = (body ?? {}) as SearchResponse
  const hits = Array.isArray(res.hits?.hits) ? res.hits.hits : []
  const rawTotal = res.hits?.total
  const total = typeof rawTotal === 'number' ? rawTotal : (rawTotal?.value ?? hits.length)
  const tiles: TileData[] = []
  for (const hit of hits) {
    const src = hit._source as (Product & Record<string, unknown>) | undefined
    if (!src || typeof src.sku !== 'string' || typeof src.name !== 'string') continue
    tiles.push(toTileData({ ...src, slug: src.slug ?? src.url_key ?? '' }, now, pageTilePricing(), context))
  }
  return { tiles, total, fetched: hits.length, aggregations: res.aggregations ?? {} }
}

/** A catalogue search as the browser sends it: the path and its query (see listing-query's catalogSearchQuery). */
interface SearchCall {
  path: string
  query: Record<string, string | number | undefined>
}

/** Fetches one listing page; rejects on network errors and non-2xx answers. */
export async function fetchListingPage(
  { path, query }: SearchCall,
  signal?: AbortSignal,
  context?: TileContext,
): Promise<ListingPage> {
  const timeout = AbortSignal.timeout(SEARCH_CLIENT_TIMEOUT_MS)
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
  const { status, body } = await apiRaw(path, { query, signal: combined })
  if (status < 200 || status >= 300) throw new ApiError(`catalog search failed (${status})`, status, body)
  return parseSearchResponse(body, Date.now(), context)
}
