/**
 * Search results page:
 *   GET /search?q=   server-rendered results (first 24), a no-results state; not indexed.
 */
import { ProductTile } from '@shared/components/catalog/product-tile'
import { LISTING_COLUMNS } from '@shared/config/catalog'
import { MSG } from '@shared/i18n/messages'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { loadSearchPage } from './loader'

const searchPage: RouteHandler = async (c) => {
  const data = await loadSearchPage(c, c.req.query('q') ?? '', Date.now())
  const currency = c.var.store.currency
  // Anonymous and the same for every visitor of this store/currency: edge-cached like listings
  // (the importer purges `search` with the catalogue).
  c.set('cacheTags', ['search'])
  const title = data.query ? `Search results for “${data.query}”` : 'Search'
  return renderPage(
    c,
    <section className="search-page">
      <h1>{title}</h1>
      <form aria-label="Product search" action="/search" method="get" className="search-page__form">
        <label htmlFor="search-page-q" className="visually-hidden">
          Search products
        </label>
        <input
          id="search-page-q"
          name="q"
          type="search"
          defaultValue={data.query}
          placeholder="Search products"
        />
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {data.query && data.tiles.length === 0 ? (
        <div className="listing__empty" data-testid="search-no-results">
          <h2>{MSG.noProductsFoundTitle}</h2>
          <p>{MSG.noProductsFoundText}</p>
        </div>
      ) : null}
      {data.tiles.length > 0 ? (
        <>
          <p className="listing__count" data-testid="listing-count">
            {data.total} {data.total === 1 ? 'product' : 'products'}
          </p>
          <ul className="product-grid" data-testid="search-page-results">
            {data.tiles.map((tile, i) => (
              <li key={tile.sku} className="product-grid__item">
                <ProductTile tile={tile} currency={currency} eager={i < LISTING_COLUMNS.configured} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>,
    { title, layout: 'default', entry: 'category', meta: { robots: 'noindex, follow' } },
  )
}

export const searchPages = { search: searchPage } satisfies RouteHandlers
