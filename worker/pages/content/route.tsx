/**
 * Content routes:
 *   GET /i/:slug                  CMS page by identifier
 *   GET /magazine, /covers, /press, /past-collections, /about-us-author, /stockists
 *                                 CMS pages with those identifiers
 *   GET /ode-to-{name}            the tribute CMS page 'ode-to-{name}'
 *   GET /contact                  title 'Contact': the 'contact' CMS page, the 'contact-details'
 *                                 block and a contact form (mail service, mailto fallback)
 *   GET /store-locator            the list of stores
 *   GET /store-locator/:store     one store's page
 * A missing CMS page is a 404 page showing 'CMS query returned empty result'; a missing store is a
 * 404 page. All CMS HTML is sanitized in the loaders before rendering.
 */

import { CmsBlock, CmsHtml, StoreDetails, StoreList } from '@shared/components/content/cms'
import { PageMessage } from '@shared/components/page-message'
import { PAGE_TEXT } from '@shared/i18n/messages'
import type { Context } from 'hono'
import { ContactFormIsland } from '../../../client/islands/content/contact-form'
import type { AppEnv } from '../../platform/env'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { renderNotFound } from '../system/route'
import { loadCmsBlocks, loadCmsPage } from './loader'
import { ampCmsPagePath, cmsPagePath, NAMED_CMS_PAGES } from './paths'
import { loadStore, loadStores, storePath } from './stores-loader'

/** Renders the CMS page `identifier` as a full page (404 with 'CMS query returned empty result' when missing). */
async function renderCmsPage(c: Context<AppEnv>, identifier: string): Promise<Response> {
  const result = await loadCmsPage(c, identifier)
  if (result.kind === 'not-found')
    return renderNotFound(c, {
      title: 'Page not found',
      message: result.message,
      testId: 'cms-error',
      entry: 'content',
    })
  const { page } = result
  c.set('cacheTags', ['cms'])
  const origin = c.var.config.PUBLIC_ORIGIN
  return renderPage(
    c,
    <article className="cms-page" data-testid="cms-page" data-identifier={page.identifier}>
      {/* The page's AMP version (React hoists the link into <head>). */}
      <link rel="amphtml" href={origin + ampCmsPagePath(page.identifier)} />
      <h1>{page.title}</h1>
      <CmsHtml html={page.html} />
    </article>,
    {
      title: page.metaTitle || page.title,
      meta: {
        canonical: origin + cmsPagePath(page.identifier),
        ...(page.metaDescription ? { description: page.metaDescription } : {}),
      },
      layout: 'default',
      entry: 'content',
    },
  )
}

const cmsPage: RouteHandler<'cms-page'> = (c) => renderCmsPage(c, c.req.param('slug'))

/** A named content route: the CMS page with the route's identifier. */
const namedCmsPage =
  (identifier: string): RouteHandler =>
  (c) =>
    renderCmsPage(c, identifier)

const odeToPage: RouteHandler<'ode-to'> = (c) => renderCmsPage(c, c.req.param('page'))

const contactPage: RouteHandler = async (c) => {
  const [page, blocks] = await Promise.all([loadCmsPage(c, 'contact'), loadCmsBlocks(c, ['contact-details'])])
  return renderPage(
    c,
    <article className="cms-page contact-page" data-testid="contact-page">
      <h1>{PAGE_TEXT.contactTitle}</h1>
      {page.kind === 'ok' ? <CmsHtml html={page.page.html} /> : null}
      {blocks.map((b) => (
        <CmsBlock key={b.identifier} identifier={b.identifier} html={b.html} error={b.error} />
      ))}
      <ContactFormIsland supportEmail={c.var.config.SUPPORT_EMAIL} />
    </article>,
    {
      title: PAGE_TEXT.contactTitle,
      meta:
        page.kind === 'ok' && page.page.metaDescription
          ? { description: page.page.metaDescription }
          : undefined,
      layout: 'default',
      entry: 'content',
    },
  )
}

const storeLocatorPage: RouteHandler = async (c) => {
  const stores = await loadStores(c)
  return renderPage(
    c,
    <section className="store-locator" data-testid="store-locator">
      <h1>Store locator</h1>
      <p>
        {stores.length} {stores.length === 1 ? 'store' : 'stores'}
      </p>
      <StoreList stores={stores} pathOf={storePath} />
    </section>,
    { title: 'Store locator', layout: 'default', entry: 'content' },
  )
}

const storePage: RouteHandler<'individual-store'> = async (c) => {
  const store = await loadStore(c, c.req.param('store'))
  if (!store) {
    return renderPage(
      c,
      <PageMessage title="Store not found">
        <p>We could not find this store.</p>
        <p>
          <a className="btn" href="/store-locator">
            All stores
          </a>
        </p>
      </PageMessage>,
      {
        title: 'Store not found',
        layout: 'default',
        status: 404,
        meta: { robots: 'noindex' },
        entry: 'content',
      },
    )
  }
  return renderPage(c, <StoreDetails store={store} />, {
    title: `${store.name} | Store locator`,
    meta: { description: `${store.name}, ${store.address.join(', ')}` },
    layout: 'default',
    entry: 'content',
  })
}

export const contentPages = {
  'cms-page': cmsPage,
  ...(Object.fromEntries(NAMED_CMS_PAGES.map((id) => [id, namedCmsPage(id)])) as Record<
    (typeof NAMED_CMS_PAGES)[number],
    RouteHandler
  >),
  'ode-to': odeToPage,
  contact: contactPage,
  'store-locator': storeLocatorPage,
  'individual-store': storePage,
} satisfies RouteHandlers
