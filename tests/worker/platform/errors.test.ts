import { env, SELF } from 'cloudflare:test'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppEnv } from '../../../worker/platform/env'
import { requestContext } from '../../../worker/platform/middleware/context'
import {
  handleError,
  isTransientError,
  MSG_TEMPORARILY_UNAVAILABLE,
  RETRY_AFTER_SECONDS,
} from '../../../worker/platform/middleware/errors'
import { securityHeaders } from '../../../worker/platform/middleware/security-headers'
import { postStreamed, streamedBody } from '../../helpers/streamed-body'

function appThatThrows(err: Error) {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext)
  app.use('*', securityHeaders)
  app.get('/boom', () => {
    throw err
  })
  app.get('/api/boom', () => {
    throw err
  })
  app.onError(handleError)
  return app
}

afterEach(() => vi.restoreAllMocks())

describe('onError', () => {
  it('renders the minimal-layout error page with status 500 and the request id, and logs the stack', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = appThatThrows(new Error('db password is hunter2'))
    const res = await app.request('/boom', {}, env)
    expect(res.status).toBe(500)
    const requestId = res.headers.get('x-request-id')
    expect(requestId).toBeTruthy()
    const html = await res.text()
    expect(html).toContain('data-layout="minimal"')
    expect(html).toContain(requestId!)
    expect(html).not.toContain('hunter2')
    expect(html).not.toMatch(/at .*\.(ts|js):\d+/)
    const logged = log.mock.calls.map((args) => String(args[0])).join('\n')
    expect(logged).toContain(requestId!)
    expect(logged).toContain('hunter2')
  })

  it('answers /api errors with the JSON envelope and no internals', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await appThatThrows(new Error('SQLITE_ERROR near "x"')).request('/api/boom', {}, env)
    expect(res.status).toBe(500)
    const body = (await res.json()) as { code: number; result: string; meta: { requestId: string } }
    expect(body).toEqual({
      code: 500,
      result: 'Internal server error',
      meta: { requestId: res.headers.get('x-request-id') },
    })
  })

  it('keeps the status and message of an expected HTTPException', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = appThatThrows(new HTTPException(400, { message: 'size must be a positive integer' }))
    const api = await app.request('/api/boom', {}, env)
    expect(api.status).toBe(400)
    expect(((await api.json()) as { result: string }).result).toBe('size must be a positive integer')
    const page = await app.request('/boom', {}, env)
    expect(page.status).toBe(400)
    expect(await page.text()).toContain('size must be a positive integer')
  })

  it('answers a transient D1 failure with 503 and Retry-After, a programming error with 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const busy = appThatThrows(new Error('D1_ERROR: Network connection lost.'))
    const api = await busy.request('/api/boom', {}, env)
    expect(api.status).toBe(503)
    expect(api.headers.get('retry-after')).toBe('2')
    expect(((await api.json()) as { result: string }).result).toBe(
      'The shop is briefly unavailable. Please try again in a moment.',
    )
    const page = await busy.request('/boom', {}, env)
    expect(page.status).toBe(503)
    expect(await page.text()).toContain('briefly unavailable')
    const bug = appThatThrows(new Error('D1_ERROR: UNIQUE constraint failed: orders.order_id'))
    expect((await bug.request('/api/boom', {}, env)).status).toBe(500)
    expect(isTransientError(new Error('D1_ERROR: D1 DB is overloaded. Requests queued for too long.'))).toBe(
      true,
    )
  })
})

/** Failures a retry can fix, as D1, KV, fetch and the runtime word them. */
const TRANSIENT = [
  'D1_ERROR: Network connection lost.',
  'D1_ERROR: D1 DB is overloaded. Too many requests queued.',
  'D1_ERROR: D1 DB is overloaded. Requests queued for too long.',
  'D1_ERROR: D1 DB reset because its code was updated.',
  'D1_ERROR: Internal error while starting up D1 DB storage caused object to be reset.',
  'D1_ERROR: Internal error in D1 DB storage caused object to be reset.',
  'D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.',
  "D1_ERROR: D1 DB's isolate exceeded its memory limit and was reset.",
  'D1_ERROR: D1 DB exceeded its CPU time limit and was reset.',
  'D1_ERROR: Cannot resolve D1 DB due to transient issue on remote node.',
  "D1_ERROR: Can't read from request stream because client disconnected.",
  'D1_ERROR: database is locked: SQLITE_BUSY',
  'SQLITE_BUSY: database is locked',
  // A read of a locked local database inside a D1 session (measured with wrangler dev).
  'D1_ERROR: Failed to get session commit token: internal error; reference = iuatmrloujc64tbb5coepd51',
  'Network connection lost.',
  'Durable Object reset because its code was updated.',
  'KV GET failed: 429 Too Many Requests',
  'The operation timed out.',
  'connection reset by peer (ECONNRESET)',
  'Upstream answered 503 Service Unavailable',
]

/** Failures a retry cannot fix: they stay a 500 with the generic message. */
const PERMANENT = [
  'D1_ERROR: UNIQUE constraint failed: orders.order_id: SQLITE_CONSTRAINT',
  'D1_ERROR: near "SELCT": syntax error at offset 0: SQLITE_ERROR',
  'D1_ERROR: no such table: nope: SQLITE_ERROR',
  'D1_TYPE_ERROR: Type undefined is not supported for value undefined',
  'D1_ERROR: Memory limit would be exceeded by this operation.',
  // A constraint failure stays permanent even while the database is also busy.
  'D1_ERROR: CHECK constraint failed: qty > 0 (database is locked)',
  "Cannot read properties of undefined (reading 'timeout')",
  'x is not a function',
  'db password is hunter2',
]

describe('transient failures answer 503 with Retry-After; everything else stays 500', () => {
  it.each(TRANSIENT)('503 + Retry-After for %j, on /api and on pages', async (message) => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = appThatThrows(new Error(message))
    const api = await app.request('/api/boom', {}, env)
    expect(api.status).toBe(503)
    expect(api.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS))
    const body = (await api.json()) as { code: number; result: string }
    expect(body).toMatchObject({ code: 503, result: MSG_TEMPORARILY_UNAVAILABLE })
    const page = await app.request('/boom', {}, env)
    expect(page.status).toBe(503)
    expect(page.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS))
    const html = await page.text()
    expect(html).toContain('briefly unavailable')
    expect(html).not.toContain(message)
  })

  it.each(PERMANENT)('500 without Retry-After, stack or message for %j', async (message) => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const app = appThatThrows(new Error(message))
    const api = await app.request('/api/boom', {}, env)
    expect(api.status).toBe(500)
    expect(api.headers.get('retry-after')).toBeNull()
    const text = await api.text()
    expect(JSON.parse(text)).toMatchObject({ code: 500, result: 'Internal server error' })
    expect(text).not.toMatch(/at .*\.(ts|js):\d+/)
    const page = await app.request('/boom', {}, env)
    expect(page.status).toBe(500)
    expect(page.headers.get('retry-after')).toBeNull()
    const html = await page.text()
    expect(html).not.toContain(message)
    expect(html).not.toMatch(/at .*\.(ts|js):\d+/)
  })

  it('looks through the cause chain and error names (an aborted fetch, a wrapped D1 error)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const wrapped = new Error('loading the menu failed', {
      cause: new Error('D1_ERROR: Network connection lost.'),
    })
    expect((await appThatThrows(wrapped).request('/api/boom', {}, env)).status).toBe(503)
    const aborted = new DOMException('The operation was aborted due to timeout', 'TimeoutError')
    expect(isTransientError(aborted)).toBe(true)
    const constraintBehindBusy = new Error('write failed: database is locked', {
      cause: new Error('D1_ERROR: UNIQUE constraint failed: carts.guest_token'),
    })
    expect((await appThatThrows(constraintBehindBusy).request('/api/boom', {}, env)).status).toBe(500)
    // Expected failures keep their own status, whatever their text says.
    const expected = new HTTPException(400, { message: 'timeout must be a positive number' })
    expect((await appThatThrows(expected).request('/api/boom', {}, env)).status).toBe(400)
    expect(isTransientError('Network connection lost.')).toBe(true)
    expect(isTransientError(undefined)).toBe(false)
  })
})

describe('request bodies on /api', () => {
  it('an endpoint without a limit of its own reads at most 1 MiB (400 naming the limit, streamed or declared)', async () => {
    const big = JSON.stringify({ review: { title: 'x'.repeat(1024 * 1024 + 10) } })
    const declared = await SELF.fetch('https://shop.test/api/review/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    })
    expect(declared.status).toBe(400)
    expect(((await declared.json()) as { result: string }).result).toBe(
      `Request body is too large (at most ${1024 * 1024} bytes)`,
    )
    const streamed = await postStreamed('/api/user/login', streamedBody(1.5 * 1024 * 1024).body)
    expect(streamed.status).toBe(400)
  })
})
