/**
 * System pages: /page-not-found (404) and /error (minimal layout), plus the error page that
 * onError renders for any thrown error (status 500, with the request id, never a stack).
 */
import type { Context } from 'hono'
import { PageMessage } from '../../../shared/components/page-message'
import type { AppEnv } from '../../platform/env'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

const notFoundPage: RouteHandler = (c) =>
  renderPage(
    c,
    <PageMessage title="Page not found">
      <p>We could not find the page you were looking for.</p>
      <p>
        <a className="btn" href="/">
          Back to the shop
        </a>
      </p>
    </PageMessage>,
    { title: 'Page not found', layout: 'default', status: 404, meta: { robots: 'noindex' } },
  )

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
