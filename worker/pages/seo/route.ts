/**
 * SEO documents, served as raw text/XML (never through React):
 *   GET /robots.txt                      crawl rules + sitemap location
 *   GET /sitemap.xml                     sitemap index
 *   GET /sitemaps/pages.xml              home, content routes, store locator pages
 *   GET /sitemaps/categories.xml         every active category
 *   GET /sitemaps/products-{n}.xml       listed products with ids in ((n-1)·SITEMAP_PAGE_SIZE, n·SITEMAP_PAGE_SIZE]
 *
 * Every absolute URL here starts with the configured PUBLIC_ORIGIN, never with the request's Host
 * (which the sender controls).
 *
 * Product sitemaps are keyset windows over the product id (ids are unique integers, so a window
 * holds at most SITEMAP_PAGE_SIZE products): no from/size paging, so catalogues past the
 * 10,000-result search window are covered too.
 */

import { categoryPath, productPath } from '@shared/config/links'
import { ROUTES } from '@shared/config/routes'
import type { Category } from '@shared/schemas/catalog'
import { getCommerce } from '../../commerce'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

const SITEMAP_PAGE_SIZE = 1000
/** Ids one search of a product sitemap covers (SITEMAP_PAGE_SIZE is a multiple of it). */
const SITEMAP_READ_SIZE = 200
/** Most files a sitemap index may list (sitemaps.org). */
const MAX_SITEMAPS = 50_000
/** The fixed content pages the pages sitemap lists (rows of the route table marked so). */
const CONTENT_PATHS = ROUTES.filter((r) => r.sitemap).map((r) => r.path)
const XML = { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600' }

/** Escapes text for XML element content and attribute values. */
function xmlEscape(s: string): string {
  return s.replace(
    /[<>&'"]/g,
    (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch]!,
  )
}

function urlset(entries: { loc: string; lastmod?: string | null }[]): string {
  const rows = entries
    .map(
      (e) =>
        `  <url><loc>${xmlEscape(e.loc)}</loc>${e.lastmod ? `<lastmod>${xmlEscape(e.lastmod.slice(0, 10))}</lastmod>` : ''}</url>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows}\n</urlset>\n`
}

function flatten(tree: Category[]): Category[] {
  return tree.flatMap((c) => [c, ...flatten(c.children_data ?? [])])
}

const robots: RouteHandler = (c) => {
  const origin = c.var.config.PUBLIC_ORIGIN
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /cart',
    'Disallow: /checkout',
    'Disallow: /confirmation',
    'Disallow: /my-account',
    'Disallow: /invalidate',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n')
  return c.body(body, 200, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'public, max-age=3600',
  })
}

/** How many product sitemaps there are: one per id window up to the largest listed product id. */
async function productSitemapCount(commerce: ReturnType<typeof getCommerce>): Promise<number> {
  const { items } = await commerce.searchProducts({
    size: 1,
    sort: { field: 'id', order: 'desc' },
    includeFields: ['id'],
  })
  const maxId = Number(items[0]?.id ?? 0)
  return Math.max(1, Math.min(Math.ceil(maxId / SITEMAP_PAGE_SIZE), MAX_SITEMAPS - 2))
}

const sitemapIndex: RouteHandler = async (c) => {
  const origin = c.var.config.PUBLIC_ORIGIN
  const pages = await productSitemapCount(getCommerce(c))
  const files = ['pages', 'categories', ...Array.from({ length: pages }, (_, i) => `products-${i + 1}`)]
  const rows = files
    .map((f) => `  <sitemap><loc>${xmlEscape(`${origin}/sitemaps/${f}.xml`)}</loc></sitemap>`)
    .join('\n')
  return c.body(
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows}\n</sitemapindex>\n`,
    200,
    XML,
  )
}

const sitemapFile: RouteHandler<'sitemap-file'> = async (c) => {
  const origin = c.var.config.PUBLIC_ORIGIN
  const file = c.req.param('file').replace(/\.xml$/, '')
  const commerce = getCommerce(c)
  if (file === 'pages') {
    const stores = await commerce.getStores().catch(() => [])
    return c.body(
      urlset([
        { loc: `${origin}/` },
        ...CONTENT_PATHS.map((p) => ({ loc: origin + p })),
        ...stores.map((s) => ({ loc: `${origin}/store-locator/${encodeURIComponent(s.code)}` })),
      ]),
      200,
      XML,
    )
  }
  if (file === 'categories') {
    const all = flatten(await commerce.getCategoryTree()).filter((cat) => cat.is_active)
    return c.body(urlset(all.map((cat) => ({ loc: origin + categoryPath(cat.slug) }))), 200, XML)
  }
  const m = file.match(/^products-([1-9][0-9]{0,4})$/)
  if (!m) return c.body('Not found', 404, { 'content-type': 'text/plain; charset=utf-8' })
  const page = Number(m[1])
  if (page > (await productSitemapCount(commerce)))
    return c.body('Not found', 404, { 'content-type': 'text/plain; charset=utf-8' })
  // A window of sparse ids may be empty: still a valid (empty) sitemap the index lists.
  // Read in windows of SITEMAP_READ_SIZE ids: a search's page must fit in one answer of the
  // database, whatever the size of the catalogue's documents.
  const first = (page - 1) * SITEMAP_PAGE_SIZE + 1
  const reads = []
  for (let from = first; from < first + SITEMAP_PAGE_SIZE; from += SITEMAP_READ_SIZE)
    reads.push(
      commerce.searchProducts({
        idRange: { from, to: from + SITEMAP_READ_SIZE - 1 },
        size: SITEMAP_READ_SIZE,
        sort: { field: 'id', order: 'asc' },
        includeFields: ['sku', 'slug', 'updated_at', 'type_id'],
      }),
    )
  const items = (await Promise.all(reads)).flatMap((r) => r.items)
  return c.body(
    urlset(items.map((p) => ({ loc: origin + productPath(p.sku, p.slug), lastmod: p.updated_at }))),
    200,
    XML,
  )
}

export const seoResources = {
  robots,
  'sitemap-index': sitemapIndex,
  'sitemap-file': sitemapFile,
} satisfies RouteHandlers
