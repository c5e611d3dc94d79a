/**
 * /api/*: forwarded to API_UPSTREAM when it is set, otherwise answered by the embedded backend
 * (worker/api/embedded.ts). Unknown endpoints get a 404 envelope, never the page dispatcher.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../platform/env'
import { limitBody, MAX_API_BODY_BYTES, ok } from '../platform/http'
import { embeddedBackend } from './embedded'
import { limitPlacementBurst } from './order/holds'
import { proxyToUpstream } from './proxy'

export const apiRoutes = new Hono<AppEnv>()

// Order placement's burst limit answers before any body is read, in front of the upstream hop
// too (./order/holds.ts).
apiRoutes.post('/order', limitPlacementBurst)

// No /api call reads more than 1 MiB (areas set smaller limits): a declared length is checked before
// the upstream hop, a streamed body counted as it is read (the proxy reads it before the hop).
apiRoutes.use('*', limitBody(MAX_API_BODY_BYTES))

apiRoutes.use('*', async (c, next) => {
  const upstream = c.var.config.API_UPSTREAM
  if (upstream) return proxyToUpstream(c, upstream)
  await next()
})

apiRoutes.route('/', embeddedBackend)

apiRoutes.all('*', (c) =>
  ok(c, `No API endpoint ${c.req.method} ${c.req.path}`, { requestId: c.var.requestId }, 404),
)
