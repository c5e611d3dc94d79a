/**
 * Every route the worker mounts besides /api, in one table: the worker mounts each row with the
 * handler of its name (a row without a handler, or a handler without a row, does not compile), the
 * tests walk the table, the sitemap lists the rows marked `sitemap`, and links are built with the
 * helpers below. `ROUTES` are the HTML pages (with their layout); `RESOURCE_ROUTES` answer other
 * documents (robots, sitemaps, images, the cache purge endpoint).
 *
 * `query` lists the query parameters a route's page reads. It is the one allow-list of the output
 * cache: only these parameters enter a page's cache key and reach its handler (the request the
 * handler sees carries no other), so an unknown parameter (`?x=1`, `?x=2`, …) is the same page,
 * one render and one cache entry, and a page can never vary on a parameter its key leaves out.
 * A route without `query` reads none. A handler that starts reading a parameter adds it here.
 */
import { DEFAULT_FILTERS, SORT_PARAM } from './catalog'

export type LayoutName = 'default' | 'minimal' | 'empty'

interface RouteDef<Name extends string = string> {
  name: Name
  /** Hono path pattern. */
  path: string
  layout: LayoutName
  /** A concrete example URL for tests and docs. */
  example: string
  /** Fixed page title where the shop gives one. */
  title?: string
  requiresAuth?: boolean
  /** Listed in the pages sitemap (a fixed content page). */
  sitemap?: boolean
  /** The query parameters the page reads (see the file comment); none when absent. */
  query?: readonly string[]
  /**
   * Parameters of `query` the page reads only with one of these values: with any other value the
   * parameter is left out (of the cache key, and of what the handler sees), as an unknown one is.
   */
  values?: Readonly<Record<string, readonly string[]>>
}

/** The home page's notice after the category route sent an unknown category home. */
export const NOTICE_CATEGORY_UNAVAILABLE = 'category-unavailable'

/** What a listing URL carries: its filters (`?color=49,50&price=10000-25000`) and its sort. */
const LISTING_QUERY = [...DEFAULT_FILTERS, SORT_PARAM] as const

/**
 * A page at a fixed path, which is its own example, on `layout` (the default one unless named);
 * `more` adds the rest of its row. Pages with parameters are written out whole.
 */
function page<
  const N extends string,
  const P extends string,
  const M extends Omit<RouteDef, 'name' | 'path' | 'layout' | 'example'> = Record<never, never>,
  const L extends LayoutName = 'default',
>(name: N, path: P, more?: M, layout?: L) {
  return { name, path, layout: (layout ?? 'default') as L, example: path, ...(more as M) }
}

const PAGE_ROUTES = [
  // `notice`: the home page explains why a category link brought the visitor here.
  page('home', '/', { query: ['notice'], values: { notice: [NOTICE_CATEGORY_UNAVAILABLE] } }),
  page('home-pwa', '/pwa.html'),
  { name: 'category', path: '/c/:slug', layout: 'default', example: '/c/women', query: LISTING_QUERY },
  { name: 'cms-page', path: '/i/:slug', layout: 'default', example: '/i/about-us' },
  {
    name: 'product',
    path: '/p/:parentSku/:slug/:childSku?',
    layout: 'default',
    example: '/p/X/y',
    // The variant, when a URL mapping names it as `?childSku=` rather than in the path.
    query: ['childSku'],
  },
  page('magazine', '/magazine', { sitemap: true }),
  page('covers', '/covers', { sitemap: true }),
  page('press', '/press', { sitemap: true }),
  page('past-collections', '/past-collections', { sitemap: true }),
  page('about-us-author', '/about-us-author', { sitemap: true }),
  page('stockists', '/stockists', { sitemap: true }),
  { name: 'ode-to', path: '/:page{ode-to-[a-z0-9-]+}', layout: 'default', example: '/ode-to-handloom' },
  page('store-locator', '/store-locator', { sitemap: true }),
  { name: 'individual-store', path: '/store-locator/:store', layout: 'default', example: '/store-locator/x' },
  page('contact', '/contact', { title: 'Contact', sitemap: true }),
  {
    name: 'search',
    path: '/search',
    layout: 'default',
    example: '/search?q=silk',
    query: ['q', ...LISTING_QUERY],
  },
  page('wishlist', '/wishlist'),
  page('compare', '/compare'),
  page('page-not-found', '/page-not-found'),
  page('error', '/error', {}, 'minimal'),
  page('cart', '/cart'),
  page('checkout', '/checkout'),
  {
    name: 'order',
    path: '/order/:number{[0-9]{1,18}}',
    layout: 'default',
    example: '/order/000000001',
    title: 'Your order',
  },
  page('confirmation', '/confirmation', { title: 'Order Confirmation' }),
  page('my-account', '/my-account', { requiresAuth: true }),
  page('personal-details', '/my-account/personal-details', { requiresAuth: true }),
  page('address-book', '/my-account/address-book', { requiresAuth: true }),
  page('newsletter', '/my-account/newsletter', { requiresAuth: true }),
  page('credits', '/my-account/credit-details', { requiresAuth: true }),
  page('orders', '/my-account/orders', { requiresAuth: true }),
  {
    name: 'single-order',
    path: '/my-account/orders/:orderId',
    layout: 'default',
    example: '/my-account/orders/1',
    requiresAuth: true,
  },
  {
    name: 'amp-product',
    path: '/amp/p/:parentSku/:slug/:childSku?',
    layout: 'minimal',
    example: '/amp/p/X/y',
    // The quantity the AMP form was submitted with.
    query: ['qty'],
  },
  { name: 'amp-category', path: '/amp/c/:slug', layout: 'minimal', example: '/amp/c/women' },
  { name: 'amp-cms-page', path: '/amp/i/:slug', layout: 'minimal', example: '/amp/i/about-us' },
  page('raw-output', '/raw-output-example.xml', {}, 'empty'),
  page('append-prepend', '/append-prepend.html', {}, 'empty'),
  page('no-js', '/no-js.html'),
] as const satisfies readonly RouteDef[]

/** HTML page routes (the name types the worker's handler table). */
type PageRouteName = (typeof PAGE_ROUTES)[number]['name']
export const ROUTES: readonly RouteDef<PageRouteName>[] = PAGE_ROUTES

interface ResourceRouteDef<Name extends string = string> {
  name: Name
  /** Hono path pattern. */
  path: string
  /** A concrete example URL for tests and docs. */
  example: string
  /** The media type the example answers with. */
  contentType: string
  /** The query parameters the resource reads (as for pages); none when absent. */
  query?: readonly string[]
}

const RESOURCES = [
  { name: 'robots', path: '/robots.txt', example: '/robots.txt', contentType: 'text/plain' },
  { name: 'sitemap-index', path: '/sitemap.xml', example: '/sitemap.xml', contentType: 'application/xml' },
  {
    name: 'sitemap-file',
    path: '/sitemaps/:file{[a-z0-9-]+\\.xml}',
    example: '/sitemaps/pages.xml',
    contentType: 'application/xml',
  },
  {
    name: 'image',
    path: '/img/:width/:height/*',
    example: '/img/600/744/p/kurta-red.svg',
    contentType: 'image/svg+xml',
  },
  {
    name: 'search-suggest',
    path: '/search/suggest',
    example: '/search/suggest?q=silk',
    contentType: 'application/json',
    query: ['q'],
  },
  {
    name: 'invalidate',
    path: '/invalidate',
    example: '/invalidate?tag=home',
    contentType: 'application/json',
    // `key` is read only to refuse a key sent in the URL.
    query: ['tag', 'key'],
  },
] as const satisfies readonly ResourceRouteDef[]

type ResourceRouteName = (typeof RESOURCES)[number]['name']
export const RESOURCE_ROUTES: readonly ResourceRouteDef<ResourceRouteName>[] = RESOURCES

/** Every route name of the tables. */
export type RouteName = PageRouteName | ResourceRouteName

/** The path pattern of a named route (types its handler's parameters). */
export type RoutePath<N extends RouteName> = Extract<
  (typeof PAGE_ROUTES)[number] | (typeof RESOURCES)[number],
  { name: N }
>['path']
