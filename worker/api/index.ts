/**
 * /api/*: forwarded to API_UPSTREAM when it is set, otherwise answered by the embedded backend
 * (worker/backend). Unknown endpoints get a 404 envelope, never the page dispatcher.
 */
import { Hono } from 'hono'
import { embeddedBackend } from '../backend/routes'
import type { AppEnv } from '../env'
import { proxyToUpstream } from './proxy'

export const apiRoutes = new Hono<AppEnv>()

apiRoutes.use('*', async (c, next) => {
  const upstream = c.var.config.API_UPSTREAM
  if (upstream) return proxyToUpstream(c, upstream)
  await next()
})

apiRoutes.route('/', embeddedBackend)

apiRoutes.all('*', (c) =>
  c.json(
    {
      code: 404,
      result: `No API endpoint ${c.req.method} ${c.req.path}`,
      meta: { requestId: c.var.requestId },
    },
    404,
  ),
)
