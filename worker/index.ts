/**
 * The Hono app. This file only assembles: middleware order, mounts, error handling and the
 * dispatcher for URLs no route matches.
 */
import { Hono } from 'hono'
import { apiRoutes } from './api'
import { accountRoutes } from './pages/account/route'
import { ampRoutes } from './pages/amp/route'
import { categoryRoutes } from './pages/category/route'
import { contentRoutes } from './pages/content/route'
import { homeRoutes } from './pages/home/route'
import { imageRoutes } from './pages/images/route'
import { loadMenu } from './pages/layout/menu'
import { listRoutes } from './pages/lists/route'
import { productRoutes } from './pages/product/route'
import { rawRoutes } from './pages/raw/route'
import { searchRoutes } from './pages/search/route'
import { seoRoutes } from './pages/seo/route'
import { systemRoutes } from './pages/system/route'
import { transactionRoutes } from './pages/transactions/route'
import { outputCache } from './platform/cache/output-cache'
import { cacheAdminRoutes } from './platform/cache/routes'
import { dispatch } from './platform/dispatcher'
import { createDispatchLookups } from './platform/dispatcher/lookups'
import type { AppEnv } from './platform/env'
import { requestContext } from './platform/middleware/context'
import { handleError } from './platform/middleware/errors'
import { securityHeaders } from './platform/middleware/security-headers'

const app = new Hono<AppEnv>()

app.use('*', requestContext)
app.use('*', securityHeaders)
// The default layout's header menu comes from the catalogue.
app.use('*', async (c, next) => {
  c.set('menuLoader', loadMenu)
  await next()
})
app.use('*', outputCache(app))

app.route('/api', apiRoutes)
app.route('/', homeRoutes)
app.route('/', categoryRoutes)
app.route('/', searchRoutes)
app.route('/', productRoutes)
app.route('/', contentRoutes)
app.route('/', listRoutes)
app.route('/', transactionRoutes)
app.route('/', accountRoutes)
app.route('/', ampRoutes)
app.route('/', rawRoutes)
app.route('/', systemRoutes)
app.route('/', cacheAdminRoutes)
app.route('/', seoRoutes)
app.route('/', imageRoutes)

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
