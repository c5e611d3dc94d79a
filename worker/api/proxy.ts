/**
 * Upstream proxy: with API_UPSTREAM set, /api/* is forwarded to a vue-storefront-api compatible
 * server (method, path, query, body and the spec's headers). 5000 ms time-out → 504 envelope;
 * an unreachable upstream → 502 envelope; upstream 5xx passed on as an envelope.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../env'

export const UPSTREAM_TIMEOUT_MS = 5000

const FORWARDED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'store',
  'x-vs-store-code',
  'send-final-price',
  'send-converted-price',
  'country-id',
  'currency',
  'x-request-id',
]

function envelope(code: number, result: string, requestId: string): Response {
  return new Response(JSON.stringify({ code, result, meta: { requestId } }), {
    status: code,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
}

export async function proxyToUpstream(
  c: Context<AppEnv>,
  upstream: string,
  fetcher: typeof fetch = fetch,
): Promise<Response> {
  const url = new URL(c.req.url)
  const target = `${upstream}${url.pathname}${url.search}`
  const headers = new Headers()
  for (const name of FORWARDED_HEADERS) {
    const v = c.req.header(name)
    if (v) headers.set(name, v)
  }
  headers.set('x-request-id', c.var.requestId)
  const method = c.req.method
  const body = method === 'GET' || method === 'HEAD' ? undefined : await c.req.arrayBuffer()
  let res: Response
  try {
    res = await fetcher(target, { method, headers, body, signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS) })
  } catch (err) {
    const name = (err as Error)?.name
    if (name === 'TimeoutError' || name === 'AbortError') {
      return envelope(504, `Upstream API did not answer within ${UPSTREAM_TIMEOUT_MS} ms`, c.var.requestId)
    }
    return envelope(502, 'Upstream API is unreachable', c.var.requestId)
  }
  const type = res.headers.get('content-type') ?? ''
  if (res.status >= 500 && !type.includes('application/json')) {
    return envelope(res.status, `Upstream API error (${res.status})`, c.var.requestId)
  }
  const out = new Headers()
  for (const name of ['content-type', 'cache-control', 'x-vs-cache', 'x-vs-cache-tags', 'etag']) {
    const v = res.headers.get(name)
    if (v) out.set(name, v)
  }
  return new Response(res.body, { status: res.status, headers: out })
}
