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

/**
 * D1 failures a retry can fix (D1's documented transient errors: the database busy or overloaded,
 * its connection lost or its object reset): 503 with Retry-After, not 500.
 */
export function isTransientDbError(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err)
  return (
    /\bD1_/.test(msg) &&
    /SQLITE_BUSY|overloaded|Network connection lost|object to be reset|reset because|timed? ?out|too many requests/i.test(
      msg,
    )
  )
}

export const RETRY_AFTER_SECONDS = 2
export const MSG_TEMPORARILY_UNAVAILABLE = 'The shop is briefly unavailable. Please try again in a moment.'

export function handleError(err: Error, c: Context<AppEnv>): Response | Promise<Response> {
  const requestId = c.var.requestId ?? 'unknown'
  const transient = !(err instanceof HTTPException) && isTransientDbError(err)
  const status = err instanceof HTTPException ? err.status : transient ? 503 : 500
  // Expected failures carry their message; anything else is logged and shown generically.
  const message =
    err instanceof HTTPException
      ? err.message
      : transient
        ? MSG_TEMPORARILY_UNAVAILABLE
        : 'Internal server error'
  if (transient) c.header('retry-after', String(RETRY_AFTER_SECONDS))
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
  return renderErrorPage(c, status, status >= 500 && !transient ? undefined : message)
    .then((res) => {
      if (transient) res.headers.set('retry-after', String(RETRY_AFTER_SECONDS))
      return res
    })
    .catch(
      () =>
        new Response(`Error ${status}. Reference: ${requestId}`, {
          status,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        }),
    )
}
