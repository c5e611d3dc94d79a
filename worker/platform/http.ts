/**
 * Shared plumbing of the transactional API areas: the `{code,result}` envelope, zod-validated
 * bodies and queries (bad input → 400 envelope with a readable message), `Cache-Control: no-store`.
 */

import type { Context, MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { z } from 'zod'
import type { AppEnv } from './env'

/** Throws the error envelope `{code: status, result: message}` (rendered by app.onError). */
export function fail(status: ContentfulStatusCode, message: string): never {
  throw new HTTPException(status, { message })
}

/** Answers `{code, result, meta?}` with HTTP status = code. */
export function ok(c: Context<AppEnv>, result: unknown, meta?: Record<string, unknown>, code = 200) {
  const body: Record<string, unknown> = { code, result }
  if (meta) body.meta = meta
  return c.json(body, code as ContentfulStatusCode)
}

/** Formats zod issues as one line: `products.1.sku: Invalid input: expected string, received undefined`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.')
      return path ? `${path}: ${issue.message}` : issue.message
    })
    .join('; ')
}

/** Reads and validates the JSON body; anything else is a 400 envelope. */
export async function readBody<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
  label = 'request body',
): Promise<z.infer<S>> {
  let raw: unknown
  const text = await c.req.text()
  if (text.trim() === '') raw = {}
  else {
    try {
      raw = JSON.parse(text)
    } catch {
      fail(400, `Invalid ${label}: not valid JSON`)
    }
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) fail(400, `Invalid ${label}: ${describeIssues(parsed.error)}`)
  return parsed.data
}

/** Validates the query string (first value of each key). */
export function readQuery<S extends z.ZodType>(c: Context<AppEnv>, schema: S): z.infer<S> {
  const parsed = schema.safeParse(c.req.query())
  if (!parsed.success) fail(400, `Invalid query: ${describeIssues(parsed.error)}`)
  return parsed.data
}

/** Marks every response of a sub-app as private, never stored by any cache. */
/** Reads at most `maxSize` bytes of a request body (declared or streamed); more is a 400 that says so. */
export function limitBody(maxSize: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize,
    onError: () => fail(400, `Request body is too large (at most ${maxSize} bytes)`),
  })
}

/** The largest body any /api call reads, unless its area sets a smaller limit. */
export const MAX_API_BODY_BYTES = 1024 * 1024

export const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next()
  c.header('Cache-Control', 'no-store')
}

/**
 * The caller's IP: CF-Connecting-IP, which Cloudflare sets on every request (a client cannot
 * choose it there). `wrangler dev` sets 127.0.0.1, so locally all browser requests share one
 * address; tests set the header explicitly.
 */
export function clientIp(c: Context<AppEnv>): string {
  return c.req.header('cf-connecting-ip') ?? 'unknown'
}
