/**
 * The search panel's results from the browser: GET /search/suggest, the results page's own search
 * (a designer's name lists their products, a misspelt query names its correction), cache-first by
 * request (the client/storage catalogue cache), an empty result flagged offline when the fetch fails.
 */

import { SEARCH_CLIENT_TIMEOUT_MS } from '@shared/config/catalog'
import { currentApiContext } from '../../api'
import { createCatalogCache } from '../../storage/catalog-cache'
import { collection } from '../../storage/storage-manager'

/** What the server answers for a query (worker/pages/search/loader.ts, SearchSuggestions). */
interface Suggestions {
  correction: string | null
  designer: { id: string; label: string } | null
  items: { sku: string; name: string; url: string; image: string; price: string }[]
  total: number
  allUrl: string
}

export interface SearchResult extends Suggestions {
  offline?: boolean
  cache?: boolean
}

let cache: ReturnType<typeof createCatalogCache<Suggestions>> | null = null

function suggestionCache() {
  if (!cache) cache = createCatalogCache<Suggestions>(collection('elasticCache'))
  return cache
}

/** One request to the server; rejects on a network error or a non-2xx answer. */
async function fetchSuggestions(text: string): Promise<Suggestions> {
  const res = await fetch(`/search/suggest?q=${encodeURIComponent(text)}`, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
    signal: AbortSignal.timeout(SEARCH_CLIENT_TIMEOUT_MS),
  })
  if (!res.ok) throw new Error(`search suggestions failed (${res.status})`)
  const body = (await res.json()) as { result?: Suggestions }
  if (!body.result || !Array.isArray(body.result.items)) throw new Error('search suggestions: bad answer')
  return body.result
}

const emptyResult = (text: string): Suggestions => ({
  correction: null,
  designer: null,
  items: [],
  total: 0,
  allUrl: `/search?q=${encodeURIComponent(text)}`,
})

/** The panel's results for a query; never rejects. */
export async function searchSuggestions(text: string): Promise<SearchResult> {
  const ctx = currentApiContext()
  // The answer depends on the query and the shopper's store, currency and country.
  const request = {
    type: 'suggest',
    q: text,
    store: ctx.storeCode,
    currency: ctx.currency,
    country: ctx.country,
  }
  try {
    return await suggestionCache().search(
      request,
      () => fetchSuggestions(text),
      () => emptyResult(text),
    )
  } catch {
    // Storage itself failed: go to the network directly.
    try {
      return await fetchSuggestions(text)
    } catch {
      return { ...emptyResult(text), offline: true }
    }
  }
}
