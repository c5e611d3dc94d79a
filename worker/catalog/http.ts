/**
 * Helpers for the catalogue read endpoints: the `{code, result}` envelope and zod validation that
 * turns bad input into a 400 envelope with a clear message (via HTTPException → onError).
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { z } from 'zod'
import type { AppEnv } from '../platform/env'
import { describeIssues } from './validation'

export { describeIssues }

/** A 200 `{code, result}` envelope. */
export function ok(c: Context<AppEnv>, result: unknown): Response {
  return c.json({ code: 200, result }, 200)
}

/** Throws a 4xx envelope error. */
export function fail(status: 400 | 404 | 413, message: string): never {
  throw new HTTPException(status, { message })
}

/** Parses a value with a schema or throws a 400 envelope naming what was wrong. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const res = schema.safeParse(value)
  if (!res.success) fail(400, `Invalid ${what}: ${describeIssues(res.error)}`)
  return res.data
}

/** Reads a JSON body (empty body → {}); malformed JSON is a 400. */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const text = await c.req.text()
  if (!text.trim()) return {}
  try {
    return JSON.parse(text)
  } catch {
    return fail(400, 'Invalid request body: malformed JSON')
  }
}
