/**
 * The Hono app. This file only assembles: middleware order, mounts, error handling and the
 * dispatcher for URLs no route matches.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { apiRoutes } from './api'
import { dispatch } from './dispatcher'
import type { AppEnv } from './env'
import { requestContext } from './middleware/context'
import { securityHeaders } from './middleware/security-headers'
import { accountRoutes } from './routes/account'
import { ampRoutes } from './routes/amp'
import { categoryRoutes } from './routes/category'
import { contentRoutes } from './routes/content'
import { homeRoutes } from './routes/home'
import { productRoutes } from './routes/product'
import { rawRoutes } from './routes/raw'
import { renderErrorPage, systemRoutes } from './routes/system'
import { transactionRoutes } from './routes/transactions'

const app = new Hono<AppEnv>()

app.use('*', requestContext)
app.use('*', securityHeaders)

app.route('/api', apiRoutes)
app.route('/', homeRoutes)
app.route('/', categoryRoutes)
app.route('/', productRoutes)
app.route('/', contentRoutes)
app.route('/', transactionRoutes)
app.route('/', accountRoutes)
app.route('/', ampRoutes)
app.route('/', rawRoutes)
app.route('/', systemRoutes)

app.notFound((c) =>
  dispatch(c, async (path) =>
    app.fetch(new Request(new URL(path, c.req.url), c.req.raw), c.env, c.executionCtx),
  ),
)

app.onError((err, c) => {
  const requestId = c.var.requestId ?? 'unknown'
  const status = err instanceof HTTPException ? err.status : 500
  // Expected failures carry their message; anything else is logged and shown generically.
  const message = err instanceof HTTPException ? err.message : 'Internal server error'
  console.error(
    JSON.stringify({
      requestId,
      status,
      path: c.req.path,
      msg: err.message,
      stack: status >= 500 ? err.stack : undefined,
    }),
  )
  if (c.req.path === '/api' || c.req.path.startsWith('/api/')) {
    return c.json({ code: status, result: message, meta: { requestId } }, status)
  }
  return renderErrorPage(c, status, status >= 500 ? undefined : message).catch(
    () =>
      new Response(`Error ${status}. Reference: ${requestId}`, {
        status,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
  )
})

export default app
