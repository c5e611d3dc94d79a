/**
 * The one convention of the /api areas: the `{code, result, meta?}` envelope (`ok` answers it,
 * `fail` throws it for the error handler to render), input validated by zod schemas through
 * `zValidator` with one hook (bad input → 400 envelope whose message names the field), bodies
 * read within a byte limit, `Cache-Control: no-store` for private answers, the caller's address.
 */

import { zValidator } from '@hono/zod-validator'
import type { Context, Env, MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
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
export function describeIssues(error: ZodIssues): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.')
      return path ? `${path}: ${issue.message}` : issue.message
    })
    .join('; ')
}

/**
 * Lets at most `maxSize` bytes of a request body through; more is a 400 that says so. A declared
 * length is checked at once. A streamed body (no length) is not read here: it is wrapped in a
 * counter that fails the read once `maxSize` bytes have passed, so nested limits (the /api-wide one
 * around an area's smaller one) cost no reading of their own and the smallest of them stops the
 * read (the upstream proxy reads the body through it too). `message` replaces the refusal's words.
 */
export function limitBody<E extends Env = AppEnv>(
  maxSize: number,
  message = `Request body is too large (at most ${maxSize} bytes)`,
): MiddlewareHandler<E> {
  const refusal = () => new HTTPException(400, { message })
  return async (c, next) => {
    const raw = c.req.raw
    if (!raw.body) return next()
    const declared = raw.headers.get('content-length')
    if (declared !== null && !raw.headers.has('transfer-encoding')) {
      if (Number.parseInt(declared, 10) > maxSize) throw refusal()
      return next()
    }
    let passed = 0
    const counted = raw.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          passed += chunk.byteLength
          if (passed > maxSize) controller.error(refusal())
          else controller.enqueue(chunk)
        },
      }),
    )
    c.req.raw = new Request(raw, { body: counted, duplex: 'half' } as RequestInit)
    return next()
  }
}

/** The largest body any /api call reads, unless its area sets a smaller limit. */
export const MAX_API_BODY_BYTES = 1024 * 1024

/** What a zod error carries (zod's classic and core errors alike). */
type ZodIssues = { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> }

type Target = 'json' | 'query' | 'param'
/** A validating middleware: `c.req.valid(target)` is the schema's output in the handler. */
type Validated<T extends Target, S extends z.ZodType> = MiddlewareHandler<
  AppEnv,
  string,
  { in: { [K in T]: z.input<S> }; out: { [K in T]: z.output<S> } }
>

/** The one validation hook: input the schema refuses is a 400 `Invalid <what>: <field>: <rule>`. */
function refuseInvalid(what: string) {
  return (result: { success: boolean; error?: ZodIssues }) => {
    if (!result.success && result.error) fail(400, `Invalid ${what}: ${describeIssues(result.error)}`)
  }
}

/**
 * Deepest nesting of arrays and objects a JSON body may have. The storefront's bodies nest fewer
 * than 10 levels; a megabyte of '[' (500,000 levels) takes a second of parsing and collecting, so
 * a body nested deeper is refused before it is parsed.
 */
const MAX_JSON_BODY_DEPTH = 64

/** Whether JSON text nests arrays and objects deeper than `max` (one pass; strings skipped). */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 92) i++
      else if (ch === 34) inString = false
    } else if (ch === 34) inString = true
    else if (ch === 91 || ch === 123) {
      if (++depth > max) return true
    } else if (ch === 93 || ch === 125) depth--
  }
  return false
}

/** The body as JSON whatever its declared type: empty → `{}`, anything unparseable → a 400. */
async function parseJsonBody(c: Context<AppEnv>, what: string): Promise<unknown> {
  const text = await c.req.text()
  if (text.trim() === '') return {}
  if (nestsDeeperThan(text, MAX_JSON_BODY_DEPTH))
    return fail(400, `Invalid ${what}: nested deeper than ${MAX_JSON_BODY_DEPTH} levels`)
  try {
    return JSON.parse(text)
  } catch {
    return fail(400, `Invalid ${what}: malformed JSON`)
  }
}

/**
 * Validates the JSON body against `schema` (`what` names it in messages). The body is read within
 * `maxBytes` when given (the /api-wide limit of MAX_API_BODY_BYTES applies anyway), and read as JSON
 * whatever content type the caller declared, as the storefront clients have always been answered.
 */
export function jsonBody<S extends z.ZodType>(
  schema: S,
  opts: { what?: string; maxBytes?: number } = {},
): Validated<'json', S> {
  const what = opts.what ?? 'request body'
  const hook = refuseInvalid(what)
  const validate: MiddlewareHandler<AppEnv> = async (c, next) => {
    const value = await parseJsonBody(c, what)
    // Later reads of the body as JSON (the validator's among them) get the value parsed here,
    // so a body is parsed once and an empty one stays `{}`.
    c.req.json = <T>() => Promise.resolve(value as T)
    const check = zValidator('json', schema, hook, {
      validationFunction: (s) => s.safeParseAsync(value) as never,
    })
    return (check as unknown as MiddlewareHandler<AppEnv>)(c, next)
  }
  if (opts.maxBytes === undefined) return validate as Validated<'json', S>
  const limit = limitBody(opts.maxBytes)
  return (async (c, next) => limit(c, () => validate(c, next) as Promise<void>)) as Validated<'json', S>
}

/** Validates the query string (the first value of each key) against `schema`. */
export function query<S extends z.ZodType>(schema: S, what = 'query'): Validated<'query', S> {
  return zValidator('query', schema, refuseInvalid(what), {
    validationFunction: (s, value) =>
      s.safeParseAsync(
        Object.fromEntries(
          Object.entries(value as Record<string, string | string[]>).map(([k, v]) => [
            k,
            Array.isArray(v) ? v[0] : v,
          ]),
        ),
      ) as never,
  }) as unknown as Validated<'query', S>
}

/** Validates the path parameters against `schema`. */
export function params<S extends z.ZodType>(schema: S, what = 'path'): Validated<'param', S> {
  return zValidator('param', schema, refuseInvalid(what)) as unknown as Validated<'param', S>
}

/** Marks every response of a sub-app as private, never stored by any cache. */
export const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next()
  c.header('Cache-Control', 'no-store')
}

/**
 * The caller's IP: CF-Connecting-IP, which Cloudflare sets on every request (a client cannot
 * choose it there). `wrangler dev` sets 127.0.0.1, so locally all browser requests share one
 * address; tests set the header explicitly.
 */
export function clientIp(c: Context): string {
  return c.req.header('cf-connecting-ip') ?? 'unknown'
}

/**
 * The rate-limit identity of an address: IPv4 as is, IPv6 by its /64 network (one subscriber
 * usually holds a whole /64, so counting single IPv6 addresses would not limit anyone).
 */
export function addressKey(ip: string): string {
  // IPv4, and IPv4 written as IPv6 (::ffff:192.0.2.1): the IPv4 address itself.
  if (!ip.includes(':') || ip.includes('.')) return ip.slice(ip.lastIndexOf(':') + 1)
  const [head = '', tail = ''] = ip.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = tail ? tail.split(':') : []
  const groups = ip.includes('::')
    ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/** The caller's address as the per-address limits count it (`addressKey` of `clientIp`). */
export function clientAddress(c: Context): string {
  return addressKey(clientIp(c))
}

/**
 * A `skus` query parameter: comma-separated SKUs, trimmed, blanks and repeats dropped, each at
 * most 128 characters, between 1 and `max` of them.
 */
export function skuListParam(max: number) {
  return z
    .string({ error: 'Missing skus' })
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.string().max(128, 'sku is too long'))
        .min(1, 'Missing skus')
        .max(max, `At most ${max} skus per request`),
    )
}
