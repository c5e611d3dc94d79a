/**
 * Category listing pages:
 *   GET /c/:slug          the category by slug
 *   (/{url_path})         the URL dispatcher rewrites a category's url_path to /c/:slug
 * Unknown or inactive category → 302 to /?notice=category-unavailable (the home page then tells
 * the visitor the category is not available offline). Query: filters (?color=49,50&price=50-100) and sort (&sort=price-asc).
 */

import { Breadcrumbs } from '@shared/components/catalog/breadcrumbs'
import { hasFilters, parseListingQuery } from '@shared/components/catalog/listing-state'
import { NOTICE_CATEGORY_UNAVAILABLE } from '@shared/config/routes'
import { categoryUrl } from '@shared/domain/menu'
import { sanitizeHtml } from '@shared/domain/sanitize-html'
import type { Category } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import type { AppEnv } from '../../platform/env'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { keptListing } from '../layout/grid-tiles'
import { loadCategoryPage } from './loader'

/** Where an unknown or empty category sends the shopper (the home page turns it into the notification). */
/** Where an unknown or inactive category sends the visitor: home, with the notice explaining it. */
const CATEGORY_UNAVAILABLE_REDIRECT = `/?notice=${NOTICE_CATEGORY_UNAVAILABLE}`

const categoryPage: RouteHandler<'category'> = async (c) => {
  const category = await getCommerce(c).getCategoryBySlug(c.req.param('slug'))
  if (!category || category.is_active === false) return c.redirect(CATEGORY_UNAVAILABLE_REDIRECT, 302)
  return renderCategoryPage(c, category)
}

/** Renders the category page for a resolved category (also used by the URL dispatcher). */
async function renderCategoryPage(c: Context<AppEnv>, category: Category): Promise<Response> {
  if (category.is_active === false) return c.redirect(CATEGORY_UNAVAILABLE_REDIRECT, 302)
  const url = new URL(c.req.url)
  const state = parseListingQuery(url.searchParams)
  const data = await loadCategoryPage(c, category, state, Date.now())
  // Stored only when the page shows what its URL names: a URL with values no filter offers (made
  // up, or stale) is served the page without them, and would otherwise be an entry of its own.
  if (data.listing.state === state) c.set('cacheTags', ['category', `C${category.id}`])
  const canonical = new URL(categoryUrl(category), c.var.config.PUBLIC_ORIGIN).href
  // The grid's tiles past its first row and the filter panel, as kept markup (layout/grid-tiles.tsx).
  const listing = keptListing(data.listing, data.filterPanel, c.var.config)
  return renderPage(
    c,
    <section className="category" data-category-id={category.id}>
      <Breadcrumbs crumbs={data.crumbs} />
      <header className="category__head">
        <h1 className="category__title">{category.display_name || category.name}</h1>
        {category.description ? (
          <div
            className="category__description"
            // Sanitised with the shared allow-list sanitizer (shared/domain/sanitize-html).
            dangerouslySetInnerHTML={{ __html: sanitizeHtml(category.description) }}
          />
        ) : null}
      </header>
      {listing}
    </section>,
    {
      title: data.title,
      layout: 'default',
      entry: 'category',
      meta: {
        description: data.description ?? undefined,
        canonical,
        // Filtered variants are not indexed; the canonical points at the unfiltered listing.
        robots: hasFilters(state) ? 'noindex, follow' : undefined,
        og: { 'og:title': data.title, 'og:type': 'website', 'og:url': canonical },
      },
    },
  )
}

export const categoryPages = { category: categoryPage } satisfies RouteHandlers
