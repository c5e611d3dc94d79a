/**
 * System pages: /page-not-found (404, with a search field and the popular categories) and /error
 * (minimal layout), plus the error page that
 * onError renders for any thrown error (status 500, with the request id, never a stack).
 */

import { PageMessage } from '@shared/components/page-message'
import { PAGE_TEXT } from '@shared/i18n/messages'
import type { Context } from 'hono'
import { Icon } from '../../../client/islands/layout/icons'
import type { AppEnv } from '../../platform/env'
import type { EntryName } from '../../platform/render/assets'
import { layoutMenu, renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

/** Categories offered on a not-found page (the menu's top level). */
const POPULAR_CATEGORIES = 6

/**
 * A 404 page in the default layout: what was not found, a search field (a plain form, it works
 * without JavaScript), the popular categories and a way back to the shop. Never indexed.
 */
export async function renderNotFound(
  c: Context<AppEnv>,
  opts: { title: string; message: string; testId?: string; entry?: EntryName },
) {
  const categories = (await layoutMenu(c)).slice(0, POPULAR_CATEGORIES)
  return renderPage(
    c,
    <PageMessage title={opts.title}>
      <p data-testid={opts.testId}>{opts.message}</p>
      <form className="not-found__search" action="/search" method="get" data-testid="not-found-search">
        <label htmlFor="not-found-q">{PAGE_TEXT.notFoundSearch}</label>
        <div className="not-found__row">
          <input id="not-found-q" name="q" type="search" autoComplete="off" required />
          <button type="submit" className="btn">
            <Icon name="search" />
            Search
          </button>
        </div>
      </form>
      {categories.length ? (
        <nav className="not-found__categories" aria-labelledby="not-found-popular">
          <h2 id="not-found-popular">{PAGE_TEXT.notFoundPopular}</h2>
          <ul data-testid="not-found-categories">
            {categories.map((cat) => (
              <li key={cat.id}>
                <a className="btn btn--secondary" href={cat.url}>
                  {cat.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <p>
        <a href="/">Back to the shop</a>
      </p>
    </PageMessage>,
    { title: opts.title, layout: 'default', status: 404, meta: { robots: 'noindex' }, entry: opts.entry },
  )
}

const notFoundPage: RouteHandler = (c) =>
  renderNotFound(c, { title: PAGE_TEXT.notFoundTitle, message: PAGE_TEXT.notFoundMessage })

const errorPage: RouteHandler = (c) => renderErrorPage(c, 200)

/** The minimal-layout error page. */
export function renderErrorPage(c: Context<AppEnv>, status: number, message?: string) {
  return renderPage(
    c,
    <PageMessage title={status === 404 ? 'Not found' : 'Something went wrong'}>
      <p>{message ?? 'An error occurred while loading this page. Please try again in a moment.'}</p>
      <p className="error-reference">
        Reference: <code data-testid="request-id">{c.var.requestId}</code>
      </p>
      <p>
        <a className="btn" href="/">
          Go to the home page
        </a>
      </p>
    </PageMessage>,
    {
      title: 'Error',
      layout: 'minimal',
      status,
      meta: { robots: 'noindex' },
      headers: { 'cache-control': 'no-store' },
    },
  )
}

export const systemPages = { 'page-not-found': notFoundPage, error: errorPage } satisfies RouteHandlers
