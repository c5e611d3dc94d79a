/**
 * The output cache's key: path + sorted query + store + currency + country (which fixes the
 * pricing country) + client build id — everything a cached page varies on, nothing else (the Host
 * is not in it, so no page may print the Host). The query holds only the parameters the matched
 * route reads (its `query` allow-list in shared/config/routes.ts; `pageUrl` strips the rest, and the
 * handler sees that same URL); a path no route of the table matches keeps its query without
 * tracking parameters (utm_*, fbclid, gclid…). A listing's parameters are then written in the one
 * spelling the listing reads them in (`canonicalQuery`), so a value the page ignores (`?sort=x1`,
 * `?sort=x2`, a second `color=`) is not a page of its own either, nor a value a route reads only
 * among listed ones (`values` in the route table: the home page's `notice`). A URL longer than MAX_KEY_URL_LENGTH is never looked
 * up or stored, and paths that hold personal data or are transactional are never cached at all.
 */
import { DEFAULT_SORT, SORT_PARAM } from '@shared/config/catalog'
import { RESOURCE_ROUTES, ROUTES } from '@shared/config/routes'
import { listingStateFromQuery, listingStateToQuery } from '@shared/domain/filters'
import { BUILD_ID } from '../render/assets'

export const KEY_HOST = 'https://output-cache.internal'
/** Longest path + query the cache keys on; longer URLs bypass it (bounded key and tag-row size). */
export const MAX_KEY_URL_LENGTH = 2048
/**
 * Query parameters that only tell analytics where a visitor came from. No page reads them, so they
 * are left out of the key: a campaign link hits the same copy as the plain URL.
 */
const TRACKING_PARAM_NAMES = new Set([
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'ttclid',
  'twclid',
  'li_fat_id',
  'igshid',
  'epik',
  'srsltid',
  '_ga',
  '_gl',
  '_hsenc',
  '_hsmi',
  '__hssc',
  '__hstc',
  '__hsfp',
  'mc_cid',
  'mc_eid',
  'mkt_tok',
  'oly_anon_id',
  'oly_enc_id',
  'rb_clickid',
  's_cid',
  'vero_id',
  'wickedid',
  'irclickid',
])

/** True for a parameter that only carries campaign or click attribution (utm_*, fbclid, gclid…). */
function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase()
  return n.startsWith('utm_') || TRACKING_PARAM_NAMES.has(n)
}

/** The query parameters each route of the table reads, by its path pattern. */
const QUERY_BY_ROUTE_PATH: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  [...ROUTES, ...RESOURCE_ROUTES].map((r) => [r.path, new Set<string>(r.query ?? [])]),
)

/**
 * The parameters a route reads, by the path pattern it was mounted with; null for a pattern that
 * is not a row of the route table (its query is kept, without tracking parameters).
 */
export function routeQueryAllowList(routePath: string): ReadonlySet<string> | null {
  return QUERY_BY_ROUTE_PATH.get(routePath) ?? null
}

/** A listing's filters and sort as it reads them (invalid values, repeats and the default sort dropped). */
function listingQuery(params: URLSearchParams): URLSearchParams {
  return new URLSearchParams(listingStateToQuery(listingStateFromQuery(params)).slice(1))
}

/**
 * A category listing's query. A category has no search text, so Relevance is not one of its sorts:
 * the listing orders it by the default sort, and `?sort=relevance` is the default's page.
 */
function categoryListingQuery(params: URLSearchParams): URLSearchParams {
  const state = listingStateFromQuery(params)
  const sort = state.sort === 'relevance' ? DEFAULT_SORT : state.sort
  return new URLSearchParams(listingStateToQuery({ ...state, sort }).slice(1))
}

/**
 * A search listing's query: its text first (as the page reads it: the first `q`), its filters, and
 * its sort, which is Relevance when none is named and the default sort when an unknown one is.
 */
function searchListingQuery(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams()
  const text = params.get('q')
  if (text !== null) out.set('q', text)
  const state = listingStateFromQuery(params)
  for (const [name, value] of listingQuery(params)) if (name !== SORT_PARAM) out.set(name, value)
  if (params.has(SORT_PARAM)) out.set(SORT_PARAM, state.sort)
  return out
}

/** A route's query without the parameters whose value is not one of those it reads (its `values`). */
function knownValues(values: Readonly<Record<string, readonly string[]>>) {
  return (params: URLSearchParams) =>
    new URLSearchParams([...params].filter(([name, value]) => values[name]?.includes(value) ?? true))
}

/** Routes whose parameters' values have one spelling per page, by path pattern. */
const CANONICAL_QUERY: ReadonlyMap<string, (params: URLSearchParams) => URLSearchParams> = new Map([
  ...[...ROUTES, ...RESOURCE_ROUTES].flatMap((r) =>
    'values' in r && r.values ? [[r.path, knownValues(r.values)] as const] : [],
  ),
  ['/c/:slug', categoryListingQuery],
  ['/search', searchListingQuery],
])

/**
 * `url` with only the query parameters in `allowed`, in their order (with `allowed` null: every
 * parameter but tracking ones), then, for a listing route (`routePath`), in the listing's own
 * spelling. The same URL for every spelling of one page, e.g. `/c/women?x=1`,
 * `/c/women?utm_source=y` and `/c/women?sort=nonsense` are all `/c/women`.
 */
export function pageUrl(url: string, allowed: ReadonlySet<string> | null, routePath?: string): string {
  const u = new URL(url)
  if (!u.search) return url
  const params = [...u.searchParams]
  const kept = new URLSearchParams(
    params.filter(([name]) => (allowed ? allowed.has(name) : !isTrackingParam(name))),
  )
  const canonical = routePath ? CANONICAL_QUERY.get(routePath) : undefined
  const search = (canonical ? canonical(kept) : kept).toString().replace(/%2C/g, ',')
  if (search === u.search.slice(1)) return url
  u.search = search
  return u.href
}
/** Paths whose pages hold personal data or are transactional: never looked up, never stored. */
const UNCACHEABLE = [
  /^\/api(\/|$)/,
  /^\/cart$/,
  /^\/checkout$/,
  /^\/confirmation$/,
  /^\/my-account(\/|$)/,
  /^\/invalidate$/,
  /^\/admin(\/|$)/,
]

export function isCacheablePath(path: string): boolean {
  return !UNCACHEABLE.some((re) => re.test(path))
}

/** What a page varies on besides its URL (the request's resolved store context). */
export interface CacheVariant {
  storeCode: string
  currency: string
  /**
   * The country the page was rendered for. It fixes the pricing country (IN, US, GB or ROW), and
   * taxes and `data-country` follow the country itself, so two ROW countries are kept apart too.
   */
  country: string
}

/**
 * The cache key for a page request, or null when the URL is too long to cache (pure; exported for
 * tests). The build id is part of it: a page cached by the previous deploy references that
 * build's assets.
 */
export function outputCacheKey(url: string, store: CacheVariant, buildId: string = BUILD_ID): string | null {
  const u = new URL(url)
  if (u.pathname.length + u.search.length > MAX_KEY_URL_LENGTH) return null
  const params = [...u.searchParams.entries()]
    .filter(([name]) => !isTrackingParam(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const qs = new URLSearchParams(params).toString()
  const variant = [store.storeCode, store.currency, store.country, buildId].map(encodeURIComponent).join('/')
  return `${KEY_HOST}${u.pathname}${qs ? `?${qs}` : ''}#${variant}`
}

export function keyRequest(key: string): Request {
  // Cache API keys are GET requests; the fragment is not part of a URL's identity, so encode it.
  return new Request(key.replace('#', '&__variant='))
}
