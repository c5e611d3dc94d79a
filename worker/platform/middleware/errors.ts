/**
 * The one error handler: HTTPException → its status and message; anything else → 500 with a
 * generic message. /api/* gets the JSON envelope, pages the minimal-layout error page with the
 * request id. Stacks are logged, never shown.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { renderErrorPage } from '../../pages/system/route'
import type { AppEnv } from '../env'

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/')
}

/**
 * Failures of the database or the runtime that a retry can fix. They are matched on the message
 * (D1 and workerd report them only as text), anywhere in the error's `cause` chain:
 * - busy or locked database (SQLITE_BUSY, SQLITE_LOCKED, "database is locked"), and a statement
 *   that ran but whose session commit token D1 could not get ("Failed to get session commit
 *   token": how a read of a locked database fails inside a D1 session),
 * - D1 overloaded or its requests queued too long,
 * - lost, reset, closed or refused connections ("Network connection lost", ECONNRESET…),
 * - the database object reset (code update, start-up or internal error, a storage operation that
 *   exceeded its timeout, an isolate over its memory or CPU limit),
 * - time-outs (including an aborted fetch's TimeoutError) and "transient issue" answers.
 */
const TRANSIENT_PATTERNS: RegExp[] = [
  /SQLITE_BUSY|SQLITE_LOCKED|database (table )?is (locked|busy)|failed to get session commit token/i,
  /overloaded|queued for too long|too many requests queued|too many requests/i,
  /network connection lost|connection (was )?(lost|reset|closed|refused|aborted)|ECONNRESET|ECONNREFUSED|EPIPE|socket hang up|client disconnected/i,
  /object to be reset|reset because|storage operation exceeded|exceeded (its )?(memory|cpu time) limit|memory limit and was reset|isolate.*(reset|exceeded)/i,
  /\btimed out\b|TimeoutError|due to timeout|timeout (exceeded|expired)|exceeded (its |the )?timeout|deadline exceeded/i,
  /transient (issue|error)|temporarily unavailable|service unavailable|try again later/i,
]

/**
 * Failures a retry cannot fix, even when their text also mentions a transient word: constraint
 * violations, SQL and type errors, a statement too large for memory. They stay 500.
 */
const PERMANENT_PATTERNS: RegExp[] = [
  /constraint failed|SQLITE_CONSTRAINT|SQLITE_MISMATCH|SQLITE_TOOBIG|SQLITE_RANGE/i,
  /syntax error|no such (table|column|function)|D1_TYPE_ERROR|D1_COLUMN_NOTFOUND|datatype mismatch|too many SQL variables/i,
  /memory limit would be exceeded by this operation|string or blob too big|statement too long/i,
]

/** The messages (and names, e.g. TimeoutError) of an error and its causes, outermost first. */
function errorTexts(err: unknown): string[] {
  const out: string[] = []
  let current: unknown = err
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current instanceof Error) {
      out.push(`${current.name}: ${current.message}`)
      current = (current as Error & { cause?: unknown }).cause
    } else {
      out.push(String(current))
      break
    }
  }
  return out
}

/** True for a database or runtime failure a retry can fix (see TRANSIENT_PATTERNS): 503, not 500. */
export function isTransientError(err: unknown): boolean {
  if (err instanceof HTTPException) return false
  const texts = errorTexts(err)
  if (texts.some((t) => PERMANENT_PATTERNS.some((re) => re.test(t)))) return false
  return texts.some((t) => TRANSIENT_PATTERNS.some((re) => re.test(t)))
}

export const RETRY_AFTER_SECONDS = 2
export const MSG_TEMPORARILY_UNAVAILABLE = 'The shop is briefly unavailable. Please try again in a moment.'

export function handleError(err: Error, c: Context<AppEnv>): Response | Promise<Response> {
  const requestId = c.var.requestId ?? 'unknown'
  const transient = isTransientError(err)
  const status = err instanceof HTTPException ? err.status : transient ? 503 : 500
  // Expected failures carry their message; anything else is logged and shown generically.
  const message =
    err instanceof HTTPException
      ? err.message
      : transient
        ? MSG_TEMPORARILY_UNAVAILABLE
        : 'Internal server error'
  if (transient) c.header('retry-after', String(RETRY_AFTER_SECONDS))
  // A refusal that said when to come back (c.header before fail: 429, a briefly unavailable
  // dependency) keeps saying it on the error page as in the JSON envelope.
  const retryAfter = c.res.headers.get('retry-after')
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
  return renderErrorPage(c, status, err instanceof HTTPException || transient ? message : undefined)
    .then((res) => {
      if (retryAfter) res.headers.set('retry-after', retryAfter)
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
