/**
 * The Hono app. This file only assembles: middleware order, mounts, error handling and the
 * dispatcher for URLs no route matches.
 */
import { Hono } from 'hono'
import { apiRoutes } from './api'
import { outputCache } from './cache/output-cache'
import { cacheAdminRoutes } from './cache/routes'
import { dispatch, setDispatchLookups } from './dispatcher'
import { createDispatchLookups } from './dispatcher/lookups'
import type { AppEnv } from './env'
import { requestContext } from './middleware/context'
import { handleError } from './middleware/errors'
import { securityHeaders } from './middleware/security-headers'
import { accountRoutes } from './routes/account'
import { ampRoutes } from './routes/amp'
import { categoryRoutes } from './routes/category'
import { contentRoutes } from './routes/content'
import { homeRoutes } from './routes/home'
import { imageRoutes } from './routes/images'
import { listRoutes } from './routes/lists'
import { productRoutes } from './routes/product'
import { rawRoutes } from './routes/raw'
import { searchRoutes } from './routes/search'
import { seoRoutes } from './routes/seo'
import { systemRoutes } from './routes/system'
import { transactionRoutes } from './routes/transactions'

const app = new Hono<AppEnv>()

app.use('*', requestContext)
app.use('*', securityHeaders)
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

setDispatchLookups(createDispatchLookups)

app.notFound((c) =>
  dispatch(c, async (path) => {
    // The rewritten route keeps the visitor's query (filters, sort, childSku).
    const target = new URL(path, c.req.url)
    if (!target.search) target.search = new URL(c.req.url).search
    return app.fetch(new Request(target, c.req.raw), c.env, c.executionCtx)
  }),
)

app.onError(handleError)

export default app
