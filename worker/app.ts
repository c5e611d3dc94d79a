/**
 * The Hono app. This file only assembles: middleware order, what the layout and the dispatcher
 * are handed, the route table with its handlers, /api, error handling and the dispatcher for URLs
 * no route matches.
 */
import { Hono } from 'hono'
import { adminApp } from './admin'
import { apiRoutes } from './api'
import { accountPages } from './pages/account/route'
import { ampPages } from './pages/amp/route'
import { categoryPages } from './pages/category/route'
import { contentPages } from './pages/content/route'
import { homePages } from './pages/home/route'
import { imageResources } from './pages/images/route'
import { loadMenu } from './pages/layout/menu'
import { loadPageTaxRules } from './pages/layout/pricing'
import { listPages } from './pages/lists/route'
import { orderPages } from './pages/order/route'
import { productPages } from './pages/product/route'
import { rawPages } from './pages/raw/route'
import { searchPages } from './pages/search/route'
import { seoResources } from './pages/seo/route'
import { systemPages } from './pages/system/route'
import { transactionPages } from './pages/transactions/route'
import { outputCache } from './platform/cache/output-cache'
import { invalidate } from './platform/cache/routes'
import { dispatch } from './platform/dispatcher'
import { createDispatchLookups } from './platform/dispatcher/lookups'
import type { AppEnv } from './platform/env'
import { requestContext } from './platform/middleware/context'
import { d1Session } from './platform/middleware/d1-session'
import { handleError } from './platform/middleware/errors'
import { requireSecrets } from './platform/middleware/required-secrets'
import { securityHeaders } from './platform/middleware/security-headers'
import { mountRoutes } from './platform/router'
import { vitalsRoutes } from './vitals/routes'

const app = new Hono<AppEnv>()

app.use('*', requestContext)
// Reads near the shopper, a shopper's own writes visible to their next request (D1 sessions).
app.use('*', d1Session)
app.use('*', securityHeaders)
// Outside development, areas whose secrets are missing answer 503 instead of improvising.
app.use('/api/*', requireSecrets)
// The default layout's header menu and the GST rates of prices abroad come from the catalogue.
app.use('*', async (c, next) => {
  c.set('menuLoader', loadMenu)
  c.set('taxRulesLoader', loadPageTaxRules)
  await next()
})
app.use('*', outputCache(app))

// Field data is the shop's own, whichever backend answers the rest of /api.
app.route('/api/vitals', vitalsRoutes)
app.route('/api', apiRoutes)
app.route('/admin', adminApp)
mountRoutes(app, {
  ...homePages,
  ...categoryPages,
  ...searchPages,
  ...productPages,
  ...contentPages,
  ...listPages,
  ...transactionPages,
  ...orderPages,
  ...accountPages,
  ...ampPages,
  ...rawPages,
  ...systemPages,
  ...seoResources,
  ...imageResources,
  invalidate,
})

app.notFound((c) =>
  dispatch(c, createDispatchLookups(c), async (path) => {
    // The rewritten route keeps the visitor's query (filters, sort, childSku).
    const target = new URL(path, c.req.url)
    if (!target.search) target.search = new URL(c.req.url).search
    return app.fetch(new Request(target, c.req.raw), c.env, c.executionCtx)
  }),
)

app.onError(handleError)

export default app
