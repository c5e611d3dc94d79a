/**
 * The one error handler: HTTPException → its status and message; anything else → 500 with a
 * generic message. /api/* gets the JSON envelope, pages the minimal-layout error page with the
 * request id. Stacks are logged, never shown.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { AppEnv } from '../env'
import { renderErrorPage } from '../routes/system'

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/')
}

export function handleError(err: Error, c: Context<AppEnv>): Response | Promise<Response> {
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
  if (isApiPath(c.req.path)) {
    return c.json({ code: status, result: message, meta: { requestId } }, status)
  }
  return renderErrorPage(c, status, status >= 500 ? undefined : message).catch(
    () =>
      new Response(`Error ${status}. Reference: ${requestId}`, {
        status,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
      }),
  )
}
