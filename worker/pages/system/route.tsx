/**
 * System pages: /page-not-found (404) and /error (minimal layout), plus the error page that
 * onError renders for any thrown error (status 500, with the request id, never a stack).
 */

import { PageMessage } from '@shared/components/page-message'
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import type { EntryName } from '../../platform/render/assets'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

/**
 * A 404 page in the default layout: what was not found, and a way back to the shop. Never
 * indexed.
 */
export function renderNotFound(
  c: Context<AppEnv>,
  opts: { title: string; message: string; testId?: string; entry?: EntryName },
) {
  return renderPage(
    c,
    <PageMessage title={opts.title}>
      <p data-testid={opts.testId}>{opts.message}</p>
      <p>
        <a className="btn" href="/">
          Back to the shop
        </a>
      </p>
    </PageMessage>,
    { title: opts.title, layout: 'default', status: 404, meta: { robots: 'noindex' }, entry: opts.entry },
  )
}

const notFoundPage: RouteHandler = (c) =>
  renderNotFound(c, { title: 'Page not found', message: 'We could not find the page you were looking for.' })

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
