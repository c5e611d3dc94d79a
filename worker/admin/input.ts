/**
 * Operator input: the same zod schema validates a JSON body (the /admin/api callers) and an HTML
 * form post (the pages work without script), and refusals read like every other 400 of the shop:
 * `Invalid <what>: <field>: <rule>`. A form post is answered with a redirect back to its page.
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import { describeIssues, fail, MAX_API_BODY_BYTES, ok } from '../platform/http'
import type { AdminEnv } from './env'

const MAX_BODY_BYTES = MAX_API_BODY_BYTES

export function isFormPost(c: Context<AdminEnv>): boolean {
  const type = c.req.header('content-type') ?? ''
  return type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')
}

/** The request's input, validated by `schema`; bad or over-long input is a 400 naming what was wrong. */
export async function readInput<S extends z.ZodType>(
  c: Context<AdminEnv>,
  schema: S,
  what: string,
): Promise<z.output<S>> {
  const declared = Number(c.req.header('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) fail(400, `Request body is too large (at most ${MAX_BODY_BYTES} bytes)`)
  let value: unknown
  if (isFormPost(c)) {
    const form = await c.req.parseBody()
    // An empty form field means "not given" (optional fields keep their defaults). A repeated
    // field keeps its last value, so a hidden "false" before a checkbox is the unchecked state.
    value = Object.fromEntries(
      Object.entries(form).filter(
        ([k, v]) => k !== '_csrf' && k !== 'return_to' && typeof v === 'string' && v.trim() !== '',
      ),
    )
  } else {
    const text = await c.req.text()
    if (text.length > MAX_BODY_BYTES) fail(400, `Request body is too large (at most ${MAX_BODY_BYTES} bytes)`)
    try {
      value = text.trim() === '' ? {} : JSON.parse(text)
    } catch {
      fail(400, `Invalid ${what}: malformed JSON`)
    }
  }
  const parsed = await schema.safeParseAsync(value)
  if (!parsed.success) fail(400, `Invalid ${what}: ${describeIssues(parsed.error)}`)
  return parsed.data as z.output<S>
}

/** Where a form post returns to: a page of the back office only (never another site). */
async function returnTo(c: Context<AdminEnv>, fallback: string): Promise<string> {
  const form = await c.req.parseBody()
  const target = typeof form.return_to === 'string' ? form.return_to : ''
  return /^\/admin(\/[A-Za-z0-9/_.?=&%-]*)?$/.test(target) && !target.startsWith('//') ? target : fallback
}

/** The answer of a change: the envelope for API callers, a redirect back for a form post. */
export async function answer(c: Context<AdminEnv>, result: unknown, fallback = '/admin') {
  if (isFormPost(c)) return c.redirect(await returnTo(c, fallback), 303)
  return ok(c as never, result)
}

/**
 * A LIKE pattern matching text that contains `q` literally (use with `ESCAPE '\\'`): the
 * operator's % and _ are ordinary characters, never wildcards.
 */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`
}
