import { env } from 'cloudflare:test'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppEnv } from '../../worker/env'
import { requestContext } from '../../worker/middleware/context'
import { handleError, isTransientDbError } from '../../worker/middleware/errors'
import { securityHeaders } from '../../worker/middleware/security-headers'

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
    expect(
      isTransientDbError(new Error('D1_ERROR: D1 DB is overloaded. Requests queued for too long.')),
    ).toBe(true)
    expect(isTransientDbError(new Error('SQLITE_BUSY but not from D1'))).toBe(false)
  })
})
